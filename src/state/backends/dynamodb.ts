import type * as Ddb from '@aws-sdk/client-dynamodb';
import { redactUrlSecrets } from '../../model/index.js';
import { type CasPort, casDocuments } from '../cas-loop.js';
import { EMPTY_ETAG } from '../etag.js';
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
}

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

  const store: DocumentStore = {
    backend: 'dynamodb',
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
