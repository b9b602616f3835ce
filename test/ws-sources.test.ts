// project source sync and hub_workspace_discover. Hosted sources run against a loopback server of recorded
// GitHub responses (test/fixtures/provider-server.ts): the real API cannot be reached from this machine.
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

const TOKEN = 'ghp_sourcesFixtureToken_9f8e7d6c';
let dir: string;
let fx: ProviderFixture;

beforeAll(async () => {
  dir = createTempDir('hub-sources-');
  const remotes: Record<string, string> = {};
  for (const name of ['api', 'web', 'infra']) remotes[name] = makeUpstream(join(dir, 'hosts'), name).url;
  fx = await startProviderFixture({ token: TOKEN, remotes });
});

afterAll(async () => {
  await fx.close();
  removeTempDir(dir);
});

const MANIFEST_LOCAL = `# the team's workspace
workspace:
  name: t   # keep me
  projects:
    - name: web
      # vendored checkouts live in vendor/
      sources:
        - {provider: local, path: ./vendor}
      repos:
        - name: known
          path: ./vendor/known   # hand-written
    - name: other
      repos: []
`;

describe('local sources', () => {
  it('previews, then applies with every other line kept byte for byte', () => {
    const root = join(dir, 'local');
    for (const n of ['known', 'alpha', 'beta']) makeGitRepo(join(root, 'vendor', n), { 'f.txt': n });
    writeFileSync(join(root, '.hub.yml'), MANIFEST_LOCAL);
    const preview = runHub(['project', 'source', 'sync', '--project', 'web', '--json'], { cwd: root });
    expect(preview.code, preview.stderr).toBe(0);
    const p = preview.json();
    expect(p.applied).toBe(false);
    expect(p.plan.to_add.map((x: { name: string; path: string }) => `${x.name} ${x.path}`)).toEqual([
      'alpha ./vendor/alpha',
      'beta ./vendor/beta',
    ]);
    // The hand-written entry is recognised by its path and only gains its provenance.
    expect(p.plan.to_update).toMatchObject([{ name: 'known', changes: ['source'] }]);
    expect(readFileSync(join(root, '.hub.yml'), 'utf8')).toBe(MANIFEST_LOCAL);

    const applied = runHub(['project', 'source', 'sync', '--project', 'web', '--apply'], { cwd: root });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/applied: 2 to add, 1 to update, 0 to remove, 0 unchanged/);
    const text = readFileSync(join(root, '.hub.yml'), 'utf8');
    for (const line of MANIFEST_LOCAL.split('\n')) expect(text.split('\n')).toContain(line);
    expect(runHub(['config', 'validate'], { cwd: root }).code).toBe(0);
    const again = runHub(['project', 'source', 'sync', '--json'], { cwd: root }).json();
    expect(again.plan).toMatchObject({ to_add: [], to_update: [], to_remove: [] });
    expect(again.plan.unchanged).toHaveLength(3);
  });

  it('takes from_manifest as --from-manifest and --no-from-manifest, with help that reads the right way round', () => {
    const root = join(dir, 'flags');
    for (const n of ['known', 'alpha']) makeGitRepo(join(root, 'vendor', n), { 'f.txt': n });
    writeFileSync(join(root, '.hub.yml'), MANIFEST_LOCAL);
    const plain = runHub(['project', 'source', 'sync', '--project', 'web', '--json'], { cwd: root });
    const on = runHub(['project', 'source', 'sync', '--project', 'web', '--from-manifest', '--json'], {
      cwd: root,
    });
    expect(on.code, on.stderr).toBe(0);
    expect(on.json()).toEqual(plain.json());
    expect(on.json().sources).toHaveLength(1);
    // Off, the manifest's sources are not read: the one source to read is given instead.
    const source = JSON.stringify({ provider: 'local', path: './vendor' });
    const off = runHub(
      ['project', 'source', 'sync', '--project', 'web', '--no-from-manifest', '--source', source, '--json'],
      { cwd: root },
    );
    expect(off.code, off.stderr).toBe(0);
    expect(off.json().from_manifest).toBe(false);
    const missing = runHub(
      ['project', 'source', 'sync', '--project', 'web', '--no-from-manifest', '--json'],
      {
        cwd: root,
      },
    );
    expect(missing.code).toBe(1);
    expect(missing.json().error.message).toMatch(/from_manifest is false/);
    const help = runHub(['project', 'source', 'sync', '--help'], { cwd: root }).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/--from-manifest Sets from_manifest to true \(the default/);
    expect(help).toMatch(/--no-from-manifest Read only --source, not the manifest's sources/);
  });

  it('reports a source folder outside the workspace as an error of that source (exit 1), writing nothing', () => {
    const root = join(dir, 'outside');
    makeGitRepo(join(dir, 'elsewhere', 'x'), { 'f.txt': 'x' });
    const text =
      'workspace:\n  projects:\n    - name: p\n      sources:\n        - {provider: local, path: ../elsewhere}\n      repos: []\n';
    writeFileSync(join(createTempDirIn(root), '.hub.yml'), text);
    const r = runHub(['project', 'source', 'sync', '--apply', '--json'], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.json().errors[0]).toMatchObject({
      kind: 'source_path_inside_workspace',
      source: 'local-elsewhere',
    });
    expect(readFileSync(join(root, '.hub.yml'), 'utf8')).toBe(text);
  });

  it('rejects a source that names two namespaces, naming the field', () => {
    const root = join(dir, 'bad-source');
    writeFileSync(
      join(createTempDirIn(root), '.hub.yml'),
      'workspace:\n  projects:\n    - name: p\n      sources:\n        - {provider: github, org: a, user: b}\n      repos: []\n',
    );
    const r = runHub(['config', 'validate', '--json'], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/exactly one of org, user/);
  });
});

