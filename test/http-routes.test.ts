// Routes generated from the registry, against the demo workspace (real git repos) on real servers on port 0.
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { loadOperations } from '../src/ops/index.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';
import { openSse } from './sse-client.js';

const OPERATIONS = await loadOperations();

let dir: string;
let root: string;
let manifest: string;
let web: RunningServer;
let api: RunningServer;

beforeAll(async () => {
  dir = createTempDir('hub-http-routes-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
  web = await startTestServer({ root });
  api = await startTestServer({ root, mode: 'api' });
});
afterAll(async () => {
  await web?.close();
  await api?.close();
  removeTempDir(dir);
});

/** Every error answer has exactly the DESIGN.md body and never a stack trace. */
function expectErrorBody(r: { json: unknown; text: string }, code: string): void {
  expect(r.json).toMatchObject({ error: { code, message: expect.any(String) } });
  expect(Object.keys(r.json as object)).toEqual(['error']);
  expect(r.text).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/);
}

describe('GET /v3/ops/components', () => {
  it('lists the catalog as {components:[...]} and filters by project', async () => {
    const all = await call(web.base, 'GET', '/v3/ops/components');
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toContain('application/json');
    const ids = all.json.components.map((c: { id: string }) => c.id);
    expect(ids).toContain('platform/identity/auth-plugin');
    const some = await call(web.base, 'GET', '/v3/ops/components?project=storefront');
    expect(some.status).toBe(200);
    expect(some.json.components.length).toBeGreaterThan(0);
    expect(some.json.components.every((c: { project: string }) => c.project === 'storefront')).toBe(true);
  });

  it('answers 400 for an unknown project and for an unknown query field', async () => {
    const r = await call(web.base, 'GET', '/v3/ops/components?project=nope');
    expect(r.status).toBe(400);
    expectErrorBody(r, 'validation');
    expect(r.json.error.message).toContain('nope');
    const u = await call(web.base, 'GET', '/v3/ops/components?colour=red');
    expect(u.status).toBe(400);
    expectErrorBody(u, 'validation');
    expect(u.json.error.message).toContain('colour');
  });
});

describe('GET /v3/ops/components/resolve', () => {
  it('answers 200 with matched:true for a nested path', async () => {
    const r = await call(
      web.base,
      'GET',
      `/v3/ops/components/resolve?path=${encodeURIComponent('platform/identity/services/api/plugins/auth/main.go')}`,
    );
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ matched: true, id: 'platform/identity/auth-plugin' });
  });

  it('answers 200 with matched:false for a miss (a miss is not an error)', async () => {
    for (const p of ['platform/identity/README.md', '/etc/passwd', 'no/such/place']) {
      const r = await call(web.base, 'GET', `/v3/ops/components/resolve?path=${encodeURIComponent(p)}`);
      expect(r.status, p).toBe(200);
      expect(r.json.matched, p).toBe(false);
    }
  });

  it('answers 400 for a missing or invalid path', async () => {
    for (const q of ['', '?path=', '?path=%20%20', '?path=a%00b', '?path=a&path=b']) {
      const r = await call(web.base, 'GET', `/v3/ops/components/resolve${q}`);
      expect(r.status, q).toBe(400);
      expectErrorBody(r, 'validation');
    }
  });
});

describe('GET /v3/ops/components/graph', () => {
  it('answers 200 {origin, depth, direction, nodes, edges}, the same as the CLI', async () => {
    const r = await call(web.base, 'GET', '/v3/ops/components/graph?component=storefront&depth=2');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(
      expect.arrayContaining(['origin', 'depth', 'direction', 'nodes', 'edges']),
    );
    expect(r.json).toMatchObject({ origin: 'component:storefront/web/storefront', depth: 2 });
    const cli = runHub(['-c', manifest, 'component', 'graph', 'storefront', '--depth', '2', '--json']);
    expect(cli.code).toBe(0);
    expect(r.json).toEqual(cli.json());
  });

  it('accepts direction and a full id', async () => {
    const r = await call(
      web.base,
      'GET',
      '/v3/ops/components/graph?component=platform/gateway/gateway&direction=out',
    );
    expect(r.status).toBe(200);
    expect(r.json.direction).toBe('out');
  });

  it('answers 400 for a missing component, an invalid depth or direction', async () => {
    for (const q of [
      '',
      '?component=',
      '?component=storefront&depth=abc',
      '?component=storefront&depth=-1',
      '?component=storefront&depth=1.5',
      '?component=storefront&direction=sideways',
    ]) {
      const r = await call(web.base, 'GET', `/v3/ops/components/graph${q}`);
      expect(r.status, q).toBe(400);
      expectErrorBody(r, 'validation');
    }
  });

  it('answers 404 for an unknown identity', async () => {
    for (const c of ['nope', 'platform/identity/nope', 'component:platform/identity/nope']) {
      const r = await call(web.base, 'GET', `/v3/ops/components/graph?component=${encodeURIComponent(c)}`);
      expect(r.status, c).toBe(404);
      expectErrorBody(r, 'not_found');
    }
  });

  it('answers 400 for an identity that is neither a name nor a three-segment id', async () => {
    const r = await call(web.base, 'GET', '/v3/ops/components/graph?component=a/b');
    expect(r.status).toBe(400);
    expectErrorBody(r, 'validation');
  });
});

