// The dynamodb state backend: the shared conformance suite against dynalite (a real DynamoDB API on loopback),
// plus what only DynamoDB has (the 400 KB item limit, a missing table, the key layout, init).
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubError, RefusedError, ValidationError } from '../src/infra/index.js';
import { etagOf, loadDynamoSdk } from '../src/state/index.js';
import {
  DYNALITE_CREDENTIALS,
  DYNALITE_REGION,
  dynaliteStore,
  type RunningDynalite,
  startDynalite,
} from './fixtures/dynalite.js';

/** The HubError a promise rejects with (fails the test when it resolves). */
async function thrown(p: Promise<unknown>): Promise<HubError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HubError);
  return err as HubError;
}

import { runStoreConformance } from './state-conformance.js';

let d: RunningDynalite;
beforeAll(async () => {
  d = await startDynalite();
  await dynaliteStore(d, { workspaceId: 'init' }).init!();
});
afterAll(async () => {
  await d?.close();
});

runStoreConformance('dynamodb', async () => {
  // A fresh workspace partition per case: the same table, documents of no other case.
  const workspaceId = randomUUID();
  const opened = [dynaliteStore(d, { workspaceId })];
  return {
    store: opened[0]!,
    // Other handles race this one for the next sequence as other processes do (within one process, handles on
    // the same log take turns).
    reopen: () => {
      const s = dynaliteStore(d, { workspaceId, logTurns: 'handle' });
      opened.push(s);
      return s;
    },
    compacting: () => {
      const s = dynaliteStore(d, {
        workspaceId,
        retention: { count: 20, days: 0 },
        logTiming: { cacheTrustMs: 0, graceMs: 0 },
        logTurns: 'handle',
      });
      opened.push(s);
      return s;
    },
    cleanup: async () => {
      for (const s of opened.slice(1)) await s.close?.();
    },
  };
});

