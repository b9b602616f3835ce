// The mongodb state backend. The shared conformance suite runs against a real server when HUB_TEST_MONGODB_URL
// names one (none can be installed on the build machine); everything that needs no server runs always: the
// document mapping (property-based round trips), the driver-error mapping (the driver's own error classes, and a
// real unreachable port), the settings and their redaction, `hub state info`.
import { randomUUID } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { MongoClient, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HubError,
  MAX_DOCUMENT_BYTES,
  RefusedError,
  StateConflictError,
  ValidationError,
} from '../src/infra/index.js';
import { applyAppConfigEnv } from '../src/model/appconfig-env.js';
import {
  canonicalJson,
  createMongoStore,
  DEFAULT_MONGODB_COLLECTION,
  decodeRecord,
  encodeRecord,
  etagOf,
  MONGODB_MAX_RECORD_BYTES,
  mapMongoError,
  recordId,
  resolveMongoTarget,
} from '../src/state/index.js';
import { buildWorkspace, removeTempDir } from './fixtures/index.js';
import { thrown } from './fixtures/thrown.js';
import { runHub } from './run-hub.js';
import { runStoreConformance } from './state-conformance.js';

const SERVER = process.env.HUB_TEST_MONGODB_URL;

if (SERVER) {
  const target = resolveMongoTarget({ url: SERVER, collection: 'hub_state_conformance' });
  runStoreConformance('mongodb', async () => {
    const workspaceId = `test-${randomUUID()}`;
    const open = (logTurns?: 'handle') =>
      createMongoStore({ target, orgId: 'conformance', workspaceId, timeoutMs: 5000, logTurns });
    return {
      store: open(),
      // Another handle races this one for the next sequence as another process does.
      reopen: () => open('handle'),
      compacting: () =>
        createMongoStore({
          target,
          orgId: 'conformance',
          workspaceId,
          timeoutMs: 5000,
          retention: { count: 20, days: 0 },
          logTiming: { cacheTrustMs: 0, graceMs: 0 },
          logTurns: 'handle',
        }),
      cleanup: async () => {
        const client = new MongoClient(SERVER);
        await client
          .db(target.database)
          .collection(target.collection)
          .deleteMany({ '_id.workspace_id': workspaceId });
        await client.close();
      },
    };
  });
} else {
  describe.skip('state conformance: mongodb (skipped: set HUB_TEST_MONGODB_URL=mongodb://... to run it against a server)', () => {
    it('runs against a real server', () => {});
  });
}

/** -0 is not a JSON value (JSON writes it as 0). */
const json = fc
  .jsonValue({ stringUnit: 'binary', maxDepth: 5 })
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown);
/** Keys MongoDB's BSON and update language treat specially, mixed into objects. */
const awkwardKey = fc.constantFrom('$set', '$', 'a.b', '.', '', '__proto__', '_id', 'ü\u0000x', '$where');
const awkward = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    json,
    fc.constantFrom(2 ** 53 + 2, -(2 ** 63), 1e308, 5e-324, Number.MAX_SAFE_INTEGER),
    fc.array(tie('value'), { maxLength: 4 }),
    fc
      .array(fc.tuple(fc.oneof(awkwardKey, fc.string()), tie('value')), { maxLength: 4 })
      .map((pairs) =>
        JSON.parse(`{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`),
      ),
  ),
})).value;

