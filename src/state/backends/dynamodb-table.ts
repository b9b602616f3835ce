import type * as Ddb from '@aws-sdk/client-dynamodb';
import { RefusedError } from '../../infra/index.js';
import type { StoreDescription, StoreInit } from '../store.js';
import { type DynamoTarget, mapDynamoError } from './dynamodb-errors.js';
import { PK, SK } from './dynamodb-item.js';

type Sdk = typeof Ddb;

/** How long `hub state init` waits for a new table to become ACTIVE. */
const ACTIVE_WAIT_MS = 120_000;

/** The key schema hub needs: `pk` (HASH, string) and `sk` (RANGE, string). */
function checkKeySchema(t: DynamoTarget, desc: Ddb.TableDescription): void {
  const keys = desc.KeySchema ?? [];
  const types = new Map((desc.AttributeDefinitions ?? []).map((a) => [a.AttributeName, a.AttributeType]));
  const hash = keys.find((k) => k.KeyType === 'HASH')?.AttributeName;
  const range = keys.find((k) => k.KeyType === 'RANGE')?.AttributeName;
  if (hash !== PK || range !== SK || types.get(PK) !== 'S' || types.get(SK) !== 'S')
    throw new RefusedError(
      `the DynamoDB table '${t.table}' exists with another key schema (HASH ${hash ?? 'none'}, RANGE ${range ?? 'none'}); hub needs HASH '${PK}' (S) and RANGE '${SK}' (S): set state.dynamodb.table to another name and run \`hub state init\``,
      { table: t.table, hash, range, rule: 'dynamodb_key_schema' },
    );
}

async function describe(
  sdk: Sdk,
  c: Ddb.DynamoDBClient,
  t: DynamoTarget,
): Promise<Ddb.TableDescription | undefined> {
  try {
    const out = await c.send(new sdk.DescribeTableCommand({ TableName: t.table }));
    return out.Table;
  } catch (err) {
    if ((err as { name?: string }).name === 'ResourceNotFoundException') return undefined;
    throw mapDynamoError(err, t, 'DescribeTable');
  }
}

/** Creates the table (on-demand capacity) unless it exists; waits until it is ACTIVE. Idempotent. */
export async function createDynamoTable(
  sdk: Sdk,
  c: Ddb.DynamoDBClient,
  t: DynamoTarget,
): Promise<StoreInit> {
  let created = false;
  let desc = await describe(sdk, c, t);
  if (!desc) {
    try {
      await c.send(
        new sdk.CreateTableCommand({
          TableName: t.table,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [
            { AttributeName: PK, AttributeType: 'S' },
            { AttributeName: SK, AttributeType: 'S' },
          ],
          KeySchema: [
            { AttributeName: PK, KeyType: 'HASH' },
            { AttributeName: SK, KeyType: 'RANGE' },
          ],
        }),
      );
      created = true;
    } catch (err) {
      // Another `hub state init` created it meanwhile: that is "existing".
      if ((err as { name?: string }).name !== 'ResourceInUseException')
        throw mapDynamoError(err, t, 'CreateTable');
    }
    const until = Date.now() + ACTIVE_WAIT_MS;
    for (;;) {
      desc = await describe(sdk, c, t);
      if (desc?.TableStatus === 'ACTIVE') break;
      if (Date.now() > until)
        throw new RefusedError(
          `the DynamoDB table '${t.table}' is not ACTIVE after ${ACTIVE_WAIT_MS / 1000} s (status ${desc?.TableStatus ?? 'missing'}); run \`hub state init\` again later`,
          { table: t.table, status: desc?.TableStatus, rule: 'dynamodb_table_active' },
        );
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  checkKeySchema(t, desc);
  return {
    backend: 'dynamodb',
    status: created ? 'created' : 'existing',
    table: t.table,
    region: t.region,
    endpoint: t.endpoint,
  };
}

/** What `hub state info` shows of the table: its status, or how to fix a missing table or permission. */
export async function describeDynamoTable(
  sdk: Sdk,
  c: Ddb.DynamoDBClient,
  t: DynamoTarget,
): Promise<StoreDescription> {
  const base = { table: t.table, region: t.region ?? '', endpoint: t.endpoint ?? '(AWS default)' };
  try {
    const desc = await describe(sdk, c, t);
    if (!desc) return { ...base, table_status: 'missing', fix: 'run `hub state init` to create the table' };
    checkKeySchema(t, desc);
    return { ...base, table_status: desc.TableStatus ?? 'unknown' };
  } catch (err) {
    const e = mapDynamoError(err, t, 'DescribeTable');
    return { ...base, table_status: 'unreachable', error: e.message };
  }
}
