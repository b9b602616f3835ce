// org index, org search, repo materialize. The hosts are a loopback server of recorded GitHub and GitLab
// responses (test/fixtures/provider-server.ts): the real APIs cannot be reached from this machine.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTempDir,
  makeGitRepo,
  makeUpstream,
  type ProviderFixture,
  removeTempDir,
  startProviderFixture,
} from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub } from './mcp-client.js';
import { runHub } from './run-hub.js';
import { runHubAsync } from './run-hub-async.js';

const TOKEN = 'glpat-orgFixtureToken-0a1b2c3d';
let dir: string;
let root: string;
let fx: ProviderFixture;
const env = () => ({
  HUB_GITHUB_API_URL: fx.github,
  HUB_GITLAB_API_URL: fx.gitlab,
  GITHUB_TOKEN: TOKEN,
  GITLAB_TOKEN: TOKEN,
});
const hub = (args: string[]) => runHubAsync([...args, '--json'], { cwd: root, env: env() });
const MANIFEST =
  '# team workspace\nworkspace:\n  projects:\n    - name: acme   # github org\n      repos: []\n';

beforeAll(async () => {
  dir = createTempDir('hub-org-');
  const remotes: Record<string, string> = {};
  for (const name of ['api', 'web', 'ledger']) remotes[name] = makeUpstream(join(dir, 'hosts'), name).url;
  fx = await startProviderFixture({ token: TOKEN, remotes });
  root = join(dir, 'ws');
  makeGitRepo(root);
  writeFileSync(join(root, '.hub.yml'), MANIFEST);
});

afterAll(async () => {
  await fx.close();
  removeTempDir(dir);
});

