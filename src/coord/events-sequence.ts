import { ValidationError } from '../infra/index.js';
import {
  appendItem,
  type DocumentStore,
  MAX_EVENT_BYTES as LOG_MAX_EVENT_BYTES,
  updateDocument,
} from '../state/index.js';
import { DOCS } from './documents.js';
import type { CoordEvent } from './schemas.js';

/**
 * Every recorded event (`coord.events`) carries `seq`: 1, 2, 3... per workspace, in the order the events were
 * recorded. A timestamp cannot order a feed: two events share a millisecond, clocks of two machines differ, and a
 * poller whose cursor is a timestamp never sees an event recorded later in the cursor's millisecond. The sequence
 * is assigned inside the document's atomic update (or compare-and-swap), on every backend the same way.
 */

/**
 * The most events one page of the feed returns (`limit`), and how many the legacy `coord.events` document kept:
 * recording the next dropped the oldest. The log (state/event-log.ts) keeps what `state.events` retention says.
 */
export const MAX_RECORDED_EVENTS = 5000;

/** How much JSON the legacy document's events could take together (characters). */
export const MAX_RECORDED_EVENT_BYTES = 1_500_000;

/** How much JSON one event may take (characters): see state/event-log.ts. */
export const MAX_EVENT_BYTES = LOG_MAX_EVENT_BYTES;

/** The bounds of `coord.events` (lowered by tests). */
export interface EventBounds {
  count: number;
  bytes: number;
  /** Of one event (MAX_EVENT_BYTES). */
  event: number;
}
const BOUNDS: EventBounds = {
  count: MAX_RECORDED_EVENTS,
  bytes: MAX_RECORDED_EVENT_BYTES,
  event: MAX_EVENT_BYTES,
};

/** How often a sequenced append reloads and reapplies after a conflict (compare-and-swap backends). */
const SEQUENCE_RETRIES = 200;

type Stored = Record<string, unknown> & { events?: unknown[]; last_seq?: unknown };

const seqOf = (e: unknown): number | undefined => {
  const s = (e as { seq?: unknown } | null)?.seq;
  return typeof s === 'number' && Number.isSafeInteger(s) && s > 0 ? s : undefined;
};

/**
 * The events of a stored document with their sequences. Events recorded before sequences existed get theirs
 * from their position (one more than the event before), the same numbers at every read and at the first
 * sequenced write, which stores them. Returns the highest sequence, `last_seq` included (it survives pruning).
 */
export function sequenced<T extends object>(
  events: readonly T[],
  lastSeq?: unknown,
): { events: Array<T & { seq: number }>; last: number } {
  let counter = 0;
  const out = events.map((e) => {
    const s = seqOf(e);
    if (s !== undefined) {
      counter = Math.max(counter, s);
      return e as T & { seq: number };
    }
    counter += 1;
    return { ...e, seq: counter };
  });
  const stored = typeof lastSeq === 'number' && Number.isSafeInteger(lastSeq) ? lastSeq : 0;
  return { events: out, last: Math.max(counter, stored) };
}

/** An id not yet in `taken`: `id`, else `id~2`, `id~3`... (two updates of one objective in one millisecond). */
function uniqueId(id: unknown, events: readonly object[]): unknown {
  if (typeof id !== 'string') return id;
  const taken = new Set<unknown>();
  for (const e of events) taken.add((e as { id?: unknown }).id);
  if (!taken.has(id)) return id;
  let n = 2;
  while (taken.has(`${id}~${n}`)) n++;
  return `${id}~${n}`;
}

/**
 * `coord.events` after recording `record` with the next sequence (and an id no other event has), keeping the
 * newest that fit the bounds (MAX_RECORDED_EVENTS, MAX_RECORDED_EVENT_BYTES).
 */
export function appendSequenced(
  doc: unknown,
  record: object,
  bounds: EventBounds = BOUNDS,
): { value: Stored; seq: number; id: unknown } {
  // What a plain append refuses (a document that is not an object, `events` that is not a list) stays refused.
  const cur = appendItem(DOCS.events, doc, 'events', null) as Stored;
  const list = (cur.events as object[]).slice(0, -1);
  const { events, last } = sequenced(list, cur.last_seq);
  const seq = last + 1;
  const id = uniqueId((record as { id?: unknown }).id, list);
  const item = id === undefined ? { ...record, seq } : { ...record, id, seq };
  const size = JSON.stringify(item).length;
  if (size > bounds.event)
    throw new ValidationError(
      `event: takes ${size} characters of JSON, past the limit of ${bounds.event} of one recorded event (max_event_bytes); nothing was recorded: send a shorter event (keep long texts in the document it is about)`,
      { field: 'event', value: size, limit: bounds.event, rule: 'max_event_bytes' },
    );
  const all = [...events, item];
  // The newest events that fit both bounds (the one being recorded always stays: it is within its own bound).
  let from = Math.max(0, all.length - bounds.count);
  let bytes = 0;
  for (let i = all.length - 1; i >= from; i--) {
    bytes += JSON.stringify(all[i]).length + 1;
    if (bytes > bounds.bytes && i < all.length - 1) {
      from = i + 1;
      break;
    }
  }
  return { value: { ...cur, events: from > 0 ? all.slice(from) : all, last_seq: seq }, seq, id };
}

/**
 * Records one event with the next sequence of the workspace; returns its sequence and the id it was stored
 * under. The store's events log appends it (the http backend's asks its server, whose own store runs this same
 * function); a store without one (the older interface) keeps the `coord.events` document, rewritten per event.
 */
export async function recordSequenced(
  store: DocumentStore,
  record: Omit<CoordEvent, 'seq'>,
): Promise<{ seq: number | undefined; id: string | undefined; etag: string | undefined }> {
  if (store.events) {
    const out = await store.events.append(record);
    return { seq: out.seq, id: typeof out.id === 'string' ? out.id : undefined, etag: undefined };
  }
  const out = await updateDocument<Stored, { seq: number; id: unknown }>(
    store,
    DOCS.events,
    (cur) => {
      const { value, seq, id } = appendSequenced(cur, record);
      return { value, result: { seq, id } };
    },
    { retries: SEQUENCE_RETRIES },
  );
  const id = typeof out.result.id === 'string' ? out.result.id : undefined;
  return { seq: out.result.seq, id, etag: out.etag };
}
