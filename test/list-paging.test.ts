import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';

/**
 * Lists that grow with the workspace come a page at a time on every surface: limit and offset in, total,
 * offset, next_offset and truncated out; the default page is small over MCP and HTTP.
 * 6 repositories (url only, nothing cloned) of 20 components: 120 components, more than the MCP default page.
 */
const REPOS = 6;
const PER_REPO = 20;
const TOTAL = REPOS * PER_REPO;

let dir: string;
let manifest: string;
let server: RunningServer;
let mcp: Client;
const ids: string[] = [];

beforeAll(async () => {
  dir = createTempDir('hub-paging-');
  const repos = Array.from({ length: REPOS }, (_, r) => ({
    name: `r${r}`,
    url: `https://example.com/r${r}.git`,
    components: Array.from({ length: PER_REPO }, (_, c) => ({ name: `c${r}-${c}`, path: `mod/c${c}` })),
  }));
  for (const r of repos) for (const c of r.components) ids.push(`p/${r.name}/${c.name}`);
  manifest = buildWorkspace({ root: join(dir, 'ws'), projects: [{ name: 'p', repos }] }).manifestPath;
  server = await startTestServer({ root: join(dir, 'ws') });
  mcp = await connectHub(join(dir, 'ws'));
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
  removeTempDir(dir);
});

const hub = (args: string[], env: Record<string, string> = {}) => runHub(['-c', manifest, ...args], { env });

