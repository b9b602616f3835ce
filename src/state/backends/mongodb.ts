import type * as Mongo from 'mongodb';
import { StateConflictError } from '../../infra/index.js';
import { type CasPort, casDocuments } from '../cas-loop.js';
import { EMPTY_ETAG } from '../etag.js';
import {
  DEFAULT_EVENT_RETENTION,
  type EventRetention,
  LEGACY_EVENTS_DOCUMENT,
  type LoggedEvent,
} from '../event-log.js';
import { checkCollectionName, DOCUMENT_NAME_RE } from '../remote-routes.js';
import type { DocumentStore } from '../store.js';
import { createKeyedEventLog, type LogTiming } from './keyed-event-log.js';
import type { MongoTarget } from './mongodb-config.js';
import { MONGO_CODES, mapMongoError } from './mongodb-errors.js';
import { decodeRecord, encodeRecord, type MongoRecord, recordId } from './mongodb-record.js';

/**
 * Events log records (keyed-event-log.ts) share the collection: `_id.name = '#log/<seq, 16 digits>'` (a name no
 * document can have, served by the scope index), the event's JSON in `body`, its creation time in `at`;
 * `'#logmeta'` keeps the last sequence of a migrated legacy document that held no events.
 */
const LOG_PREFIX = '#log/';
const LOG_END = '#log/~';
const LOG_FLOOR = '#logmeta';
const logName = (seq: number) => `${LOG_PREFIX}${String(seq).padStart(16, '0')}`;

export interface MongoStoreOptions {
  target: MongoTarget;
  orgId: string;
  workspaceId: string;
  /** Server selection and socket timeout of one request (`state.timeout_ms`). */
  timeoutMs?: number;
  /** Attempts of one append or update against concurrent writers before it reports a conflict (default 100). */
  maxAttempts?: number;
  /** Retention of the events log (`state.events`). */
  retention?: EventRetention;
  /** How long a writer trusts its last sequence, and the youngest record compaction removes (tests lower both). */
  logTiming?: LogTiming;
  /**
   * `process` (default): appends of every handle on the same log in this process take turns; `handle`: this
   * handle races the others for the next sequence as another process would (tests of the race).
   */
  logTurns?: 'process' | 'handle';
}

/** The index that serves `list` and `listAll` (documents of one org and workspace, by name). */
export const MONGODB_SCOPE_INDEX = 'hub_state_scope';
const SCOPE_KEYS = { '_id.org_id': 1, '_id.workspace_id': 1, '_id.name': 1 } as const;

/** What `init` did (the shape every backend's init returns: backend, status, then where). */
export interface MongoStoreInit {
  backend: 'mongodb';
  status: 'created' | 'existing';
  [detail: string]: unknown;
}

/** The mongodb store: a DocumentStore plus `init` and `describe` (`hub state init`, `hub state info`). */
export interface MongoDocumentStore extends DocumentStore {
  listAll(): Promise<string[]>;
  init(): Promise<MongoStoreInit>;
  describe(): Promise<Record<string, unknown>>;
}

type Driver = typeof Mongo;
let driverPromise: Promise<Driver> | undefined;

/** The MongoDB driver, imported on first use only: it costs ~120 ms at start-up, and only this backend needs it. */
export function loadMongoDriver(): Promise<Driver> {
  // The driver is CommonJS: bundled (dist/), its exports arrive as `default`; under Node or vitest, as named ones.
  driverPromise ??= import('mongodb').then(
    (m) =>
      ((m as { MongoClient?: unknown }).MongoClient
        ? m
        : (m as unknown as { default: Driver }).default) as Driver,
  );
  return driverPromise;
}

const _sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Documents in one MongoDB collection, one record per document (layout in mongodb-record.ts). A first write is an
 * insert (the unique `_id` makes a second one a duplicate key: a conflict); every other write is an update filtered
 * on the expected ETag, so a stale writer matches nothing and gets a conflict. `append` and `update` are
 * compare-and-swap loops with jittered backoff: concurrent writers on many machines never lose an item.
 */
