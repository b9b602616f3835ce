import { RefusedError, ValidationError } from '../infra/index.js';

/**
 * The events feed as an append-only log: each recorded event is a record of its own, given the workspace's next
 * sequence (1, 2, 3...: gapless, never reused) in the same atomic step that appends it, so recording costs the
 * same at the millionth event as at the first. Layout per backend: docs/decisions.md, "events log".
 */

/** The document the feed lived in before the log (read once and migrated, then left in place for older builds). */
export const LEGACY_EVENTS_DOCUMENT = 'coord.events';

/** A recorded event as the log holds it: what was given, plus `seq`. */
export type LoggedEvent = Record<string, unknown> & { seq: number };

export interface EventLogRead {
  /** Events with a sequence above `after`, oldest first, at most `limit`. */
  events: LoggedEvent[];
  /** The oldest sequence the log still holds (null when it holds none). */
  first_seq: number | null;
  /** The highest sequence ever assigned (0 when none). */
  last_seq: number;
}

export interface EventLogReadOptions {
  /** Only events whose sequence is above this. */
  after?: number;
  /** At most this many (the oldest first). */
  limit?: number;
}

/** The retention of the log (`state.events` in the application config). */
export interface EventRetention {
  /** The newest this many events are always kept. */
  count: number;
  /** Events older than this many days may be removed, but never below MIN_RETAINED_EVENTS (0: no age bound). */
  days: number;
}

/** The floor the age bound never goes below: as many events as the single-document feed kept. */
export const MIN_RETAINED_EVENTS = 5000;

export const DEFAULT_EVENT_RETENTION: EventRetention = { count: 10_000, days: 30 };

/** How much JSON one recorded event may take (characters); hub's own events clip their long texts to fit. */
export const MAX_EVENT_BYTES = 64 * 1024;

/** Per-workspace event log of a store. */
export interface EventLog {
  /**
   * Appends `event` with the next sequence (any `seq` it carries is replaced); returns the sequence and the id
   * it was stored under (an id repeated among the newest events gets `~2`, `~3`..., where the backend sees them);
   * both undefined only when an older hub server (http backend) recorded it without saying.
   */
  append(event: Record<string, unknown>): Promise<{ seq: number | undefined; id: unknown }>;
  read(opts?: EventLogReadOptions): Promise<EventLogRead>;
  /** Removes what retention allows, never the newest event; runs beside writers without blocking them. */
  compact(now?: Date): Promise<{ removed: number }>;
  /**
   * Stores `events` with their own sequences (ascending) into a log that holds none (`hub state migrate`);
   * refuses (409) a log that holds events. Absent where the backend cannot (http: its server numbers events).
   */
  import?(events: readonly LoggedEvent[]): Promise<void>;
}

