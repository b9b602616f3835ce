import { inTurn, StateConflictError } from '../../infra/index.js';
import {
  checkLegacyShape,
  type EventLog,
  type EventLogRead,
  type EventRetention,
  eventRecord,
  type LoggedEvent,
  legacyEvents,
  refuseImport,
  retentionFloor,
} from '../event-log.js';

/**
 * The events log of a backend with conditional creates of keyed records (DynamoDB: one item per event; MongoDB:
 * one document per event). The sequence is the record's key: an event is appended by creating the record of
 * sequence `last + 1` on the condition that it does not exist, so the create is the atomic counter: two writers
 * never share a number, and a writer that dies before its create leaves no gap (no separate counter item, which
 * would need a transaction to move with the event: dynalite has none). A writer remembers the last sequence it
 * created and tries the next one directly (one request per event); when another writer got there first it asks
 * for the newest record and tries again. Handles of one process on the same log take turns (`turnKey`), so only
 * processes race each other.
 *
 * Compaction deletes records older than retention, never the newest one and never one created less than
 * COMPACTION_GRACE_MS ago: a writer trusts its remembered sequence for CACHE_TRUST_MS only, so the record after it
 * (created later) is always still there to make its create fail, and a removed sequence is never given again.
 */

/** How long a writer trusts the last sequence it created as the log's newest (ms). */
export const CACHE_TRUST_MS = 60_000;
/** Records younger than this (by their creation time) are never removed (ms): allows an hour of clock skew. */
export const COMPACTION_GRACE_MS = 3_600_000;
/** Compaction runs after the append whose sequence is a multiple of this. */
export const COMPACT_EVERY = 1000;
/** How long a writer keeps trying after lost races (ms), beyond its maxAttempts. */
const RACE_BUDGET_MS = 30_000;
/** Longest random wait after a lost race (ms): 2^losses, full jitter, up to this. */
const LOST_RACE_CAP_MS = 64;
/** Most records one compaction removes (the next one goes on). */
const COMPACT_BATCH = 10_000;

/** What a keyed backend does for its log. */
export interface KeyedLogPort {
  /** Creates the record of `seq` unless it exists (then throws StateConflictError). */
  create(seq: number, record: LoggedEvent, line: string, at: number): Promise<void>;
  /** Records above `after` (ascending), at most `limit`. */
  after(after: number, limit: number | undefined): Promise<LoggedEvent[]>;
  /** The lowest and highest sequence held (undefined when none). */
  bounds(): Promise<{ first: number; last: number } | undefined>;
  /** Sequence and creation time of the oldest records, at most `limit`, ascending. */
  oldest(limit: number): Promise<Array<{ seq: number; at: number }>>;
  remove(seqs: number[]): Promise<void>;
  /** The legacy `coord.events` document. */
  readLegacy(): Promise<unknown>;
  /** The highest sequence the migration of an events-less legacy document kept, saved/read (0 when none). */
  saveFloor(last: number): Promise<void>;
  readFloor(): Promise<number>;
  retention: EventRetention;
  maxAttempts: number;
  /** The clock of creation times (ms; tests pass one). */
  now?: () => number;
  /** CACHE_TRUST_MS and COMPACTION_GRACE_MS (tests lower both). */
  timing?: LogTiming;
  /**
   * The log's identity (backend, endpoint, table or collection, partition): appends of every handle with the same
   * key in this process take turns, in arrival order, rather than race each other for the next sequence (a server
   * serving many clients, writers of one process). Undefined: this handle races every other, as a process does.
   */
  turnKey?: string;
}

export interface LogTiming {
  cacheTrustMs: number;
  graceMs: number;
}