export function createMongoStore(opts: MongoStoreOptions): MongoDocumentStore {
  const t = opts.target;
  const maxAttempts = opts.maxAttempts ?? 100;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const id = (name: string) => recordId(opts.orgId, opts.workspaceId, name);
  let clientPromise: Promise<{ client: Mongo.MongoClient; coll: Mongo.Collection<MongoRecord> }> | undefined;
  let indexed: Promise<void> | undefined;

  const connect = () => {
    clientPromise ??= loadMongoDriver().then((driver) => {
      const client = new driver.MongoClient(t.url, {
        serverSelectionTimeoutMS: timeoutMs,
        connectTimeoutMS: timeoutMs,
        appName: 'hub',
      });
      return { client, coll: client.db(t.database).collection<MongoRecord>(t.collection) };
    });
    return clientPromise.catch((err) => {
      clientPromise = undefined;
      throw mapMongoError(err, t, 'connect');
    });
  };

  /** Creates the scope index unless it exists; a user without createIndex is fine once `hub state init` ran. */
  const ensureIndex = async (coll: Mongo.Collection<MongoRecord>): Promise<'created' | 'existing'> => {
    try {
      const existing = await coll.indexes();
      if (existing.some((i) => i.name === MONGODB_SCOPE_INDEX)) return 'existing';
    } catch (err) {
      // A collection that does not exist yet has no indexes: createIndex below creates both.
      if ((err as { code?: number }).code !== MONGO_CODES.namespaceNotFound) throw err;
    }
    await coll.createIndex(SCOPE_KEYS, { name: MONGODB_SCOPE_INDEX });
    return 'created';
  };

  /** Runs `op` on the collection, indexes made on first use; driver errors become hub's. */
  const run = async <T>(
    action: string,
    op: (coll: Mongo.Collection<MongoRecord>) => Promise<T>,
    document?: string,
  ): Promise<T> => {
    const { coll } = await connect();
    try {
      indexed ??= ensureIndex(coll).then(
        () => undefined,
        (err) => {
          indexed = undefined;
          throw err;
        },
      );
      await indexed;
      return await op(coll);
    } catch (err) {
      throw mapMongoError(err, t, action, document);
    }
  };

  const get = (name: string) =>
    run(
      'find',
      async (coll) => {
        const rec = await coll.findOne({ _id: id(name) });
        return rec ? decodeRecord(name, rec) : undefined;
      },
      name,
    );

  /** Insert when `ifMatch` is `""` (duplicate key: someone was first), else update filtered on the ETag. */
  const put = async (
    name: string,
    ifMatch: string,
    { record, etag }: ReturnType<typeof encodeRecord>,
  ): Promise<string> => {
    if (ifMatch === EMPTY_ETAG) {
      await run('insert', (coll) => coll.insertOne(record), name);
      return etag;
    }
    const out = await run(
      'update',
      (coll) =>
        coll.updateOne(
          { _id: record._id, etag: ifMatch },
          { $set: { body: record.body, etag, updated_at: record.updated_at } },
        ),
      name,
    );
    if (out.matchedCount === 0)
      throw new StateConflictError(`document '${name}' changed since it was read (If-Match ${ifMatch})`, {
        document: name,
      });
    return etag;
  };

  const cas: CasPort<ReturnType<typeof encodeRecord>> = {
    maxAttempts,
    read: get,
    encode: (name, value) => encodeRecord(id(name), value),
    write: (name, _value, ifMatch, next) => put(name, ifMatch, next),
  };

  /** Names of this org and workspace's documents in [from, to), sorted (served by the scope index). */
  const listRange = (from: string, to: string | undefined) =>
    run('find', async (coll) => {
      const name = to === undefined ? { $gte: from } : { $gte: from, $lt: to };
      const recs = await coll
        .find(
          { '_id.org_id': opts.orgId, '_id.workspace_id': opts.workspaceId, '_id.name': name },
          { projection: { _id: 1 } },
        )
        .toArray();
      return recs
        .map((r) => r._id.name)
        .filter((n) => DOCUMENT_NAME_RE.test(n))
        .sort();
    });

  // Log records are not state documents: typed loosely here, never decoded as one.
  type LogRecord = { _id: MongoRecord['_id']; body: string; at: Date; last?: number };
  const logColl = (coll: Mongo.Collection<MongoRecord>) => coll as unknown as Mongo.Collection<LogRecord>;
  const scope = { '_id.org_id': opts.orgId, '_id.workspace_id': opts.workspaceId };
  const seqOfName = (name: string) => Number(name.slice(LOG_PREFIX.length));
  const logRange = (
    from: string,
    dir: 1 | -1,
    limit: number | undefined,
    projection?: Record<string, 1>,
  ): Promise<LogRecord[]> =>
    run(
      'find',
      (coll) => {
        let cur = logColl(coll)
          .find({ ...scope, '_id.name': { $gte: from, $lt: LOG_END } }, projection ? { projection } : {})
          .sort({ '_id.org_id': dir, '_id.workspace_id': dir, '_id.name': dir });
        if (limit !== undefined) cur = cur.limit(limit);
        return cur.toArray();
      },
      LEGACY_EVENTS_DOCUMENT,
    );
  const events = createKeyedEventLog({
    retention: opts.retention ?? DEFAULT_EVENT_RETENTION,
    maxAttempts,
    timing: opts.logTiming,
    turnKey:
      opts.logTurns === 'handle'
        ? undefined
        : ['mongodb', t.url, t.database, t.collection, opts.orgId, opts.workspaceId].join('\0'),
    // A duplicate key (a sequence another writer took) maps to StateConflictError, as DynamoDB's condition.
    async create(seq, _record, line, at) {
      await run(
        'insert',
        (coll) => logColl(coll).insertOne({ _id: id(logName(seq)), body: line, at: new Date(at) }),
        LEGACY_EVENTS_DOCUMENT,
      );
    },
    async after(after, limit) {
      const recs = await logRange(logName(after + 1), 1, limit);
      const out: LoggedEvent[] = [];
      for (const r of recs) {
        try {
          const e = JSON.parse(r.body) as LoggedEvent;
          if (typeof e === 'object' && e !== null && e.seq === seqOfName(r._id.name)) out.push(e);
        } catch {
          // not an event hub wrote: left out
        }
      }
      return out;
    },
    async bounds() {
      const [first, last] = await Promise.all([
        logRange(LOG_PREFIX, 1, 1, { _id: 1 }),
        logRange(LOG_PREFIX, -1, 1, { _id: 1 }),
      ]);
      if (!first[0] || !last[0]) return undefined;
      return { first: seqOfName(first[0]._id.name), last: seqOfName(last[0]._id.name) };
    },
    async oldest(limit) {
      if (limit <= 0) return [];
      const recs = await logRange(LOG_PREFIX, 1, limit, { _id: 1, at: 1 });
      return recs.map((r) => ({ seq: seqOfName(r._id.name), at: r.at?.getTime?.() ?? 0 }));
    },
    async remove(seqs) {
      await run(
        'delete',
        (coll) => logColl(coll).deleteMany({ _id: { $in: seqs.map((s) => id(logName(s))) } }),
        LEGACY_EVENTS_DOCUMENT,
      );
    },
    readLegacy: async () => (await get(LEGACY_EVENTS_DOCUMENT))?.value,
    async saveFloor(last) {
      await run(
        'update',
        (coll) =>
          logColl(coll).updateOne(
            { _id: id(LOG_FLOOR) },
            { $set: { body: '', at: new Date(), last } },
            { upsert: true },
          ),
        LEGACY_EVENTS_DOCUMENT,
      );
    },
    async readFloor() {
      const rec = await run(
        'find',
        (coll) => logColl(coll).findOne({ _id: id(LOG_FLOOR) }),
        LEGACY_EVENTS_DOCUMENT,
      );
      const n = rec?.last;
      return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : 0;
    },
  });

  return {
    backend: 'mongodb',
    events,
    ...casDocuments(cas),
    // '/' is 0x2f and '0' 0x30: every `collection/...` name sorts in [collection/, collection0).
    list: (collection) => listRange(`${checkCollectionName(collection)}/`, `${collection}0`),
    listAll: () => listRange('', undefined),
    async init(): Promise<MongoStoreInit> {
      const { client, coll } = await connect();
      let collection: 'created' | 'existing' = 'existing';
      try {
        const db = client.db(t.database);
        const found = await db.listCollections({ name: t.collection }, { nameOnly: true }).toArray();
        if (found.length === 0) {
          try {
            await db.createCollection(t.collection);
            collection = 'created';
          } catch (err) {
            // Another `hub state init` made it in between: what it made is what this one wanted.
            if ((err as { code?: number }).code !== 48) throw err;
          }
        }
        const index = await ensureIndex(coll);
        indexed = Promise.resolve();
        return {
          backend: 'mongodb',
          status: collection === 'created' || index === 'created' ? 'created' : 'existing',
          url: t.shownUrl,
          database: t.database,
          collection: t.collection,
          index: MONGODB_SCOPE_INDEX,
        };
      } catch (err) {
        throw mapMongoError(err, t, 'init');
      }
    },
    async describe(): Promise<Record<string, unknown>> {
      const base = { url: t.shownUrl, database: t.database, collection: t.collection };
      try {
        const { client, coll } = await connect();
        const db = client.db(t.database);
        const found = await db.listCollections({ name: t.collection }, { nameOnly: true }).toArray();
        if (found.length === 0)
          return { ...base, collection_status: 'missing', fix: 'run `hub state init` to create it' };
        const indexes = await coll.indexes();
        const hasScope = indexes.some((i) => i.name === MONGODB_SCOPE_INDEX);
        return {
          ...base,
          collection_status: hasScope ? 'ready' : 'index missing',
          ...(hasScope ? {} : { fix: 'run `hub state init` to create the index' }),
        };
      } catch (err) {
        return {
          ...base,
          collection_status: 'unreachable',
          error: mapMongoError(err, t, 'describe').message,
        };
      }
    },
    async close() {
      const p = clientPromise;
      clientPromise = undefined;
      indexed = undefined;
      if (p) await (await p.catch(() => undefined))?.client.close();
    },
  };
}