describe('dynamodb backend specifics', () => {
  /** The raw item of a document, read with the SDK (not through the store). */
  const rawItem = async (workspaceId: string, name: string, orgId = 'test-org') => {
    const sdk = await loadDynamoSdk();
    const c = new sdk.DynamoDBClient({
      endpoint: d.endpoint,
      region: DYNALITE_REGION,
      credentials: DYNALITE_CREDENTIALS,
    });
    try {
      const out = await c.send(
        new sdk.GetItemCommand({
          TableName: 'hub_state',
          Key: {
            pk: { S: `ORG#${encodeURIComponent(orgId)}#WS#${encodeURIComponent(workspaceId)}` },
            sk: { S: `DOC#${name}` },
          },
          ConsistentRead: true,
        }),
      );
      return out.Item;
    } finally {
      c.destroy();
    }
  };

  it('records every event of 4 writers racing for the next sequence, even when a writer loses more races in a row than its attempts (maxAttempts: 1)', async () => {
    const handles = Array.from({ length: 4 }, () =>
      dynaliteStore(d, { workspaceId: 'race-budget', maxAttempts: 1, logTurns: 'handle' }),
    );
    const per = 15;
    const acked = await Promise.all(
      handles.map(async (h, w) => {
        const seqs: number[] = [];
        for (let i = 0; i < per; i++)
          seqs.push((await h.events!.append({ id: `w${w}-${i}`, source: 's', kind: 'K', data: {} })).seq!);
        return seqs;
      }),
    );
    expect(acked.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 4 * per }, (_, i) => i + 1));
    for (const h of handles) await h.close?.();
  });

  it('keys items by org and workspace (ids encoded) and by document name', async () => {
    const a = dynaliteStore(d, { orgId: 'acme#WS#x', workspaceId: 'ws/1' });
    const b = dynaliteStore(d, { orgId: 'acme', workspaceId: 'x#WS#ws/1' });
    const etag = await a.write('claims/a~b', { claims: ['mine'] }, '""');
    const item = await rawItem('ws/1', 'claims/a~b', 'acme#WS#x');
    expect(item?.pk?.S).toBe('ORG#acme%23WS%23x#WS#ws%2F1');
    expect(item?.etag?.S).toBe(etag);
    expect(JSON.parse(item?.body?.S ?? 'null')).toEqual({ claims: ['mine'] });
    // Another org/workspace pair whose naive concatenation would collide sees nothing.
    expect(await b.read('claims/a~b')).toEqual({ value: undefined, etag: undefined });
    expect(await b.list!('claims')).toEqual([]);
    expect(await a.listAll!()).toEqual(['claims/a~b']);
  });

  it('lists a collection across Query pages (over 1 MB of items)', async () => {
    const store = dynaliteStore(d, { workspaceId: randomUUID() });
    const big = 'x'.repeat(150_000);
    const names = Array.from({ length: 12 }, (_, i) => `runs/r${String(i).padStart(2, '0')}`);
    for (const n of names) await store.write(n, { big }, '""');
    await store.write('notes', { n: 1 }, '""');
    expect(await store.list!('runs')).toEqual(names);
    expect(await store.listAll!()).toEqual(['notes', ...names]);
  });

  describe('the 400 KB item limit', () => {
    const workspaceId = randomUUID();
    const name = 'notes';
    /** A document {s: 'x' * n} whose plain item is exactly `bytes` bytes. */
    const docOfItemBytes = (bytes: number) => {
      const pk = `ORG#test-org#WS#${workspaceId}`;
      const fixed =
        'pk'.length + pk.length + 'sk'.length + `DOC#${name}`.length + 'etag'.length + 66 + 'body'.length;
      const n = bytes - fixed - '{"s":""}'.length;
      return { s: 'x'.repeat(n) };
    };

    it('stores a document whose item is exactly 400 KB as plain JSON', async () => {
      const store = dynaliteStore(d, { workspaceId });
      const value = docOfItemBytes(400 * 1024);
      const etag = await store.write(name, value, '""');
      const item = await rawItem(workspaceId, name);
      expect(item?.body?.S?.length).toBe(value.s.length + 8);
      expect(item?.gz).toBeUndefined();
      expect(await store.read(name)).toEqual({ value, etag });
    });

    it('compresses a document one byte over, and reads it back with the same ETag', async () => {
      const store = dynaliteStore(d, { workspaceId });
      const before = await store.read(name);
      const value = docOfItemBytes(400 * 1024 + 1);
      const etag = await store.write(name, value, before.etag!);
      expect(etag).toBe(etagOf(value));
      const item = await rawItem(workspaceId, name);
      expect(item?.body).toBeUndefined();
      expect(item?.gz?.B?.byteLength).toBeLessThan(10_000);
      expect(await store.read(name)).toEqual({ value, etag });
    });

    it('refuses, before any write, a document that does not fit even compressed', async () => {
      const store = dynaliteStore(d, { workspaceId });
      const before = await store.read(name);
      // Random bytes as hex: gzip gets them to about half, still over 400 KB.
      const value = { s: randomBytes(450_000).toString('hex') };
      const err = await thrown(store.write(name, value, before.etag!));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.message).toMatch(/too large for the dynamodb backend.*409600/);
      expect(err.details).toMatchObject({ document: name, limit: 409600, rule: 'dynamodb_item_size' });
      // An append that would grow it past the limit is refused the same way.
      await thrown(store.append(name, 'list', value.s));
      expect(await store.read(name)).toEqual(before);
    });
  });

  it('names `hub state init` when the table is missing; init creates it once, then reports it existing', async () => {
    const table = `t_${randomUUID().slice(0, 8)}`;
    const store = dynaliteStore(d, { table, workspaceId: 'w' });
    const err = await thrown(store.read('objectives'));
    expect(err).toBeInstanceOf(RefusedError);
    expect(err.message).toContain(`table '${table}'`);
    expect(err.message).toContain('hub state init');
    expect(err.details).toMatchObject({ rule: 'dynamodb_table_exists', endpoint: d.endpoint });
    expect(await store.describe!()).toMatchObject({
      table,
      table_status: 'missing',
      fix: expect.stringContaining('hub state init'),
    });

    expect(await store.init!()).toMatchObject({ backend: 'dynamodb', status: 'created', table });
    expect(await store.init!()).toMatchObject({ status: 'existing', table });
    expect(await store.describe!()).toMatchObject({
      table,
      table_status: 'ACTIVE',
      endpoint: d.endpoint,
      region: DYNALITE_REGION,
    });
    await store.write('objectives', { objectives: [] }, '""');
    expect((await store.read('objectives')).value).toEqual({ objectives: [] });
  });

  it('reports an unreachable endpoint as an error naming the table and endpoint', async () => {
    const store = dynaliteStore(d, {
      workspaceId: 'w',
      endpoint: 'http://127.0.0.1:1',
      clientConfig: { credentials: DYNALITE_CREDENTIALS, maxAttempts: 1 },
    });
    const err = await thrown(store.read('objectives'));
    expect(err.message).toContain("table 'hub_state'");
    expect(err.message).toContain('http://127.0.0.1:1');
  });
});

describe('dynamodb backend: the derived events name', () => {
  it('refuses to write or append to `events` (derived from objectives and handoffs), as the local backend does', async () => {
    const store = dynaliteStore(d, { workspaceId: randomUUID() });
    for (const attempt of [
      store.write('events', { events: [] }, '""'),
      store.append('events', 'events', { id: 'e' }),
    ]) {
      const err = await thrown(attempt);
      expect(err).toBeInstanceOf(RefusedError);
      expect(err.message).toContain("write 'coord.events'");
    }
    expect(await store.read('events')).toEqual({ value: undefined, etag: undefined });
    await store.append('coord.events', 'events', { id: 'e' });
    expect((await store.read('coord.events')).value).toEqual({ events: [{ id: 'e' }] });
  });
});