interface Memo {
  last: { last: number; at: number } | undefined;
}
/** The memo of each log whose handles take turns in this process (few: one per log a process writes). */
const memos = new Map<string, Memo>();
const sharedMemo = (key: string): Memo => {
  let m = memos.get(key);
  if (!m) {
    m = { last: undefined };
    if (memos.size < 1024) memos.set(key, m);
  }
  return m;
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function createKeyedEventLog(port: KeyedLogPort): EventLog {
  const now = port.now ?? Date.now;
  // The last sequence this writer created, shared by the handles that take turns on the same log (the one before
  // in the queue may be another handle's).
  const memo: Memo = port.turnKey === undefined ? { last: undefined } : sharedMemo(port.turnKey);
  const timing = port.timing ?? { cacheTrustMs: CACHE_TRUST_MS, graceMs: COMPACTION_GRACE_MS };

  /** The newest sequence, migrating the legacy document when the log holds nothing yet. */
  const newest = async (): Promise<number> => {
    const b = await port.bounds();
    if (b) return b.last;
    const floor = await port.readFloor();
    if (floor > 0) return floor;
    const legacy = await port.readLegacy();
    checkLegacyShape(legacy);
    const { events, last } = legacyEvents(legacy);
    if (events.length === 0) {
      if (last > 0) await port.saveFloor(last);
      return last;
    }
    // The newest first: a writer that looks meanwhile numbers on after it, never into the migrated range.
    const order = [events.at(-1)!, ...events.slice(0, -1)];
    for (const e of order) {
      try {
        await port.create(e.seq, e, JSON.stringify(e), now());
      } catch (err) {
        // Another writer migrated it first: the same event.
        if (!(err instanceof StateConflictError)) throw err;
      }
    }
    return last;
  };

  /** One append, racing other writers for the next sequence (see `append` for the turns of one process). */
  const appendRacing = async (event: Record<string, unknown>): Promise<{ seq: number; id: unknown }> => {
    let lastErr: unknown;
    // After a lost race the sequence tried exists: the next one is tried at once (two writers that met). After
    // more losses in a row the writer waits a random while that doubles with them (full jitter: writers that
    // lost together spread out instead of racing again for the same number), then asks for the newest: after a
    // wait the log has moved on, and probing the next numbers one by one would only lose again.
    let probe: number | undefined;
    let losses = 0;
    const started = Date.now();
    // At least maxAttempts tries, and as many as fit in RACE_BUDGET_MS: with many writers on one log a writer
    // can lose a hundred races in a row, and giving up would fail the operation that recorded the event.
    for (let attempt = 0; attempt < port.maxAttempts || Date.now() - started < RACE_BUDGET_MS; attempt++) {
      if (losses > 1) await sleep(Math.floor(Math.random() * Math.min(LOST_RACE_CAP_MS, 2 ** losses)));
      const cached = memo.last;
      const fresh = cached && now() - cached.at < timing.cacheTrustMs;
      const last = probe ?? (fresh ? cached.last : await newest());
      const seq = last + 1;
      const { record, line } = eventRecord(event, seq);
      try {
        await port.create(seq, record, line, now());
      } catch (err) {
        if (!(err instanceof StateConflictError)) throw err;
        memo.last = undefined;
        lastErr = err;
        losses++;
        probe = losses === 1 ? seq : undefined;
        continue;
      }
      memo.last = { last: seq, at: now() };
      if (seq % COMPACT_EVERY === 0) void log.compact().catch(() => undefined);
      return { seq, id: record.id };
    }
    throw new StateConflictError(
      `recording an event lost the race for the next sequence ${losses} times in ${Math.round((Date.now() - started) / 1000)} s (many writers on one log); nothing was recorded: try again`,
      { document: 'coord.events', attempts: losses, cause: (lastErr as Error)?.message },
    );
  };

  const log: EventLog = {
    async append(event) {
      return port.turnKey === undefined
        ? appendRacing(event)
        : inTurn(port.turnKey, () => appendRacing(event));
    },

    async read(o = {}): Promise<EventLogRead> {
      const after = o.after ?? 0;
      const b = await port.bounds();
      if (!b) {
        const floor = await port.readFloor();
        const { events, last } =
          floor > 0 ? { events: [], last: floor } : legacyEvents(await port.readLegacy());
        const page = events.filter((e) => e.seq > after);
        return {
          events: o.limit === undefined ? page : page.slice(0, o.limit),
          first_seq: events[0]?.seq ?? null,
          last_seq: last,
        };
      }
      const events = after >= b.last ? [] : await port.after(after, o.limit);
      return { events: events.filter((e) => e.seq <= b.last), first_seq: b.first, last_seq: b.last };
    },

    async import(list) {
      const b = await port.bounds();
      if (b) refuseImport(b.last);
      // The newest first, as the legacy migration: a writer meanwhile numbers on after the import.
      const order = list.length > 0 ? [list.at(-1)!, ...list.slice(0, -1)] : [];
      for (const e of order) await port.create(e.seq, e, JSON.stringify(e), now());
    },

    async compact(at = new Date()) {
      const b = await port.bounds();
      if (!b) return { removed: 0 };
      const graceCut = now() - timing.graceMs;
      const ageCut = at.getTime() - port.retention.days * 86_400_000;
      const candidates = await port.oldest(Math.min(COMPACT_BATCH, Math.max(0, b.last - b.first)));
      let tooOld = 0;
      if (port.retention.days > 0)
        for (const c of candidates) {
          if (c.at >= ageCut) break;
          tooOld = c.seq;
        }
      const floor = retentionFloor(b.last, tooOld, port.retention);
      // The oldest records, up to the first one that must stay: the log stays one range, without holes.
      const gone: number[] = [];
      for (const c of candidates) {
        if (c.seq > floor || c.at >= graceCut) break;
        gone.push(c.seq);
      }
      if (gone.length > 0) await port.remove(gone);
      return { removed: gone.length };
    },
  };
  return log;
}