describe('mongodb document mapping', () => {
  const id = recordId('acme', 'ws1', 'claims/p~r');

  it('round-trips any JSON document exactly, with the ETag every backend computes', () => {
    fc.assert(
      fc.property(awkward, (value) => {
        if (value === null) return;
        const { record, etag } = encodeRecord(id, value);
        expect(etag).toBe(etagOf(value));
        expect(record.etag).toBe(etag);
        const back = decodeRecord('claims/p~r', structuredClone(record));
        expect(canonicalJson(back.value)).toBe(canonicalJson(value));
        expect(back.etag).toBe(etag);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps keys with $ and dots, __proto__, big numbers and nesting past BSON depth', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 150; i++) deep = { [`$l${i}`]: [deep] };
    const value = JSON.parse(
      `{"$set":{"a.b":1},"__proto__":{"x":1},"big":9007199254740993,"neg":-0,"deep":${JSON.stringify(deep)}}`,
    );
    const back = decodeRecord('d', encodeRecord(id, value).record).value as Record<string, unknown>;
    expect(Object.keys(back).sort()).toEqual(['$set', '__proto__', 'big', 'deep', 'neg']);
    expect(canonicalJson(back)).toBe(canonicalJson(value));
  });

  it('keys records by org, workspace and name, in that order', () => {
    const { record } = encodeRecord(id, { a: 1 });
    expect(Object.keys(record._id)).toEqual(['org_id', 'workspace_id', 'name']);
    expect(record._id).toEqual({ org_id: 'acme', workspace_id: 'ws1', name: 'claims/p~r' });
  });

  it('refuses a document over 16 MiB before anything is sent, naming the limit', () => {
    const err = thrown(() => encodeRecord(id, { blob: 'x'.repeat(MONGODB_MAX_RECORD_BYTES) }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('16 MiB');
    expect(err.details).toMatchObject({ rule: 'mongodb_document_size', limit: MONGODB_MAX_RECORD_BYTES });
    // Below it, the stored-document bound of every backend (8 MiB) applies.
    const over = thrown(() => encodeRecord(id, { blob: 'x'.repeat(MAX_DOCUMENT_BYTES) }));
    expect(over.details).toMatchObject({ rule: 'max_document_bytes', limit: MAX_DOCUMENT_BYTES });
    expect(() => encodeRecord(id, { blob: 'x'.repeat(MAX_DOCUMENT_BYTES - 4096) })).not.toThrow();
  });

  it('names a record hub did not write instead of misreading it', () => {
    const err = thrown(() => decodeRecord('notes', { _id: 1, body: { a: 1 } }));
    expect(err.details).toMatchObject({ rule: 'mongodb_record_shape' });
  });
});

describe('mongodb settings', () => {
  it('defaults the database to the URL path, else hub, and the collection to hub_state', () => {
    expect(resolveMongoTarget({ url: 'mongodb://h:27017/teamdb?tls=true' })).toMatchObject({
      database: 'teamdb',
      collection: DEFAULT_MONGODB_COLLECTION,
    });
    expect(resolveMongoTarget({ url: 'mongodb+srv://cluster.example' }).database).toBe('hub');
    expect(
      resolveMongoTarget({ url: 'mongodb://h/teamdb', database: 'other', collection: 'st' }),
    ).toMatchObject({ database: 'other', collection: 'st' });
  });

  it('masks the password wherever the URL is shown', () => {
    const t = resolveMongoTarget({ url: 'mongodb://admin:s3cr3t-SECRET@db1,db2/hub?authSource=admin' });
    expect(t.shownUrl).toBe('mongodb://admin:***CRET@db1,db2/hub?authSource=admin');
    expect(t.url).toContain('s3cr3t-SECRET');
  });

  it('refuses a missing URL, another scheme and bad names, saying which setting and how to fix it', () => {
    expect(thrown(() => resolveMongoTarget(undefined)).message).toContain('HUB_STATE_MONGODB_URL');
    const scheme = thrown(() => resolveMongoTarget({ url: 'https://u:pw-SECRET@h/db' }));
    expect(scheme.details).toMatchObject({ field: 'state.mongodb.url', rule: 'mongodb_url' });
    expect(scheme.message).not.toContain('SECRET');
    expect(thrown(() => resolveMongoTarget({ url: 'mongodb://h', database: 'a/b' })).details).toMatchObject({
      field: 'state.mongodb.database',
    });
    expect(
      thrown(() => resolveMongoTarget({ url: 'mongodb://h', collection: 'system.users' })).details,
    ).toMatchObject({ field: 'state.mongodb.collection' });
  });

  it('takes the URL from HUB_STATE_MONGODB_URL over the file', () => {
    const { config, overrides } = applyAppConfigEnv(
      { state: { backend: 'mongodb', mongodb: { url: 'mongodb://file/db' } } },
      { HUB_STATE_MONGODB_URL: 'mongodb://env:pw@envhost/db' },
    );
    expect(config.state.mongodb?.url).toBe('mongodb://env:pw@envhost/db');
    expect(overrides).toEqual(['HUB_STATE_MONGODB_URL']);
  });
});

describe('mongodb error mapping', () => {
  const t = resolveMongoTarget({ url: 'mongodb://app:pw-SECRET@db.example/hub' });
  const server = (code: number, codeName: string, errmsg = 'x') =>
    new MongoServerError({ ok: 0, code, codeName, errmsg });

  it('maps a duplicate key (a first write that lost) to a conflict', () => {
    const e = mapMongoError(server(11000, 'DuplicateKey', 'E11000 duplicate key'), t, 'insert', 'notes');
    expect(e).toBeInstanceOf(StateConflictError);
    expect(e.details).toMatchObject({ document: 'notes' });
  });

  it('maps a missing privilege to a refusal naming the actions and hub state init', () => {
    const e = mapMongoError(
      server(13, 'Unauthorized', 'not authorized on hub to execute command'),
      t,
      'insert',
    );
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.message).toMatch(/find, insert, update/);
    expect(e.message).toContain('hub state init');
    expect(e.details).toMatchObject({ rule: 'mongodb_permission', database: 'hub', collection: 'hub_state' });
  });

  it('maps a failed login to a refusal that names the connection string, never its password', () => {
    const e = mapMongoError(server(18, 'AuthenticationFailed', 'Authentication failed.'), t, 'find');
    expect(e.details).toMatchObject({ rule: 'mongodb_authentication' });
    expect(e.message).toContain('HUB_STATE_MONGODB_URL');
    expect(JSON.stringify([e.message, e.details])).not.toContain('SECRET');
  });

  it('maps a missing namespace to a refusal that says to run hub state init', () => {
    const e = mapMongoError(server(26, 'NamespaceNotFound'), t, 'find');
    expect(e.message).toContain('hub state init');
    expect(e.details).toMatchObject({ rule: 'mongodb_collection_exists' });
  });

  it('redacts a connection string the driver echoes', () => {
    const e = mapMongoError(
      new MongoServerSelectionError('connect ECONNREFUSED mongodb://app:pw-SECRET@db.example', {} as never),
      t,
      'find',
    );
    expect(e.details).toMatchObject({ rule: 'mongodb_reachable' });
    expect(e.message).not.toContain('SECRET');
  });

  it('maps a connection string the driver cannot parse to a validation error on state.mongodb.url', async () => {
    const store = createMongoStore({
      target: { ...t, url: 'mongodb://h/db?readPreference=nonsense-SECRET', shownUrl: 'mongodb://h/db' },
      orgId: '_',
      workspaceId: 'w',
    });
    const err = await store.read('notes').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as HubError).details).toMatchObject({ field: 'state.mongodb.url' });
  });
});

describe('mongodb backend without a server', () => {
  let port: number;
  beforeAll(async () => {
    // A port that was just free: nothing listens there.
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    port = (srv.address() as { port: number }).port;
    await new Promise((r) => srv.close(r));
  });
  const open = () =>
    createMongoStore({
      target: resolveMongoTarget({ url: `mongodb://app:pw-SECRET@127.0.0.1:${port}/hub` }),
      orgId: '_',
      workspaceId: 'w',
      timeoutMs: 300,
    });

  it('reports an unreachable server with the fix, the URL redacted', async () => {
    const store = open();
    const err = await store.read('notes').then(
      () => undefined,
      (e: unknown) => e,
    );
    await store.close?.();
    expect(err).toBeInstanceOf(HubError);
    expect((err as HubError).details).toMatchObject({
      rule: 'mongodb_reachable',
      url: expect.stringContaining('***'),
    });
    expect((err as HubError).message).toContain('state.mongodb.url');
    expect(JSON.stringify([(err as HubError).message, (err as HubError).details])).not.toContain('SECRET');
  });

  it('refuses a document over 16 MiB without connecting', async () => {
    const store = open();
    const err = await store.write('notes', { blob: 'x'.repeat(MONGODB_MAX_RECORD_BYTES) }, '""').then(
      () => undefined,
      (e: unknown) => e,
    );
    await store.close?.();
    expect((err as HubError).details).toMatchObject({ rule: 'mongodb_document_size' });
  });

  it('refuses to write, append or update the derived `events` name without connecting, as every backend does', async () => {
    const store = open();
    for (const attempt of [
      store.write('events', { events: [] }, '""'),
      store.append('events', 'events', { id: 'e' }),
      store.update!('events', () => ({ value: { events: [] }, result: 0 })),
    ]) {
      const err = await attempt.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(RefusedError);
      expect((err as RefusedError).message).toContain("write 'coord.events'");
    }
    await store.close?.();
  });

  it('describe() says unreachable instead of throwing', async () => {
    const store = open();
    const d = await store.describe();
    await store.close?.();
    expect(d).toMatchObject({ collection_status: 'unreachable', database: 'hub', collection: 'hub_state' });
    expect(JSON.stringify(d)).not.toContain('SECRET');
  });
});

describe('hub state info with the mongodb backend', () => {
  let root: string;
  let manifest: string;
  beforeAll(() => {
    ({ root, manifestPath: manifest } = buildWorkspace({
      projects: [{ name: 'p', repos: [{ name: 'r', files: { 'a.txt': 'a\n' } }] }],
    }));
  });
  afterAll(() => removeTempDir(root));

  it('loads the bundled driver (dist/) and reports an unreachable server, the URL redacted', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as { port: number }).port;
    await new Promise((r) => srv.close(r));
    writeFileSync(join(root, 'hub.config.yaml'), 'state:\n  timeout_ms: 300\n');
    const r = runHub(['-c', manifest, 'context', 'events', '--json'], {
      env: {
        HUB_STATE_BACKEND: 'mongodb',
        HUB_STATE_MONGODB_URL: `mongodb://app:pw-SECRET@127.0.0.1:${port}/team`,
      },
    });
    expect(r.code).toBe(1);
    expect(`${r.stdout}${r.stderr}`).not.toContain('SECRET');
    expect(r.json().error).toMatchObject({ details: { rule: 'mongodb_reachable', database: 'team' } });
  });

  it('refuses state.mongodb.url from a workspace config: a cloned workspace does not choose the server', () => {
    // Connection-string options such as authMechanism=MONGODB-AWS (signs with the user's AWS credentials) or
    // tlsCertificateKeyFile (reads a local key file) would act with the user's secrets on a server it names.
    writeFileSync(
      join(root, 'hub.config.yaml'),
      'state:\n  backend: mongodb\n  mongodb:\n    url: mongodb://evil.example/?authMechanism=MONGODB-AWS\n',
    );
    try {
      const r = runHub(['-c', manifest, 'state', 'info', '--json']);
      expect(r.code).toBe(1);
      expect(r.json().error).toMatchObject({ details: { rule: 'workspace_config_trusted_key' } });
      expect(JSON.stringify(r.json())).toContain('state.mongodb.url');
    } finally {
      rmSync(join(root, 'hub.config.yaml'));
    }
  });

  it('shows the URL redacted, the database and the collection (no server needed)', () => {
    // A backend's describe() may try the server (state info's details): bounded, as the unreachable host is.
    writeFileSync(join(root, 'hub.config.yaml'), 'state:\n  timeout_ms: 300\n');
    const r = runHub(['-c', manifest, 'state', 'info', '--json'], {
      env: {
        HUB_STATE_BACKEND: 'mongodb',
        HUB_STATE_MONGODB_URL: 'mongodb://app:pw-SECRET@db.example:27017/team?authSource=admin',
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(`${r.stdout}${r.stderr}`).not.toContain('SECRET');
    expect(r.json()).toMatchObject({
      backend: 'mongodb',
      mongodb: {
        url: 'mongodb://app:***CRET@db.example:27017/team?authSource=admin',
        database: 'team',
        collection: 'hub_state',
      },
      env_overrides: expect.arrayContaining(['HUB_STATE_BACKEND', 'HUB_STATE_MONGODB_URL']),
    });
  });
});
