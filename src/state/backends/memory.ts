import { StateConflictError } from '../../infra/index.js';
import { EMPTY_ETAG, etagOf } from '../etag.js';
import {
  checkLegacyShape,
  DEFAULT_EVENT_RETENTION,
  type EventLog,
  type EventRetention,
  eventRecord,
  eventTime,
  LEGACY_EVENTS_DOCUMENT,
  type LoggedEvent,
  legacyEvents,
  pageOf,
  refuseImport,
  retentionFloor,
} from '../event-log.js';
import { checkCollectionName, checkStoreDocumentName } from '../remote-routes.js';
import {
  appendItem,
  assertDocument,
  checkStoredSize,
  type DocumentStore,
  type UpdateFn,
  type UpdateResult,
  type Versioned,
} from '../store.js';

/** Refuses a value that would be too large stored (checkStoredSize), as every other backend does. */
const checkSize = (name: string, value: unknown) => checkStoredSize(name, JSON.stringify(value));

/** How many of the newest events a new id is made unique among (in memory). */
const RECENT_IDS = 64;
/** Compaction runs when a sequence is a multiple of this. */
const COMPACT_EVERY = 1000;

/** In-process store: documents live in a Map, copied on the way in and out; events in an array. */
export function createMemoryStore(opts: { retention?: EventRetention } = {}): DocumentStore {
  const docs = new Map<string, unknown>();
  const retention = opts.retention ?? DEFAULT_EVENT_RETENTION;
  // The log: undefined until the first append, which migrates the legacy document into it.
  let log: { events: LoggedEvent[]; last: number } | undefined;
  /** Appends synchronously (no await inside): nothing else runs in between. */
  const appendNow = (event: Record<string, unknown>): { seq: number; id: unknown } => {
    if (!log) {
      const legacy = docs.get(LEGACY_EVENTS_DOCUMENT);
      checkLegacyShape(legacy);
      log = structuredClone(legacyEvents(legacy));
    }
    const seq = log.last + 1;
    const { record } = eventRecord(structuredClone(event), seq, log.events.slice(-RECENT_IDS));
    log.events.push(record);
    log.last = seq;
    return { seq, id: record.id };
  };
  const events: EventLog = {
    async append(event) {
      const out = appendNow(event);
      if (log!.events.length >= retention.count + COMPACT_EVERY) await events.compact();
      return out;
    },
    async read(o = {}) {
      const cur = log ?? legacyEvents(docs.get(LEGACY_EVENTS_DOCUMENT));
      return {
        events: structuredClone(pageOf(cur.events, o.after ?? 0, o.limit)),
        first_seq: cur.events[0]?.seq ?? null,
        last_seq: cur.last,
      };
    },
    async import(list) {
      if (log && log.last > 0) refuseImport(log.last);
      log = { events: structuredClone([...list]), last: list.at(-1)?.seq ?? 0 };
    },
    async compact(now = new Date()) {
      if (!log || log.events.length === 0) return { removed: 0 };
      const cut = now.getTime() - retention.days * 86_400_000;
      let tooOld = 0;
      if (retention.days > 0)
        for (const e of log.events) {
          if (eventTime(e) >= cut) break;
          tooOld = e.seq;
        }
      const floor = retentionFloor(log.last, tooOld, retention);
      const keep = log.events.findIndex((e) => e.seq > floor);
      const removed = Math.max(keep, 0);
      if (removed > 0) log.events = log.events.slice(removed);
      return { removed };
    },
  };
  // Updates of one document run one after another: `fn` may await, and a second update must see the first's value.
  const queues = new Map<string, Promise<unknown>>();
  return {
    backend: 'memory',
    events,
    async list(collection) {
      const prefix = `${checkCollectionName(collection)}/`;
      return [...docs.keys()].filter((n) => n.startsWith(prefix)).sort();
    },
    async read<T>(name: string): Promise<Versioned<T>> {
      const v = docs.get(checkStoreDocumentName(name));
      return { value: v === undefined ? undefined : (structuredClone(v) as T), etag: etagOf(v) };
    },
    async write(name, value, ifMatch) {
      checkStoreDocumentName(name);
      assertDocument(name, value);
      const current = etagOf(docs.get(name)) ?? EMPTY_ETAG;
      if (ifMatch !== current)
        throw new StateConflictError(`document '${name}' changed (If-Match ${ifMatch}, now ${current})`, {
          document: name,
        });
      checkSize(name, value);
      docs.set(name, structuredClone(value));
      return etagOf(value)!;
    },
    async update<T, R>(name: string, fn: UpdateFn<T, R>): Promise<UpdateResult<T, R>> {
      checkStoreDocumentName(name);
      const run = async (): Promise<UpdateResult<T, R>> => {
        for (;;) {
          const cur = docs.get(name);
          const step = await fn(cur === undefined ? undefined : (structuredClone(cur) as T));
          const { value, result } = step;
          assertDocument(name, value);
          // A plain write or append may land while an async `fn` waits: apply `fn` again to what it left.
          if (docs.get(name) !== cur) continue;
          checkSize(name, value);
          docs.set(name, structuredClone(value));
          if (!step.events?.length) return { result, etag: etagOf(value)!, value };
          // Recorded in the same step: nothing else runs between the write and these appends.
          const recorded: Array<{ seq: number | undefined; id: unknown }> = [];
          for (const e of step.events) recorded.push(appendNow(e));
          return { result, etag: etagOf(value)!, value, recorded };
        }
      };
      const prev = queues.get(name) ?? Promise.resolve();
      const next = prev.then(run, run);
      const tail = next.catch(() => undefined);
      queues.set(name, tail);
      try {
        return await next;
      } finally {
        if (queues.get(name) === tail) queues.delete(name);
      }
    },
    async append(name, key, item) {
      checkStoreDocumentName(name);
      const next = appendItem(name, docs.get(name), key, structuredClone(item));
      checkSize(name, next);
      docs.set(name, next);
      return etagOf(next)!;
    },
  };
}