/** Refuses an import into a log that already holds events. */
export function refuseImport(last: number): never {
  throw new RefusedError(
    `the target's events log already holds events (up to sequence ${last}); migrate to a workspace whose log is empty`,
    { document: LEGACY_EVENTS_DOCUMENT, last_seq: last, rule: 'log_empty' },
    409,
  );
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const seqOf = (e: unknown): number | undefined => {
  const s = (e as { seq?: unknown } | null)?.seq;
  return typeof s === 'number' && Number.isSafeInteger(s) && s > 0 ? s : undefined;
};

/**
 * The events of the legacy `coord.events` document with their sequences (an event stored without one gets one
 * more than the event before, as the document's readers numbered them) and its highest sequence. A document that
 * is not `{events: [...]}` holds none.
 */
export function legacyEvents(doc: unknown): { events: LoggedEvent[]; last: number } {
  if (!isObject(doc) || !Array.isArray(doc.events)) return { events: [], last: 0 };
  let counter = 0;
  const events: LoggedEvent[] = [];
  for (const e of doc.events) {
    if (!isObject(e)) continue;
    const s = seqOf(e);
    counter = s === undefined ? counter + 1 : Math.max(counter, s);
    events.push(s === undefined ? { ...e, seq: counter } : (e as LoggedEvent));
  }
  const stored = typeof doc.last_seq === 'number' && Number.isSafeInteger(doc.last_seq) ? doc.last_seq : 0;
  return { events, last: Math.max(counter, stored) };
}

/** An id none of `recent` has: `id`, else `id~2`, `id~3`... (two updates of one objective in one millisecond). */
export function uniqueAmong(id: unknown, recent: readonly Record<string, unknown>[]): unknown {
  if (typeof id !== 'string' || recent.length === 0) return id;
  // Mostly not taken: one pass, no set built.
  if (!recent.some((e) => e.id === id)) return id;
  const taken = new Set<unknown>();
  for (const e of recent) taken.add(e.id);
  if (!taken.has(id)) return id;
  let n = 2;
  while (taken.has(`${id}~${n}`)) n++;
  return `${id}~${n}`;
}

/**
 * The record of `event` at `seq`: an object (refused otherwise), its id made unique among `recent`, within
 * MAX_EVENT_BYTES as JSON (refused past it: one event must never crowd out the feed). Returns its JSON line too.
 */
export function eventRecord(
  event: unknown,
  seq: number,
  recent: readonly Record<string, unknown>[] = [],
): { record: LoggedEvent; line: string } {
  if (!isObject(event))
    throw new ValidationError('event: must be a JSON object', { field: 'event', rule: 'json_object' });
  // A copy without a `seq` given (a spread is V8's fast clone; a rest pattern that leaves a key out is not).
  let record: Record<string, unknown>;
  if (Object.hasOwn(event, 'seq')) {
    const { seq: _given, ...rest } = event;
    record = rest;
  } else record = { ...event };
  const id = uniqueAmong(record.id, recent);
  if (id !== undefined) record.id = id;
  record.seq = seq;
  const line = JSON.stringify(record);
  if (line.length > MAX_EVENT_BYTES)
    throw new ValidationError(
      `event: takes ${line.length} characters of JSON, past the limit of ${MAX_EVENT_BYTES} of one recorded event (max_event_bytes); nothing was recorded: send a shorter event (keep long texts in the document it is about)`,
      { field: 'event', value: line.length, limit: MAX_EVENT_BYTES, rule: 'max_event_bytes' },
    );
  return { record: record as LoggedEvent, line };
}

/** Refuses a legacy document that is not `{events: [...]}`, as the document's append refused it (409). */
export function checkLegacyShape(doc: unknown): void {
  if (doc === undefined || doc === null) return;
  if (!isObject(doc) || (doc.events !== undefined && !Array.isArray(doc.events)))
    throw new RefusedError(
      `cannot record events: the '${LEGACY_EVENTS_DOCUMENT}' document is not {"events": [...]}; move it aside`,
      { document: LEGACY_EVENTS_DOCUMENT, rule: 'append_target_list' },
      409,
    );
}

/**
 * The highest sequence retention lets go of (events at or below it may be removed), given the log's newest
 * sequence and, for the age bound, the sequence of the newest event older than the cut-off (0 when none is).
 */
export function retentionFloor(last: number, newestTooOld: number, r: EventRetention): number {
  const byCount = last - r.count;
  const byAge = r.days > 0 ? Math.min(newestTooOld, last - MIN_RETAINED_EVENTS) : 0;
  // Never the newest event: it carries the sequence.
  return Math.min(Math.max(byCount, byAge, 0), last - 1);
}

/** The events of `list` with a sequence above `after`, at most `limit`. */
export function pageOf(
  list: readonly LoggedEvent[],
  after: number,
  limit: number | undefined,
): LoggedEvent[] {
  // Sorted by sequence: binary search for the first one above `after`.
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.seq <= after) lo = mid + 1;
    else hi = mid;
  }
  return list.slice(lo, limit === undefined ? undefined : lo + limit);
}

/** The time of an event's `timestamp` in ms (0 when it has none that parses). */
export function eventTime(e: Record<string, unknown>): number {
  const t = typeof e.timestamp === 'string' ? Date.parse(e.timestamp) : Number.NaN;
  return Number.isNaN(t) ? 0 : t;
}
