// GET /v2/workspace/search: the `search` operation (manifest metadata, never file contents) on `hub web serve`,
// which serves /v2 and /v3 only, so the browser UI's Search view can reach it. Same operation as `hub search`,
// `hub_repo_search` and `/v1/repos/search` on `hub api serve`: same answer.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;
let manifest: string;
let web: RunningServer;
let api: RunningServer;

beforeAll(async () => {
  dir = createTempDir('hub-http-ws-search-');
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

describe('GET /v2/workspace/search', () => {
  it('answers on web serve with the hits `hub search --json` and /v1/repos/search give', async () => {
    const r = await call(web.base, 'GET', '/v2/workspace/search?query=gateway');
    expect(r.status).toBe(200);
    const body = r.json as { query: string; total: number; results: Array<{ type: string; id: string }> };
    expect(body.results.map((h) => h.id)).toContain('platform/gateway');
    expect(body.results.every((h) => ['project', 'repo', 'component'].includes(h.type))).toBe(true);
    const v1 = await call(api.base, 'GET', '/v1/repos/search?query=gateway');
    expect(v1.json).toEqual(r.json);
    const cli = runHub(['-c', manifest, 'search', 'gateway', '--json'], { cwd: root });
    expect(cli.code).toBe(0);
    expect(JSON.parse(cli.stdout)).toEqual(r.json);
  });

  it('takes project, limit and path_only from the query, and refuses a missing query naming the field', async () => {
    const scoped = await call(web.base, 'GET', '/v2/workspace/search?query=api&project=storefront&limit=2');
    expect(scoped.status).toBe(200);
    const hits = (scoped.json as { results: Array<{ id: string }> }).results;
    expect(hits.length).toBeLessThanOrEqual(2);
    expect(hits.every((h) => h.id.startsWith('storefront'))).toBe(true);
    const paths = await call(web.base, 'GET', '/v2/workspace/search?query=gateway&path_only=true');
    expect((paths.json as { paths: string[] }).paths.length).toBeGreaterThan(0);
    const bad = await call(web.base, 'GET', '/v2/workspace/search');
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      error: { code: 'validation', details: { issues: [{ field: 'query', rule: 'invalid_type' }] } },
    });
  });
});
