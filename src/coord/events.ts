import type * as z from 'zod';
import { ValidationError } from '../infra/index.js';
import type { DocumentStore } from '../state/index.js';
import { handoffEntryEvents, objectiveCreatedEvent, objectiveUpdatedEvent } from './change-events.js';
import { DOCS, parseDoc } from './documents.js';
import { sequenced } from './events-sequence.js';
import { handoffsView } from './handoffs.js';
import {
  type CoordEvent,
  EventsDocSchema,
  type EventsFeed,
  type Handoff,
  HandoffsDocSchema,
  type Objective,
  ObjectivesDocSchema,
} from './schemas.js';
import type { SetAsideRecord } from './set-aside.js';

export interface EventsFilter {
  /** ISO timestamp; only events strictly after it are returned. */
  since?: string;
  /**
   * A sequence (`next_seq` of an earlier read): only recorded events with a higher `seq` (derived events, which
   * have none, are left out).
   */
  after_seq?: number;
  /** Objective id: events whose subject or `data.objective_id` is it. */
  objective?: string;
  /**
   * Campaign slug: events whose `data.campaign` is it (payload.campaign of handoffs and approvals, campaign
   * changes), and events of objectives whose id starts with `campaign-<slug>-`.
   */
  campaign?: string;
  /**
   * At most this many events, the oldest first; `truncated` says more follow. The next page: `next_seq` as
   * `after_seq` (recorded events), or `next_cursor` as `since` (derived ones too, by timestamp).
   */
  limit?: number;
}

const ISO_RE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const time = (s: string) => {
  const t = Date.parse(s);
  return Number.isNaN(t) ? 0 : t;
};

/** ObjectiveCreated at created_at, and ObjectiveUpdated at updated_at when it differs (the latest update only). */
export function objectiveEvents(objectives: readonly Objective[]): CoordEvent[] {
  return objectives.flatMap((o) =>
    o.updated_at === o.created_at
      ? [objectiveCreatedEvent(o)]
      : [objectiveCreatedEvent(o), objectiveUpdatedEvent(o)],
  );
}

/** One event per entry of each handoff's `events[]`. */
export function handoffEvents(handoffs: readonly Handoff[]): CoordEvent[] {
  return handoffs.flatMap((h) => handoffEntryEvents(h));
}

/** Checks an ISO timestamp filter; returns its time in ms. */
export function parseSince(since: string): number {
  const t = Date.parse(since);
  if (!ISO_RE.test(since.trim()) || Number.isNaN(t)) {
    throw new ValidationError(`since: '${since}' is not an ISO 8601 timestamp (e.g. 2026-01-31T12:00:00Z)`, {
      field: 'since',
      value: since,
      rule: 'iso_timestamp',
    });
  }
  return t;
}

const objectiveOf = (e: CoordEvent) =>
  typeof e.data.objective_id === 'string' ? e.data.objective_id : undefined;

/** Backends whose objectives and handoffs are hub's own documents, so the derived stream applies. */
const DERIVING_BACKENDS = new Set(['local', 'http']);

/**
 * The events feed. Recorded events (`coord.events`: every objective and handoff change an operation made, ACL,
 * approvals, task graphs...) in sequence order; on the local backend and on a hub server reached through the http
 * backend also the objective and handoff events derived from their documents that nothing recorded (changes from
 * before they were recorded, raw document writes, an expired claim not yet written), merged in by timestamp. The
 * direct memory and cloud backends serve only `coord.events`, as the spec says.
 *
 * `since` is exclusive, so passing `next_cursor` back as `since` returns only newer events. `after_seq` with
 * `next_seq` reads by sequence: recorded events only, each once, including one recorded later in the cursor's
 * millisecond; a derived event enters that feed when it is recorded (with the same id).
 */
