import { ValidationError } from '../infra/index.js';
import type { DocumentStore } from '../state/index.js';
import { type EventsFilter, eventsFeed } from './events.js';
import type { CoordEvent } from './schemas.js';

/** One event of a followed feed with its cursor (its position in the feed's order). */
export interface FollowedEvent {
  cursor: string;
  event: CoordEvent;
}

export interface FollowFilter extends EventsFilter {
  /**
   * A cursor of an event already seen: a recorded event's sequence (`42`: the events after it by sequence), or
   * the older `<timestamp>|<id>` form (the events after it by timestamp, then id).
   */
  after?: string;
}

export interface FollowOptions {
  /** How often the feed is read again for new events (ms). */
  pollMs: number;
  /** Ends the stream (the client went away, Ctrl-C). */
  signal: AbortSignal;
  now?: () => Date;
}

const time = (s: string) => {
  const t = Date.parse(s);
  return Number.isNaN(t) ? 0 : t;
};

/**
 * The position of an event in the feed: a recorded event's sequence (`42`); for a derived event (no sequence)
 * `<timestamp>|<id>` with the id percent-encoded, so the cursor is one line (an SSE `id:` field).
 */
export function eventCursor(e: Pick<CoordEvent, 'timestamp' | 'id' | 'seq'>): string {
  return e.seq === undefined ? `${e.timestamp}|${encodeURIComponent(e.id)}` : String(e.seq);
}

/** A sequence cursor: digits only (at most 15, a safe integer). */
const SEQ_CURSOR_RE = /^\d{1,15}$/;

/** The position a cursor names: a sequence, or (older form, derived events) a timestamp and an id. */
export type CursorPosition = { seq: number } | { time: number; id: string };

/** Parses a cursor made by eventCursor; a malformed one is a validation error naming `field`. */
export function parseCursor(cursor: string, field = 'after'): CursorPosition {
  if (SEQ_CURSOR_RE.test(cursor)) return { seq: Number(cursor) };
  const bar = cursor.indexOf('|');
  const ts = bar > 0 ? cursor.slice(0, bar) : '';
  let id: string | undefined;
  try {
    id = bar > 0 ? decodeURIComponent(cursor.slice(bar + 1)) : undefined;
  } catch {
    id = undefined;
  }
  const t = Date.parse(ts);
  if (!id || Number.isNaN(t)) {
    throw new ValidationError(
      `${field}: '${cursor.slice(0, 120)}' is not an event cursor (a sequence such as 42, or <timestamp>|<id>, as sent in each event's id)`,
      { field, value: cursor.slice(0, 120), rule: 'event_cursor' },
    );
  }
  return { time: t, id };
}

/** Whether `e` comes after the cursor position in the feed's order. */
function isAfter(e: CoordEvent, pos: { time: number; id: string }): boolean {
  const t = time(e.timestamp);
  return t > pos.time || (t === pos.time && e.id.localeCompare(pos.id) > 0);
}

/** Resolves after `ms`, or at once when the signal aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Follows the events feed: first the events it holds now (after `after`, or after `since`, or all of them), then
 * each event recorded afterwards, as it is recorded, until the signal aborts. The feed is read again every
 * `pollMs` by sequence, so an event recorded late with an older timestamp is still sent; an event is sent once
 * per stream, by id. Only reads: the same reads as `eventsFeed`.
 */
export async function* followEvents(
  store: DocumentStore,
  filter: FollowFilter,
  opts: FollowOptions,
): AsyncGenerator<FollowedEvent> {
  const { after, ...rest } = filter;
  const parsed = after === undefined ? undefined : parseCursor(after);
  // A sequence cursor goes to the feed (after_seq); only the older form is judged here, by timestamp and id.
  const pos = parsed && 'time' in parsed ? parsed : undefined;
  const feedFilter: EventsFilter = parsed && 'seq' in parsed ? { ...rest, after_seq: parsed.seq } : rest;
  const now = opts.now ?? (() => new Date());
  // A derived event sent by the first read comes again, with the same id, once it is recorded: sent once. Recorded
  // events come once each by sequence (two may share an id: both are sent).
  const seen = new Set<string>();
  let filterNow = feedFilter;
  let first = true;
  while (!opts.signal.aborted) {
    const feed = await eventsFeed(store, filterNow, now);
    for (const e of feed.events) {
      if (seen.has(e.id)) {
        if (e.seq !== undefined) seen.delete(e.id);
        continue;
      }
      if (e.seq === undefined) seen.add(e.id);
      if (first && pos && !isAfter(e, pos)) continue;
      if (opts.signal.aborted) return;
      yield { cursor: eventCursor(e), event: e };
    }
    // After the first read the stream follows the sequence: each read returns only what was recorded since.
    if (feed.next_seq !== null) filterNow = { ...rest, since: undefined, after_seq: feed.next_seq };
    first = false;
    await pause(opts.pollMs, opts.signal);
  }
}