function createTempDirIn(root: string): string {
  makeGitRepo(root);
  return root;
}

describe('hosted sources (GitHub fixture)', () => {
  const env = () => ({ HUB_GITHUB_API_URL: fx.github, GITHUB_TOKEN: TOKEN });
  const manifest = (mode = 'additive') =>
    `workspace:\n  projects:\n    - name: acme\n      sources:\n        - {id: gh, provider: github, org: acme, mode: ${mode}}\n      repos: []\n`;

  it('adds what the organization lists (archived and forks filtered), then project sync --refresh-sources clones it', async () => {
    const root = join(dir, 'hosted');
    makeGitRepo(root);
    writeFileSync(join(root, '.hub.yml'), manifest());
    const preview = await runHubAsync(['project', 'source', 'sync', '--json'], { cwd: root, env: env() });
    expect(preview.code, preview.stderr).toBe(0);
    const p = preview.json();
    expect(p.sources).toMatchObject([
      { id: 'gh', provider: 'github', namespace: 'acme', discovered_count: 5, filtered_count: 2, pages: 2 },
    ]);
    expect(p.plan.to_add.map((x: { identity: string }) => x.identity)).toEqual([
      'github://acme/api',
      'github://acme/web',
      'github://acme/infra',
    ]);
    expect(JSON.stringify(p) + preview.stderr).not.toContain(TOKEN);

    const synced = await runHubAsync(['project', 'sync', '--refresh-sources', '--json'], {
      cwd: root,
      env: env(),
    });
    expect(synced.code, synced.stderr).toBe(0);
    const s = synced.json();
    expect(s.sources.applied).toBe(true);
    expect(s.counts).toMatchObject({ cloned: 3, failed: 0 });
    expect(existsSync(join(root, 'acme', 'infra', 'README.md'))).toBe(true);
    const text = readFileSync(join(root, '.hub.yml'), 'utf8');
    expect(text, text).toMatch(
      /source:\s*\n\s+id: gh\n\s+provider: github\n\s+namespace: acme\n\s+repo: api/,
    );
  });

  it('in reconcile mode removes entries of the source the host no longer lists (only from the manifest)', async () => {
    const root = join(dir, 'reconcile');
    makeGitRepo(root);
    writeFileSync(
      join(root, '.hub.yml'),
      manifest('reconcile').replace(
        'repos: []',
        'repos:\n        - name: gone\n          url: https://example.invalid/acme/gone.git\n          source: {id: gh, provider: github, namespace: acme, repo: gone}\n        - name: mine\n          url: https://example.invalid/me/mine.git',
      ),
    );
    const r = await runHubAsync(['project', 'source', 'sync', '--apply', '--json'], {
      cwd: root,
      env: env(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().plan.to_remove.map((x: { name: string }) => x.name)).toEqual(['gone']);
    const text = readFileSync(join(root, '.hub.yml'), 'utf8');
    expect(text).not.toMatch(/name: gone/);
    expect(text).toMatch(/name: mine/);
  });

  it('is the same over HTTP (POST /v3/ops/source-sync) and hub_workspace_discover lists the same repositories', async () => {
    const root = join(dir, 'surfaces');
    makeGitRepo(root);
    writeFileSync(join(root, '.hub.yml'), manifest());
    const cli = await runHubAsync(['project', 'source', 'sync', '--project-name', 'acme', '--json'], {
      cwd: root,
      env: env(),
    });
    let server: RunningServer | undefined;
    const mcp = await connectHub(root, [], env());
    try {
      server = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', ...env() } });
      const http = await call(server.base, 'POST', '/v3/ops/source-sync', {
        body: { project_name: 'acme', from_manifest: true, apply: false },
      });
      expect(http.status, http.text).toBe(200);
      expect(http.json).toEqual(cli.json());
      const discovered = await callJson(mcp, 'hub_workspace_discover', { project_name: 'acme' });
      expect(
        discovered.repos.map(
          (x: { identity: string; in_manifest: boolean }) => `${x.identity} ${x.in_manifest}`,
        ),
      ).toEqual(['github://acme/api false', 'github://acme/web false', 'github://acme/infra false']);
      const viaGet = await call(server.base, 'GET', '/v3/ops/discover?project_name=acme');
      expect(viaGet.json).toEqual(discovered);
    } finally {
      await mcp.close();
      await server?.close();
    }
  });

  it('the git sync job (POST /v3/ops/sync) takes project_name and refresh_sources; source-sync applies over HTTP', async () => {
    const root = join(dir, 'job');
    makeGitRepo(root);
    writeFileSync(
      join(root, '.hub.yml'),
      `${manifest()}    - name: mirror\n      sources:\n        - {id: gh, provider: github, org: acme}\n      repos: []\n`,
    );
    let server: RunningServer | undefined;
    try {
      server = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', ...env() } });
      const applied = await call(server.base, 'POST', '/v3/ops/source-sync', {
        body: { project_name: 'mirror', from_manifest: true, apply: true },
      });
      expect(applied.status, applied.text).toBe(200);
      expect(applied.json).toMatchObject({ applied: true, project: 'mirror' });
      expect(applied.json.plan.to_add.map((x: { project: string }) => x.project)).toEqual([
        'mirror',
        'mirror',
        'mirror',
      ]);
      const job = await call(server.base, 'POST', '/v3/ops/sync', {
        body: { project_name: 'acme', refresh_sources: true },
      });
      expect(job.status, job.text).toBe(200);
      expect(job.json).toMatchObject({ ok: true, project: 'acme', sources: { applied: true } });
      expect(job.json.counts).toMatchObject({ cloned: 3, failed: 0 });
      expect(existsSync(join(root, 'acme', 'web', 'README.md'))).toBe(true);
      // Only the named project: mirror's repositories are in the manifest but not cloned.
      expect(existsSync(join(root, 'mirror'))).toBe(false);
      const text = readFileSync(join(root, '.hub.yml'), 'utf8');
      expect(text.match(/repo: infra/g)).toHaveLength(2);
    } finally {
      await server?.close();
    }
  });

  it('reports bad credentials per source without printing the token', async () => {
    const root = join(dir, 'badtoken');
    makeGitRepo(root);
    writeFileSync(join(root, '.hub.yml'), manifest());
    const wrong = 'ghp_wrong_but_secret_1234';
    const r = await runHubAsync(['project', 'source', 'sync', '--json'], {
      cwd: root,
      env: { HUB_GITHUB_API_URL: fx.github, GITHUB_TOKEN: wrong },
    });
    expect(r.code).toBe(1);
    expect(r.json().errors[0]).toMatchObject({ source: 'gh', kind: 'provider_auth' });
    expect(r.stdout + r.stderr).not.toContain(wrong);
  });
});