export async function eventsFeed(
  store: DocumentStore,
  filter: EventsFilter = {},
  now: () => Date = () => new Date(),
  report?: (records: readonly SetAsideRecord[]) => void,
): Promise<EventsFeed> {
  const sinceMs = filter.since === undefined ? undefined : parseSince(filter.since);
  // Through the http backend the hub server answers the whole feed (its log, its derived events).
  if (store.callRoute) {
    const asked = await askServer(store, filter);
    if (asked) {
      if (asked.set_aside && asked.set_aside.length > 0) report?.(asked.set_aside);
      return asked;
    }
  }
  const setAside: SetAsideRecord[] = [];
  const parse = <S extends z.ZodType>(name: string, schema: S, value: unknown): z.output<S> =>
    parseDoc(name, schema, value, (records) => setAside.push(...records));
  let { recorded, firstSeq } = await recordedEvents(store, filter, parse);
  let derived: CoordEvent[] = [];
  if (filter.after_seq !== undefined) {
    const after = filter.after_seq;
    recorded = recorded.filter((e) => e.seq !== undefined && e.seq > after);
  } else if (DERIVING_BACKENDS.has(store.backend)) {
    const objectives = parse(
      DOCS.objectives,
      ObjectivesDocSchema,
      (await store.read(DOCS.objectives)).value,
    ).objectives;
    // As every listing shows them: an expired claim's release is an event from its expiry on, written or not.
    const stored = parse(DOCS.handoffs, HandoffsDocSchema, (await store.read(DOCS.handoffs)).value);
    const { handoffs } = handoffsView(stored, now()).view;
    const ids = new Set(recorded.map((e) => e.id));
    // concat, not push(...): a long list spread as arguments overflows the stack.
    derived = objectiveEvents(objectives)
      .concat(handoffEvents(handoffs))
      .filter((e) => !ids.has(e.id));
  }
  if (setAside.length > 0) report?.(setAside);
  const keep = (e: CoordEvent) => {
    if (sinceMs !== undefined && time(e.timestamp) <= sinceMs) return false;
    if (filter.objective && e.subject !== filter.objective && objectiveOf(e) !== filter.objective)
      return false;
    if (filter.campaign) {
      // Events that name the campaign (`data.campaign`: campaign changes, handoffs and approvals whose payload
      // names it), and those of its objectives (ids `campaign-<slug>-*`, as expand makes them).
      if (e.data.campaign === filter.campaign) return true;
      const prefix = `campaign-${filter.campaign}-`;
      return [e.subject, objectiveOf(e)].some((s) => s?.startsWith(prefix));
    }
    return true;
  };
  recorded = recorded.filter(keep).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
  derived = derived.filter(keep).sort(byTime);
  const all = mergeByTime(recorded, derived);
  const truncated = filter.limit !== undefined && all.length > filter.limit;
  const events = truncated ? all.slice(0, filter.limit) : all;
  // Recorded events keep their sequence order in the merge: those of a page are the first of `recorded`.
  let lastSeq = filter.after_seq;
  for (const e of events) if (e.seq !== undefined) lastSeq = e.seq;
  const newest = events.reduce<CoordEvent | undefined>(
    (m, e) => (m === undefined || byTime(e, m) > 0 ? e : m),
    undefined,
  );
  return {
    ok: true,
    schema_version: 1,
    since: filter.since ?? null,
    next_cursor: newest?.timestamp ?? filter.since ?? null,
    next_seq: lastSeq ?? null,
    first_seq: firstSeq,
    truncated,
    events,
    ...(setAside.length > 0 ? { set_aside: setAside } : {}),
  };
}

/**
 * The recorded events the feed starts from: the store's events log (only what is after `after_seq` is read, and
 * with no other filter only as many as the page holds), else (a store of the older interface) the `coord.events`
 * document.
 */
async function recordedEvents(
  store: DocumentStore,
  filter: EventsFilter,
  parse: <S extends z.ZodType>(name: string, schema: S, value: unknown) => z.output<S>,
): Promise<{ recorded: CoordEvent[]; firstSeq: number | null }> {
  if (store.events) {
    const bySeqOnly =
      filter.after_seq !== undefined &&
      filter.since === undefined &&
      filter.objective === undefined &&
      filter.campaign === undefined;
    const got = await store.events.read({
      after: filter.after_seq,
      // One more than the page: whether more follow (truncated).
      limit: bySeqOnly && filter.limit !== undefined ? filter.limit + 1 : undefined,
    });
    const doc = parse(DOCS.events, EventsDocSchema, { events: got.events });
    return { recorded: doc.events, firstSeq: got.first_seq };
  }
  const doc = parse(DOCS.events, EventsDocSchema, withSequences((await store.read(DOCS.events)).value));
  const recorded = sequenced(doc.events, doc.last_seq).events;
  const firstSeq = recorded.reduce<number | null>((m, e) => (m === null || e.seq < m ? e.seq : m), null);
  return { recorded, firstSeq };
}

/** The feed as the hub server behind an http backend answers it; undefined when it has no such route. */
async function askServer(store: DocumentStore, filter: EventsFilter): Promise<EventsFeed | undefined> {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined) q.set(k, String(v));
  const qs = q.toString();
  const answer = await store.callRoute!('GET', `/v3/ops/events${qs ? `?${qs}` : ''}`, undefined);
  return answer.found ? (answer.json as EventsFeed) : undefined;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The stored events document with each event's sequence filled in from its position, as recording numbers them
 * (appendSequenced), before any event that breaks its schema is set aside: setting one aside must not renumber
 * the events after it.
 */
function withSequences(value: unknown): unknown {
  if (!isObject(value) || !Array.isArray(value.events)) return value;
  const list = value.events as unknown[];
  const numbered = sequenced(list as object[]).events;
  return { ...value, events: list.map((e, i) => (isObject(e) ? numbered[i] : e)) };
}

const byTime = (a: CoordEvent, b: CoordEvent) =>
  time(a.timestamp) - time(b.timestamp) || a.id.localeCompare(b.id);

/**
 * One list, oldest first: recorded events keep their sequence order (a later sequence from a machine whose clock
 * is behind still comes after), derived events go in by timestamp before the first recorded event later than them.
 */
function mergeByTime(recorded: CoordEvent[], derived: CoordEvent[]): CoordEvent[] {
  if (derived.length === 0) return recorded;
  if (recorded.length === 0) return derived;
  const out: CoordEvent[] = [];
  let j = 0;
  for (const r of recorded) {
    while (j < derived.length && byTime(derived[j]!, r) < 0) out.push(derived[j++]!);
    out.push(r);
  }
  while (j < derived.length) out.push(derived[j++]!);
  return out;
}

/**
 * Every recorded event the store holds, oldest first (its events log; the legacy `coord.events` document while
 * the log holds none): what the feed's recorded part is built from, without filters or derived events.
 */
export async function readRecordedEvents(store: DocumentStore): Promise<CoordEvent[]> {
  if (store.events) return (await store.events.read()).events as unknown as CoordEvent[];
  const value = (await store.read<{ events?: CoordEvent[] }>(DOCS.events)).value;
  return value?.events ?? [];
}