describe('GET /v3/ops/components/detect', () => {
  it('answers {candidates:[...]} and never writes, even when asked to apply', async () => {
    const before = readFileSync(manifest, 'utf8');
    const r = await call(web.base, 'GET', '/v3/ops/components/detect?project=platform');
    expect(r.status).toBe(200);
    expect(Array.isArray(r.json.candidates)).toBe(true);
    expect(r.json.applied).toBe(false);
    const apply = await call(web.base, 'GET', '/v3/ops/components/detect?project=platform&apply=true');
    expect(apply.status).toBe(400);
    expectErrorBody(apply, 'validation');
    expect(apply.json.error.details.rule).toBe('fixed_by_route');
    expect(readFileSync(manifest, 'utf8')).toBe(before);
  });

  it('answers 400 for an unknown repo', async () => {
    const r = await call(web.base, 'GET', '/v3/ops/components/detect?project=platform&repo=nope');
    expect(r.status).toBe(400);
    expectErrorBody(r, 'validation');
  });
});

describe('POST /v3/ops/components/init', () => {
  it('drafts without writing, writes with apply:true, and refuses a second init of the path (409)', async () => {
    const before = readFileSync(manifest, 'utf8');
    const body = { path: 'packages/tools', project: 'platform', repo: 'identity', kind: 'package' };
    const draft = await call(web.base, 'POST', '/v3/ops/components/init', { body });
    expect(draft.status).toBe(200);
    expect(draft.json).toMatchObject({ id: 'platform/identity/tools', applied: false });
    expect(readFileSync(manifest, 'utf8')).toBe(before);

    // A folder missing from a checked-out repo is refused (config validate would reject it), nothing written.
    const missing = await call(web.base, 'POST', '/v3/ops/components/init', {
      body: { ...body, apply: true },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error.details.rule).toBe('missing_directory');
    expect(readFileSync(manifest, 'utf8')).toBe(before);
    mkdirSync(join(dirname(manifest), 'platform', 'identity', 'packages', 'tools'), { recursive: true });

    const applied = await call(web.base, 'POST', '/v3/ops/components/init', {
      body: { ...body, apply: true },
    });
    expect(applied.status).toBe(200);
    expect(applied.json.applied).toBe(true);
    expect(readFileSync(manifest, 'utf8')).toContain('packages/tools');
    // The next request sees the new component (each request loads the manifest afresh).
    const list = await call(web.base, 'GET', '/v3/ops/components?project=platform');
    expect(list.json.components.map((c: { id: string }) => c.id)).toContain('platform/identity/tools');

    const again = await call(web.base, 'POST', '/v3/ops/components/init', { body: { ...body, apply: true } });
    expect(again.status).toBe(409);
    expectErrorBody(again, 'refused');
  });

  it('answers 400 for a missing path, a non-object body or an unknown field', async () => {
    const cases: Array<{ body?: unknown; raw?: string }> = [
      { body: { project: 'platform', repo: 'identity' } },
      { body: ['packages/x'] },
      { raw: '"packages/x"' },
      { body: { path: 'packages/x', project: 'platform', repo: 'identity', colour: 'red' } },
      { body: { path: 'packages/x', project: 'platform', repo: 'identity', apply: 'yes' } },
    ];
    for (const c of cases) {
      const r = await call(web.base, 'POST', '/v3/ops/components/init', {
        ...c,
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status, JSON.stringify(c)).toBe(400);
      expectErrorBody(r, 'validation');
    }
  });

  it('answers 400 for bad JSON, in the same error body', async () => {
    for (const raw of ['{bad', '']) {
      const r = await call(web.base, 'POST', '/v3/ops/components/init', {
        raw,
        headers: { 'content-type': 'application/json' },
      });
      expect(r.status, raw).toBe(400);
      expectErrorBody(r, 'validation');
    }
  });
});

describe('route families', () => {
  it('serves /v2 and /v3 on web serve, /v1 and /v2 on api serve', async () => {
    expect((await call(web.base, 'GET', '/v2/workspace/repos')).status).toBe(200);
    expect((await call(api.base, 'GET', '/v2/workspace/repos')).status).toBe(200);
    expect((await call(api.base, 'GET', '/v1/repos/search?query=gateway')).status).toBe(200);
    const v1OnWeb = await call(web.base, 'GET', '/v1/repos/search?query=gateway');
    expect(v1OnWeb.status).toBe(404);
    expectErrorBody(v1OnWeb, 'not_found');
    const v3OnApi = await call(api.base, 'GET', '/v3/ops/components');
    expect(v3OnApi.status).toBe(404);
    expectErrorBody(v3OnApi, 'not_found');
  });

  it('answers an unknown route or method with the JSON 404 body', async () => {
    for (const [m, p] of [
      ['GET', '/v3/nope'],
      ['DELETE', '/v3/ops/components'],
      ['GET', '/nope.js'],
    ] as const) {
      const r = await call(web.base, m, p);
      expect(r.status, `${m} ${p}`).toBe(404);
      expectErrorBody(r, 'not_found');
    }
  });

  it('gives every HTTP binding of the served families a route', async () => {
    for (const op of OPERATIONS) {
      for (const b of op.http ?? []) {
        const server = b.route.startsWith('/v1/') ? api : web;
        const path = b.route.replace(/\{[^}]+\}/g, 'x');
        if (b.stream) {
          // A stream stays open: its status line is enough to know the route exists.
          const s = await openSse(`${server.base}${path}`);
          s.close();
          expect(s.status, `${b.method} ${b.route}`).toBe(200);
          continue;
        }
        const r = await call(server.base, b.method, path, b.method === 'GET' ? {} : { body: {} });
        // Whatever the input makes of it, the route exists: never the router's "no route".
        const noRoute = r.status === 404 && /^no route /.test(r.json?.error?.message ?? '');
        expect(noRoute, `${b.method} ${b.route}`).toBe(false);
      }
    }
  });
});

describe('GET /v1/repos/search and /v1/repos/resolve (api serve)', () => {
  it('searches manifest metadata', async () => {
    const r = await call(api.base, 'GET', '/v1/repos/search?query=gateway&path_only=true');
    expect(r.status).toBe(200);
    expect(r.json.paths.length).toBeGreaterThan(0);
    const bad = await call(api.base, 'GET', '/v1/repos/search');
    expect(bad.status).toBe(400);
    expectErrorBody(bad, 'validation');
  });

  it('resolves an id, a name, a clone URL and a path inside a checkout', async () => {
    const byId = await call(api.base, 'GET', '/v1/repos/resolve?ref=platform/identity');
    expect(byId.status).toBe(200);
    expect(byId.json).toMatchObject({
      matched: true,
      match: 'id',
      repo: { id: 'platform/identity', exists: true },
    });
    const byName = await call(api.base, 'GET', '/v1/repos/resolve?ref=gateway');
    expect(byName.json).toMatchObject({ matched: true, match: 'name', repo: { id: 'platform/gateway' } });
    const byUrl = await call(
      api.base,
      'GET',
      `/v1/repos/resolve?ref=${encodeURIComponent('git@github.com:example/legacy-billing')}`,
    );
    expect(byUrl.json).toMatchObject({
      matched: true,
      match: 'url',
      repo: { id: 'platform/legacy-billing', exists: false },
    });
    const deep = join(root, 'platform', 'identity', 'services', 'api');
    const byPath = await call(api.base, 'GET', `/v1/repos/resolve?ref=${encodeURIComponent(deep)}`);
    expect(byPath.json).toMatchObject({
      matched: true,
      match: 'path',
      repo: { id: 'platform/identity' },
      relative_path: 'services/api',
    });
    const rel = await call(api.base, 'GET', '/v1/repos/resolve?ref=storefront/web/apps');
    expect(rel.json).toMatchObject({ matched: true, match: 'path', repo: { id: 'storefront/web' } });
  });

  it('answers matched:false for a miss and 400 without ref', async () => {
    const miss = await call(api.base, 'GET', '/v1/repos/resolve?ref=nope');
    expect(miss.status).toBe(200);
    expect(miss.json).toMatchObject({ matched: false, repo: null });
    const outside = await call(api.base, 'GET', '/v1/repos/resolve?ref=%2Fetc');
    expect(outside.json.matched).toBe(false);
    const none = await call(api.base, 'GET', '/v1/repos/resolve');
    expect(none.status).toBe(400);
    expectErrorBody(none, 'validation');
  });
});