describe('component list pages', () => {
  it('gives the page asked for, in manifest order, with where it stands', async () => {
    const r = hub(['component', 'list', '--limit', '7', '--offset', '7', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const page = r.json();
    expect(page.components.map((c: { id: string }) => c.id)).toEqual(ids.slice(7, 14));
    expect(page).toMatchObject({ total: TOTAL, offset: 7, next_offset: 14, truncated: true });
  });

  it('stitches every page back into the whole list, the last one saying so', async () => {
    const seen: string[] = [];
    let offset: number | null = 0;
    let last: { next_offset: number | null; truncated: boolean } | undefined;
    while (offset !== null) {
      const r = await call(server.base, 'GET', `/v3/ops/components?limit=7&offset=${offset}`);
      expect(r.status, r.text).toBe(200);
      seen.push(...r.json.components.map((c: { id: string }) => c.id));
      last = r.json;
      offset = r.json.next_offset;
    }
    expect(seen).toEqual(ids);
    expect(last).toMatchObject({ next_offset: null, truncated: false });
  });

  it('defaults to a small page over MCP (50) and HTTP (100), everything to a person at the CLI', async () => {
    const viaMcp = await callJson(mcp, 'hub_component_list', {});
    expect(viaMcp.components).toHaveLength(50);
    expect(viaMcp).toMatchObject({ total: TOTAL, offset: 0, next_offset: 50, truncated: true });
    const viaHttp = (await call(server.base, 'GET', '/v3/ops/components')).json;
    expect(viaHttp.components).toHaveLength(100);
    expect(viaHttp).toMatchObject({ total: TOTAL, next_offset: 100, truncated: true });
    const viaCli = hub(['component', 'list', '--json']).json();
    expect(viaCli.components).toHaveLength(TOTAL);
    expect(viaCli).toMatchObject({ total: TOTAL, next_offset: null, truncated: false });
  });

  it('gives an agent at the CLI (HUB_AGENT_MODE=true) the agent page', () => {
    const r = hub(['component', 'list', '--json'], { HUB_AGENT_MODE: 'true' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().components).toHaveLength(50);
    expect(r.json().next_offset).toBe(50);
  });

  it('says in the table footer that the list was cut, and how to go on', () => {
    const r = hub(['component', 'list', '--limit', '7']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 7 + 1);
    expect(lines.at(-1)).toBe(`showing 7 of ${TOTAL} components; next page: --offset 7`);
    const whole = hub(['component', 'list', '--project', 'p', '--repo', 'r0']);
    expect(whole.stdout).not.toMatch(/showing/);
  });

  it('pages within a scope: total counts the matches, not the workspace', async () => {
    const r = await call(server.base, 'GET', '/v3/ops/components?project=p&repo=r2&limit=7&offset=14');
    expect(r.json.components.map((c: { id: string }) => c.id)).toEqual(
      ids.slice(2 * PER_REPO + 14, 3 * PER_REPO),
    );
    expect(r.json).toMatchObject({ total: PER_REPO, offset: 14, next_offset: null, truncated: false });
  });

  it('answers an offset past the end with an empty last page', async () => {
    const r = await call(server.base, 'GET', `/v3/ops/components?offset=${TOTAL + 5}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ components: [], total: TOTAL, offset: TOTAL + 5, next_offset: null });
  });
});

describe('bad page values are refused, naming the field, the value and the rule', () => {
  const BAD: Array<[string, string, string, string]> = [
    ['limit', '0', 'too_small', 'must be at least 1'],
    ['limit', '-3', 'too_small', 'must be at least 1'],
    ['limit', '1001', 'too_big', 'must be at most 1000'],
    ['limit', '2.5', 'invalid_type', 'must be a whole number'],
    ['limit', 'ten', 'invalid_type', 'must be a number'],
    ['offset', '-1', 'too_small', 'must be 0 or more'],
  ];

  it.each(BAD)('HTTP %s=%s', async (field, value, rule, message) => {
    const r = await call(server.base, 'GET', `/v3/ops/components?${field}=${value}`);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation');
    expect(r.json.error.message).toContain(`${field}: ${message}`);
    expect(r.json.error.message).toContain(value);
    expect(r.json.error.details.issues[0]).toMatchObject({ field, rule });
    expect(String(r.json.error.details.issues[0].value)).toBe(value);
  });

  it('CLI and MCP refuse the same way', async () => {
    const r = hub(['workspace', 'repo', 'list', '--limit', '1001', '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.details.issues[0]).toMatchObject({ field: 'limit', rule: 'too_big' });
    const err = await rpcError(
      mcp.callTool({ name: 'hub_workspace_repos_list', arguments: { offset: -1 } }),
      -32602,
    );
    expect(err.message).toContain('offset: must be 0 or more');
  });
});

describe('workspace repo list pages', () => {
  it('gives a page of slim rows with total and next_offset on every surface', async () => {
    const viaCli = hub(['workspace', 'repo', 'list', '--limit', '4', '--offset', '2', '--json']).json();
    expect(viaCli.repos.map((r: { id: string }) => r.id)).toEqual(['p/r2', 'p/r3', 'p/r4', 'p/r5']);
    expect(viaCli).toMatchObject({ total: REPOS, offset: 2, next_offset: null, truncated: false });
    const first = (await call(server.base, 'GET', '/v2/workspace/repos?limit=4')).json;
    expect(first).toMatchObject({ total: REPOS, offset: 0, next_offset: 4, truncated: true });
    expect(await callJson(mcp, 'hub_workspace_repos_list', { limit: 4, offset: 2 })).toEqual(viaCli);
  });

  it('says so under the human table', () => {
    const r = hub(['workspace', 'repo', 'list', '--limit', '4']);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(
      `showing 4 of ${REPOS} repositories; next page: --offset 4`,
    );
  });
});

describe('ranked search pages too (default 50 on every surface)', () => {
  it('gives the hits after the first page, best first, with total and next_offset', async () => {
    const first = (await call(server.base, 'GET', '/v2/workspace/search?query=mod')).json;
    expect(first.results).toHaveLength(50);
    expect(first).toMatchObject({ total: TOTAL, offset: 0, next_offset: 50, truncated: true });
    const next = await callJson(mcp, 'hub_repo_search', { query: 'mod', limit: 7, offset: 50 });
    const viaCli = hub(['search', 'mod', '--limit', '57']).stdout;
    expect(next.results.map((h: { id: string }) => h.id)).toEqual(
      viaCli
        .trimEnd()
        .split('\n')
        .slice(51, 58)
        .map((l) => l.split(/\s+/)[1]),
    );
    expect(next).toMatchObject({ total: TOTAL, offset: 50, next_offset: 57 });
  });
});

describe('state lists page the same way', () => {
  it('pages handoffs on every surface; the whole-document GET stays whole', async () => {
    for (let i = 0; i < 30; i++) {
      const r = await call(server.base, 'POST', '/v3/ops/handoffs', {
        body: { id: `h${String(i).padStart(2, '0')}`, title: `Hand over ${i}` },
      });
      expect(r.status, r.text).toBeLessThan(300);
    }
    const page = (await call(server.base, 'GET', '/v3/ops/handoffs?status=open&limit=7&offset=21')).json;
    expect(page.handoffs.map((h: { id: string }) => h.id)).toEqual([
      'h21',
      'h22',
      'h23',
      'h24',
      'h25',
      'h26',
      'h27',
    ]);
    expect(page).toMatchObject({ total: 30, offset: 21, next_offset: 28, truncated: true });
    const viaMcp = await callJson(mcp, 'hub_handoff_list', { status: 'open', limit: 7, offset: 21 });
    const viaCli = hub([
      'context',
      'handoff',
      'list',
      '--status',
      'open',
      '--limit',
      '7',
      '--offset',
      '21',
      '--json',
    ]);
    expect(viaMcp).toEqual(page);
    expect(viaCli.json()).toEqual(page);
    // The state contract's GET (no query) is the stored document, never a page: a PUT must be able to send it back.
    const whole = (await call(server.base, 'GET', '/v3/ops/handoffs')).json;
    expect(whole.handoffs).toHaveLength(30);
    expect(whole.total).toBeUndefined();
  });

  it('keeps refusing unknown fields on a paged list', async () => {
    const r = await call(server.base, 'GET', '/v3/ops/claims?limit=2&bogus=1');
    expect(r.status).toBe(400);
    expect(r.json.error.message).toContain('bogus');
  });
});