describe('org index', () => {
  it('stores what the host lists without cloning anything (known -> indexed)', async () => {
    const r = await hub(['org', 'index', 'github', 'acme']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({
      provider: 'github',
      namespace: 'acme',
      kind: 'org',
      repo_count: 5,
      added: 5,
      pages: 2,
      presence: { indexed: 5, materialized: 0 },
      file: '.hub/org/github/acme.json',
    });
    expect(existsSync(join(root, 'acme'))).toBe(false);
    const stored = readFileSync(join(root, '.hub', 'org', 'github', 'acme.json'), 'utf8');
    expect(stored).not.toContain(TOKEN);
    expect(readFileSync(join(root, '.hub.yml'), 'utf8')).toBe(MANIFEST);
    const again = await hub(['org', 'index', 'github', 'acme']);
    expect(again.json().added).toBe(0);
  });

  it('indexes a GitLab group with its subgroups', async () => {
    const r = await hub(['org', 'index', 'gitlab', 'acme/platform']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({
      kind: 'group',
      repo_count: 3,
      file: '.hub/org/gitlab/acme~platform.json',
    });
  });

  it('refuses an API root over plain http off loopback before any request', async () => {
    const r = await runHubAsync(['org', 'index', 'github', 'acme', '--json'], {
      cwd: root,
      env: { HUB_GITHUB_API_URL: 'http://api.example.com', GITHUB_TOKEN: TOKEN },
    });
    expect(r.code).toBe(1);
    expect(r.json().error.details).toMatchObject({ rule: 'provider_api_url', field: 'HUB_GITHUB_API_URL' });
  });
});

describe('org search', () => {
  const ids = (j: { repos: Array<{ identity: string }> }) => j.repos.map((x) => x.identity).sort();

  it('filters by language, topic, features, organization and staleness', async () => {
    expect(ids((await hub(['org', 'search', '--language', 'go'])).json())).toEqual([
      'github://acme/api',
      'github://acme/api-fork',
    ]);
    expect(ids((await hub(['org', 'search', '--topic', 'backend'])).json())).toEqual([
      'github://acme/api',
      'github://acme/infra',
    ]);
    expect(ids((await hub(['org', 'search', '--has', 'pages'])).json())).toEqual(['github://acme/web']);
    expect(ids((await hub(['org', 'search', 'terraform'])).json())).toEqual(['github://acme/infra']);
    expect(ids((await hub(['org', 'search', '--organization', 'acme/platform'])).json())).toEqual([
      'gitlab://acme/platform/core/ledger',
      'gitlab://acme/platform/old-tools',
      'gitlab://acme/platform/payments',
    ]);
    const stale = (await hub(['org', 'search', '--stale-days', '365', '--organization', 'acme'])).json();
    // organization acme also holds the GitLab group acme/platform and its subgroups.
    expect(ids(stale)).toEqual([
      'github://acme/api-fork',
      'github://acme/infra',
      'github://acme/legacy-billing',
      'gitlab://acme/platform/core/ledger',
      'gitlab://acme/platform/old-tools',
    ]);
    expect(stale.repos.every((x: { days_since_push: number }) => x.days_since_push >= 365)).toBe(true);
    const limited = (await hub(['org', 'search', '--limit', '2'])).json();
    expect(limited).toMatchObject({ total: 8, count: 2, limit: 2, offset: 0, next_offset: 2 });
  });

  it('pages: offset and next_offset walk every hit once, null after the last page', async () => {
    const all = (await hub(['org', 'search', '--limit', '1000'])).json();
    expect(all.next_offset).toBeNull();
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = (await hub(['org', 'search', '--limit', '3', '--offset', String(offset)])).json();
      expect(page.offset).toBe(offset);
      seen.push(...page.repos.map((x: { identity: string }) => x.identity));
      offset = page.next_offset;
    }
    expect(seen).toEqual(all.repos.map((x: { identity: string }) => x.identity));
    const past = (await hub(['org', 'search', '--offset', '50'])).json();
    expect(past).toMatchObject({ total: 8, count: 0, repos: [], next_offset: null });
  });

  it('answers the same over HTTP (GET /v3/ops/org/search, q or query) and MCP', async () => {
    const cli = (await hub(['org', 'search', 'api', '--language', 'Go'])).json();
    let server: RunningServer | undefined;
    const mcp = await connectHub(root, [], env());
    try {
      server = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', ...env() } });
      const viaQ = await call(server.base, 'GET', '/v3/ops/org/search?q=api&language=Go');
      const viaQuery = await call(server.base, 'GET', '/v3/ops/org/search?query=api&language=Go');
      expect(viaQ.status, viaQ.text).toBe(200);
      // Same index, same day: days_since_push agrees unless the run straddles midnight.
      expect(viaQ.json).toEqual(cli);
      expect(viaQuery.json).toEqual(cli);
      expect(await callJson(mcp, 'hub_org_search', { q: 'api', language: 'Go' })).toEqual(cli);
    } finally {
      await mcp.close();
      await server?.close();
    }
  });
});

describe('repo materialize', () => {
  it('clones an indexed repository and enrolls it; its identity stays and presence becomes materialized', async () => {
    const r = await hub(['repo', 'materialize', 'github://acme/api']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({
      operation: 'materialized',
      identity: 'github://acme/api',
      presence: 'materialized',
      local: 'acme/api',
      project_created: false,
    });
    expect(readFileSync(join(root, 'acme', 'api', 'README.md'), 'utf8')).toBe('# api\n');
    const text = readFileSync(join(root, '.hub.yml'), 'utf8');
    expect(text.startsWith('# team workspace\n')).toBe(true);
    expect(text).toContain('- name: acme   # github org');
    expect(runHub(['config', 'validate'], { cwd: root }).code).toBe(0);
    const hit = (await hub(['org', 'search', 'api', '--language', 'go'])).json().repos[0];
    expect(hit).toMatchObject({ identity: 'github://acme/api', presence: 'materialized', local: 'acme/api' });
    const again = await hub(['repo', 'materialize', 'acme/api']);
    expect(again.json()).toMatchObject({
      operation: 'noop',
      identity: 'github://acme/api',
      local: 'acme/api',
    });
  });

  it('creates the project named after the group when none holds its source', async () => {
    const r = await hub(['repo', 'materialize', 'acme/platform/core/ledger']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({
      local: 'core/ledger',
      project_created: true,
      identity: 'gitlab://acme/platform/core/ledger',
    });
    expect(existsSync(join(root, 'core', 'ledger', 'README.md'))).toBe(true);
  });

  it('refuses what is not indexed; a dry run clones and writes nothing', async () => {
    const miss = await hub(['repo', 'materialize', 'github://acme/nope']);
    expect(miss.code).toBe(1);
    expect(miss.json().error.details).toMatchObject({ rule: 'org_indexed' });
    const dry = await hub(['repo', 'materialize', 'web', '--dry-run']);
    expect(dry.json()).toMatchObject({
      operation: 'would_materialize',
      presence: 'indexed',
      local: 'acme/web',
    });
    expect(existsSync(join(root, 'acme', 'web'))).toBe(false);
  });
});

describe('materialize refuses names that are not names', () => {
  it.each([
    ['--project', '../outside'],
    ['--project', '.hub'],
    ['--project', 'a/b'],
    ['--name', '../../x'],
    ['--name', '.git'],
  ])('%s %s: refused before anything is cloned or written', async (flag, value) => {
    const before = readFileSync(join(root, '.hub.yml'), 'utf8');
    const r = await hub(['repo', 'materialize', 'github://acme/infra', flag, value]);
    expect(r.code, r.stdout).toBe(1);
    expect(r.json().error.details).toMatchObject({ field: flag.slice(2), value });
    expect(readFileSync(join(root, '.hub.yml'), 'utf8')).toBe(before);
    expect(existsSync(join(root, '.hub', 'infra'))).toBe(false);
    expect(existsSync(join(dir, 'outside'))).toBe(false);
  });
});

describe('org index and materialize on MCP and HTTP', () => {
  it('hub_org_index stores the same index; POST /v3/ops/org/materialize clones; hub_org_materialize is then a no-op', async () => {
    let server: RunningServer | undefined;
    const mcp = await connectHub(root, [], env());
    try {
      const indexed = await callJson(mcp, 'hub_org_index', { provider: 'github', org: 'acme' });
      expect(indexed).toMatchObject({ repo_count: 5, added: 0, file: '.hub/org/github/acme.json' });
      server = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', ...env() } });
      const viaHttp = await call(server.base, 'POST', '/v3/ops/org/materialize', {
        body: { repo: 'github://acme/web' },
      });
      expect(viaHttp.status, viaHttp.text).toBe(200);
      expect(viaHttp.json).toMatchObject({
        operation: 'materialized',
        identity: 'github://acme/web',
        local: 'acme/web',
      });
      expect(existsSync(join(root, 'acme', 'web', 'README.md'))).toBe(true);
      const again = await callJson(mcp, 'hub_org_materialize', { repo: 'acme/web' });
      expect(again).toMatchObject({ operation: 'noop', identity: 'github://acme/web', local: 'acme/web' });
    } finally {
      await mcp.close();
      await server?.close();
    }
  });
});
