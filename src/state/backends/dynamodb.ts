import type * as Ddb from '@aws-sdk/client-dynamodb';
import { redactUrlSecrets } from '../../model/index.js';
import { type CasPort, casDocuments } from '../cas-loop.js';
import { EMPTY_ETAG } from '../etag.js';
import {
  DEFAULT_EVENT_RETENTION,
  type EventRetention,
  LEGACY_EVENTS_DOCUMENT,
  type LoggedEvent,
} from '../event-log.js';
import { checkCollectionName, DOCUMENT_NAME_RE } from '../remote-routes.js';
import type { DocumentStore, StoreDescription, StoreInit } from '../store.js';
import { type DynamoTarget, mapDynamoError } from './dynamodb-errors.js';
import {
  DOC_PREFIX,
  decodeDocument,
  encodeDocument,
  type Item,
  PK,
  partitionKey,
  SK,
  sortKey,
} from './dynamodb-item.js';
import { createDynamoTable, describeDynamoTable } from './dynamodb-table.js';
import { createKeyedEventLog, type LogTiming } from './keyed-event-log.js';

export const DEFAULT_DYNAMODB_TABLE = 'hub_state';

export interface DynamoStoreOptions {
  /** `state.dynamodb.table` (default `hub_state`). */
  table?: string;
  /** `state.dynamodb.region`; else the AWS configuration (AWS_REGION, profile). */
  region?: string;
  /** `state.dynamodb.endpoint`; else AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL, else AWS's. */
  endpoint?: string;
  orgId: string;
  workspaceId: string;
  /** Timeout of one request (`state.timeout_ms`). */
  timeoutMs?: number;
  /**
   * The environment: AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL and AWS_REGION / AWS_DEFAULT_REGION are read
   * from it (so what is shown is what is used); credentials and profiles come from the SDK's default chain.
   */
  env: Readonly<Record<string, string | undefined>>;
  /** More client settings (tests pass static credentials); never shown. */
  clientConfig?: Partial<Ddb.DynamoDBClientConfig>;
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

/**
 * Events log items (keyed-event-log.ts): `sk = LOG#events#<seq, 16 digits>` in the workspace's partition, the
 * event's JSON in `body`, its creation time (ms) in `at`; `sk = LOGMETA#events` keeps the last sequence of a
 * migrated legacy document that held no events.
 */
const LOG_PREFIX = 'LOG#events#';
const LOG_FLOOR = 'LOGMETA#events';
const logKey = (seq: number) => `${LOG_PREFIX}${String(seq).padStart(16, '0')}`;
const LOG_END = `${LOG_PREFIX}~`;

type Sdk = typeof Ddb;
let sdkPromise: Promise<Sdk> | undefined;

/** The AWS SDK, imported on first use only: it costs ~100 ms, and only the dynamodb backend needs it. */
export function loadDynamoSdk(): Promise<Sdk> {
  // The SDK warns on every start under Node 20 about its own future releases (hub supports Node 20): the
  // warning would be printed by every CLI command, so it is turned off unless the user set the switch.
  // biome-ignore lint/style/noProcessEnv: the SDK reads this switch from the process environment only.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  sdkPromise ??= import('@aws-sdk/client-dynamodb');
  return sdkPromise;
}

const _sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Documents in one DynamoDB table (layout in dynamodb-item.ts). Writes are conditional puts on the stored ETag
 * (`attribute_not_exists(pk)` for a first write), reads are strongly consistent, and `append`/`update` are
 * compare-and-swap loops with jittered backoff, so concurrent writers on many machines never lose an update.
 */
export function createDynamoStore(opts: DynamoStoreOptions): DocumentStore {
  const env = opts.env;
  const table = opts.table ?? DEFAULT_DYNAMODB_TABLE;
  const endpoint = opts.endpoint || env.AWS_ENDPOINT_URL_DYNAMODB || env.AWS_ENDPOINT_URL || undefined;
  const region = opts.region || env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined;
  const target: DynamoTarget = {
    table,
    region,
    endpoint: endpoint ? redactUrlSecrets(endpoint) : undefined,
  };
  const pk = partitionKey(opts.orgId, opts.workspaceId);
  const maxAttempts = opts.maxAttempts ?? 100;
  let clientPromise: Promise<{ sdk: Sdk; client: Ddb.DynamoDBClient }> | undefined;
  const client = () => {
    clientPromise ??= loadDynamoSdk().then((sdk) => ({
      sdk,
      client: new sdk.DynamoDBClient({
        ...(region ? { region } : {}),
        ...(endpoint ? { endpoint } : {}),
        ...(opts.timeoutMs ? { requestHandler: { requestTimeout: opts.timeoutMs } } : {}),
        ...opts.clientConfig,
      }),
    }));
    return clientPromise;
  };
  /** Sends one command; AWS errors become hub's (conflict, missing table, denied, no credentials). */
  const send = async <T>(action: string, make: (sdk: Sdk) => unknown, document?: string): Promise<T> => {
    try {
      const { sdk, client: c } = await client();
      return (await c.send(make(sdk) as never)) as T;
    } catch (err) {
      throw mapDynamoError(err, target, action, document);
    }
  };

  const get = async (name: string): Promise<{ value: unknown; etag: string } | undefined> => {
    const out = await send<Ddb.GetItemCommandOutput>(
      'GetItem',
      (sdk) =>
        new sdk.GetItemCommand({
          TableName: table,
          Key: { [PK]: { S: pk }, [SK]: { S: sortKey(name) } },
          ConsistentRead: true,
        }),
      name,
    );
    return out.Item ? decodeDocument(name, out.Item) : undefined;
  };
  /** Conditional put of an encoded document: the stored ETag must be `ifMatch` (`""`: no item yet). */
  const put = async (
    name: string,
    ifMatch: string,
    { item, etag }: ReturnType<typeof encodeDocument>,
  ): Promise<string> => {
    const first = ifMatch === EMPTY_ETAG;
    await send(
      'PutItem',
      (sdk) =>
        new sdk.PutItemCommand({
          TableName: table,
          Item: item as Record<string, Ddb.AttributeValue>,
          ConditionExpression: first ? 'attribute_not_exists(#pk)' : '#etag = :m',
          ExpressionAttributeNames: first ? { '#pk': PK } : { '#etag': 'etag' },
          ...(first ? {} : { ExpressionAttributeValues: { ':m': { S: ifMatch } } }),
        }),
      name,
    );
    return etag;
  };
  const cas: CasPort<ReturnType<typeof encodeDocument>> = {
    maxAttempts,
    read: get,
    encode: (name, value) => encodeDocument(pk, name, value),
    write: (name, _value, ifMatch, next) => put(name, ifMatch, next),
  };

  const listPrefix = async (prefix: string): Promise<string[]> => {
    const names: string[] = [];
    let start: Record<string, Ddb.AttributeValue> | undefined;
    do {
      const page: Ddb.QueryCommandOutput = await send('Query', (sdk) => {
        return new sdk.QueryCommand({
          TableName: table,
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :p)',
          ExpressionAttributeNames: { '#pk': PK, '#sk': SK },
          ExpressionAttributeValues: { ':pk': { S: pk }, ':p': { S: prefix } },
          ProjectionExpression: '#sk',
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        });
      });
      for (const item of page.Items ?? []) {
        const name = item[SK]?.S?.slice(DOC_PREFIX.length);
        if (name && DOCUMENT_NAME_RE.test(name)) names.push(name);
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return names.sort();
  };

  const logQuery = async (opts: {
    after?: number;
    forward: boolean;
    limit?: number;
    keysOnly?: boolean;
  }): Promise<Array<Record<string, Ddb.AttributeValue>>> => {
    const items: Array<Record<string, Ddb.AttributeValue>> = [];
    let start: Record<string, Ddb.AttributeValue> | undefined;
    do {
      const page: Ddb.QueryCommandOutput = await send(
        'Query',
        (sdk) =>
          new sdk.QueryCommand({
            TableName: table,
            KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
            ExpressionAttributeNames: {
              '#pk': PK,
              '#sk': SK,
              ...(opts.keysOnly ? { '#at': 'at' } : {}),
            },
            ExpressionAttributeValues: {
              ':pk': { S: pk },
              ':from': { S: opts.after === undefined ? LOG_PREFIX : logKey(opts.after + 1) },
              ':to': { S: LOG_END },
            },
            ...(opts.keysOnly ? { ProjectionExpression: '#sk, #at' } : {}),
            ScanIndexForward: opts.forward,
            ConsistentRead: true,
            ...(opts.limit !== undefined ? { Limit: opts.limit - items.length } : {}),
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        LEGACY_EVENTS_DOCUMENT,
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start && (opts.limit === undefined || items.length < opts.limit));
    return items;
  };
  const seqOfItem = (item: Record<string, Ddb.AttributeValue>) =>
    Number(item[SK]?.S?.slice(LOG_PREFIX.length));
  const events = createKeyedEventLog({
    retention: opts.retention ?? DEFAULT_EVENT_RETENTION,
    maxAttempts,
    timing: opts.logTiming,
    turnKey:
      opts.logTurns === 'handle'
        ? undefined
        : ['dynamodb', endpoint ?? '', region ?? '', table, pk].join('\0'),
    async create(seq, _record, line, at) {
      await send(
        'PutItem',
        (sdk) =>
          new sdk.PutItemCommand({
            TableName: table,
            Item: {
              [PK]: { S: pk },
              [SK]: { S: logKey(seq) },
              body: { S: line },
              at: { S: String(at) },
            },
            ConditionExpression: 'attribute_not_exists(#pk)',
            ExpressionAttributeNames: { '#pk': PK },
          }),
        LEGACY_EVENTS_DOCUMENT,
      );
    },
    async after(after, limit) {
      const items = await logQuery({ after, forward: true, limit });
      const out: LoggedEvent[] = [];
      for (const item of items) {
        try {
          const e = JSON.parse(item.body?.S ?? '') as LoggedEvent;
          if (typeof e === 'object' && e !== null && e.seq === seqOfItem(item)) out.push(e);
        } catch {
          // not an event hub wrote: left out
        }
      }
      return out;
    },
    async bounds() {
      const [first, last] = await Promise.all([
        logQuery({ forward: true, limit: 1, keysOnly: true }),
        logQuery({ forward: false, limit: 1, keysOnly: true }),
      ]);
      if (!first[0] || !last[0]) return undefined;
      return { first: seqOfItem(first[0]), last: seqOfItem(last[0]) };
    },
    async oldest(limit) {
      if (limit <= 0) return [];
      const items = await logQuery({ forward: true, limit, keysOnly: true });
      return items.map((i) => ({ seq: seqOfItem(i), at: Number(i.at?.S ?? 0) }));
    },
    async remove(seqs) {
      for (const seq of seqs)
        await send(
          'DeleteItem',
          (sdk) =>
            new sdk.DeleteItemCommand({
              TableName: table,
              Key: { [PK]: { S: pk }, [SK]: { S: logKey(seq) } },
            }),
          LEGACY_EVENTS_DOCUMENT,
        );
    },
    readLegacy: async () => (await get(LEGACY_EVENTS_DOCUMENT))?.value,
    async saveFloor(last) {
      await send(
        'PutItem',
        (sdk) =>
          new sdk.PutItemCommand({
            TableName: table,
            Item: { [PK]: { S: pk }, [SK]: { S: LOG_FLOOR }, last: { S: String(last) } },
          }),
        LEGACY_EVENTS_DOCUMENT,
      );
    },
    async readFloor() {
      const out = await send<Ddb.GetItemCommandOutput>(
        'GetItem',
        (sdk) =>
          new sdk.GetItemCommand({
            TableName: table,
            Key: { [PK]: { S: pk }, [SK]: { S: LOG_FLOOR } },
            ConsistentRead: true,
          }),
        LEGACY_EVENTS_DOCUMENT,
      );
      const n = Number(out.Item?.last?.S ?? 0);
      return Number.isSafeInteger(n) && n > 0 ? n : 0;
    },
  });

  const store: DocumentStore = {
    backend: 'dynamodb',
    events,
    ...casDocuments(cas),
    async list(collection) {
      return listPrefix(`${DOC_PREFIX}${checkCollectionName(collection)}/`);
    },
    async listAll() {
      return listPrefix(DOC_PREFIX);
    },
    async init(): Promise<StoreInit> {
      const { sdk, client: c } = await client();
      return createDynamoTable(sdk, c, target);
    },
    async describe(): Promise<StoreDescription> {
      const { sdk, client: c } = await client().catch((err) => {
        throw mapDynamoError(err, target, 'DescribeTable');
      });
      let region = target.region;
      try {
        region = await c.config.region();
      } catch {
        // No region anywhere: describeDynamoTable reports it with the fix.
      }
      return describeDynamoTable(sdk, c, { ...target, region });
    },
    async close() {
      if (clientPromise) (await clientPromise).client.destroy();
    },
  };
  return store;
}

/** Item attribute names and values as the SDK wants them (used by the benchmark's raw baseline too). */
export function dynamoItem(
  orgId: string,
  workspaceId: string,
  name: string,
  value: unknown,
): { item: Item; etag: string } {
  const { item, etag } = encodeDocument(partitionKey(orgId, workspaceId), name, value);
  return { item, etag };
}
