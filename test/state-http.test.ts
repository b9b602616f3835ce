// The http state backend: the shared conformance suite against a real hub server on port 0 (local backend behind
// it), plus what only a remote client has (token, URL rule, timeouts, error mapping).
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubError, StateConflictError, UnauthorizedError, ValidationError } from '../src/infra/index.js';
import { createContext } from '../src/ops/index.js';
import { createHttpStore, createLocalStore, updateDocument } from '../src/state/index.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { type RunningServer, startTestServer } from './http-server.js';
import { runStoreConformance } from './state-conformance.js';

/** The error a promise rejects with (fails the test when it resolves). */
async function thrown(p: Promise<unknown>): Promise<HubError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HubError);
  return err as HubError;
}

runStoreConformance('http', async () => {
  const dir = createTempDir('hub-state-http-');
  const srv = await startTestServer({ root: dir });
  let compactingServer: Promise<RunningServer> | undefined;
  return {
    store: createHttpStore({ url: srv.base, timeoutMs: 10_000 }),
    reopen: () => createHttpStore({ url: srv.base, timeoutMs: 10_000 }),
    // A second server on the same folder whose store keeps 20 events in segments of 10: it compacts as clients
    // of both append, racing them.
    compacting: async () => {
      compactingServer ??= startTestServer({
        root: dir,
        store: createLocalStore({
          dir: join(dir, '.hub'),
          retention: { count: 20, days: 0 },
          segmentEvents: 10,
        }),
      });
      return createHttpStore({ url: (await compactingServer).base, timeoutMs: 10_000 });
    },
    cleanup: async () => {
      await (await compactingServer)?.close();
      await srv.close();
      removeTempDir(dir);
    },
  };
});

describe('http backend specifics', () => {
  let dir: string;
  let srv: RunningServer;
  const TOKEN = 's3cret-token-value';

  beforeAll(async () => {
    dir = createTempDir('hub-state-http-x-');
    srv = await startTestServer({ root: dir, env: { HUB_CACHE_DIR: 'off', HUB_SERVER_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await srv?.close();
    removeTempDir(dir);
  });

  it('sends the bearer token; without it (or with a wrong one) the server answers 401 -> UnauthorizedError', async () => {
    const good = createHttpStore({ url: srv.base, token: TOKEN });
    const etag = await good.write('objectives', { objectives: [] }, '""');
    expect((await good.read('objectives')).etag).toBe(etag);
    for (const token of [undefined, 'wrong']) {
      const err = await thrown(createHttpStore({ url: srv.base, token }).read('objectives'));
      expect(err, String(token)).toBeInstanceOf(UnauthorizedError);
      expect((err as HubError).details).toMatchObject({ remote_status: 401 });
    }
  });

  it('accepts a base URL with a path prefix and a trailing slash only for that prefix', async () => {
    const store = createHttpStore({ url: `${srv.base}/`, token: TOKEN });
    await store.read('objectives');
    const prefixed = createHttpStore({ url: `${srv.base}/prefix`, token: TOKEN });
    const err = await thrown(prefixed.read('objectives'));
    expect((err as HubError).code).toBe('not_found');
  });

  it('refuses any scheme but http(s) with the spec text, and URLs with credentials', () => {
    for (const url of ['ftp://host/x', 'file:///tmp/x', 'host:8787', 'not a url']) {
      expect(() => createHttpStore({ url }), url).toThrow('remote state url must be http(s)');
    }
    expect(() => createHttpStore({ url: undefined })).toThrow(ValidationError);
    expect(() => createHttpStore({ url: 'https://u:p@host/' })).toThrow(/credentials/);
  });

  it('reports an unreachable server and a timeout as errors naming the URL', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => sockets.push(s)); // accepts and never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    try {
      const slow = await thrown(
        createHttpStore({ url: `http://127.0.0.1:${port}`, timeoutMs: 300 }).read('objectives'),
      );
      expect((slow as HubError).message).toContain('timed out after 300 ms');
      expect((slow as HubError).message).toContain(`127.0.0.1:${port}`);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
    }
    const gone = await thrown(createHttpStore({ url: `http://127.0.0.1:${port}` }).read('objectives'));
    expect(gone).toBeInstanceOf(HubError);
    expect((gone as HubError).message).toContain('ECONNREFUSED');
  });

  it('turns 412 into StateConflictError, which updateDocument reloads and reapplies', async () => {
    const a = createHttpStore({ url: srv.base, token: TOKEN });
    const b = createHttpStore({ url: srv.base, token: TOKEN });
    const cur = await a.read<{ n: number }>('counter');
    await b.write('counter', { n: 100 }, cur.etag ?? '""');
    expect(await thrown(a.write('counter', { n: 1 }, cur.etag ?? '""'))).toBeInstanceOf(StateConflictError);
    const { value } = await updateDocument<{ n: number }>(
      a,
      'counter',
      (c) => ({ value: { n: (c?.n ?? 0) + 1 }, result: undefined }),
      { retries: 1 },
    );
    expect(value).toEqual({ n: 101 });
  });

  it('is what a context opens for state.backend http, with HUB_STATE_URL and HUB_STATE_TOKEN', async () => {
    const ctx = createContext({
      cwd: dir,
      env: {
        HUB_STATE_BACKEND: 'http',
        HUB_STATE_URL: srv.base,
        HUB_STATE_TOKEN: TOKEN,
        HUB_CACHE_DIR: 'off',
      },
    });
    const { store, info } = ctx.store();
    expect(store.backend).toBe('http');
    expect(info).toMatchObject({ backend: 'http', location: srv.base });
    expect(JSON.stringify(info)).not.toContain(TOKEN);
    // The server checks a handoff against its schema and fills in the rest (status, timestamps, ...).
    await store.append('handoffs', 'handoffs', { id: 'h1', title: 't' });
    expect((await store.read<{ handoffs: unknown[] }>('handoffs')).value?.handoffs).toContainEqual(
      expect.objectContaining({ id: 'h1', title: 't', status: 'open' }),
    );
    const bad = createContext({ cwd: dir, env: { HUB_STATE_BACKEND: 'http', HUB_STATE_URL: 'ftp://x/' } });
    expect(() => bad.store()).toThrow('remote state url must be http(s)');
    const missing = createContext({ cwd: join(dir), env: { HUB_STATE_BACKEND: 'http' } });
    expect(() => missing.store()).toThrow(/state\.url is required/);
  });
});
