import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo, type DemoResult } from '../examples/demo-workspace.mjs';
import { parseManifestText } from '../src/model/manifest-file.js';
import { createTempDir, git, removeTempDir } from './fixtures/index.js';

const SCRIPT = resolve(import.meta.dirname, '../examples/create-demo.mjs');
const APP_MANIFEST = resolve(import.meta.dirname, '../examples/application/.hub.yml');

describe('demo workspace', () => {
  let tmp: string;
  let demo: DemoResult;

  beforeAll(() => {
    tmp = createTempDir('hub-demo-');
    demo = createDemo(join(tmp, 'demo'));
  });
  afterAll(() => removeTempDir(tmp));

  const parse = () => parseManifestText(readFileSync(demo.manifestPath, 'utf8'), demo.manifestPath).manifest;

  it('writes a commented manifest that parses', () => {
    const text = readFileSync(demo.manifestPath, 'utf8');
    expect(text.startsWith('# ')).toBe(true);
    expect(text).not.toContain('yaml-language-server');
    expect(text.split('\n').filter((l) => l.trim().startsWith('#')).length).toBeGreaterThan(5);
    expect(() => parse()).not.toThrow();
  });

  it('declares the platform and storefront projects with six repos', () => {
    const projects = parse().workspace?.projects ?? [];
    expect(projects.map((p) => p.name)).toEqual(['platform', 'storefront']);
    const repos = projects.flatMap((p) => p.repos.map((r) => `${p.name}/${r.name}`));
    expect(repos).toEqual([
      'platform/identity',
      'platform/gateway',
      'platform/cloud-infra',
      'platform/legacy-billing',
      'storefront/web',
      'storefront/catalog',
    ]);
    expect(demo.repos.map((r) => `${r.project}/${r.name}`).sort()).toEqual([...repos].sort());
  });

  it('creates real repos with a history of 2-3 commits', () => {
    for (const repo of demo.repos.filter((r) => r.cloned)) {
      const dir = join(demo.root, repo.path!);
      const subjects = git(dir, ['log', '--format=%s']).split('\n');
      expect(subjects.length).toBeGreaterThanOrEqual(2);
      expect(subjects.length).toBeLessThanOrEqual(3);
      expect(subjects.length).toBe(repo.commits);
      expect(git(dir, ['status', '--porcelain'])).toBe('');
      expect(git(dir, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('main');
    }
  });

  it('declares legacy-billing by url only and does not clone it', () => {
    const platform = parse().workspace?.projects?.find((p) => p.name === 'platform');
    const billing = platform?.repos.find((r) => r.name === 'legacy-billing');
    expect(billing?.url).toBe('https://github.com/example/legacy-billing.git');
    expect(billing?.path).toBeUndefined();
    expect(existsSync(join(demo.root, 'platform/legacy-billing'))).toBe(false);
    expect(demo.repos.find((r) => r.name === 'legacy-billing')?.cloned).toBe(false);
  });

  it('has a directory for every catalogued component, and real marker files', () => {
    for (const project of parse().workspace?.projects ?? []) {
      for (const repo of project.repos) {
        if (!repo.path) continue;
        for (const c of repo.components ?? []) {
          expect(
            existsSync(join(demo.root, repo.path, c.path)),
            `${project.name}/${repo.name}/${c.name}`,
          ).toBe(true);
        }
      }
    }
    const markers = [
      'platform/identity/services/api/go.mod',
      'platform/identity/services/api/plugins/auth/go.mod',
      'platform/identity/packages/sdk/package.json',
      'platform/identity/helm/identity/Chart.yaml',
      'platform/gateway/services/gateway/Cargo.toml',
      'platform/cloud-infra/infra/network/main.tf',
      'platform/cloud-infra/infra/cluster/main.tf',
      'storefront/web/apps/storefront/package.json',
      'storefront/catalog/services/catalog/pyproject.toml',
    ];
    for (const m of markers) expect(existsSync(join(demo.root, m)), m).toBe(true);
    const pkg = JSON.parse(
      readFileSync(join(demo.root, 'storefront/web/apps/storefront/package.json'), 'utf8'),
    );
    expect(pkg.name).toBe('@example/storefront');
  });

  it('nests components and keeps depends_on inside the repo', () => {
    const repos = (parse().workspace?.projects ?? []).flatMap((p) => p.repos);
    const identity = repos.find((r) => r.name === 'identity')!;
    const paths = identity.components!.map((c) => c.path);
    expect(paths).toContain('services/api');
    expect(paths).toContain('services/api/plugins/auth');
    for (const repo of repos) {
      const names = new Set((repo.components ?? []).map((c) => c.name));
      for (const c of repo.components ?? [])
        for (const d of c.depends_on ?? []) expect(names.has(d)).toBe(true);
    }
  });

  it('leaves uncatalogued marker directories for component detect', () => {
    const repos = (parse().workspace?.projects ?? []).flatMap((p) => p.repos);
    const catalogued = (name: string) =>
      (repos.find((r) => r.name === name)?.components ?? []).map((c) => c.path);
    expect(existsSync(join(demo.root, 'storefront/web/packages/analytics/package.json'))).toBe(true);
    expect(catalogued('web')).not.toContain('packages/analytics');
    expect(existsSync(join(demo.root, 'platform/gateway/services/rate-limiter/Cargo.toml'))).toBe(true);
    expect(catalogued('gateway')).not.toContain('services/rate-limiter');
  });

  it('has agent profiles and graph relationships, one with a path-only endpoint', () => {
    const m = parse();
    expect(m.workspace?.agent_profile?.skills).toContain('code-review');
    expect(m.workspace?.agent_profile?.mcp).toContain('github');
    expect(m.workspace?.agent_profile?.rules).toContain('security/no-secrets');
    const rels = m.graph?.relationships ?? [];
    expect(rels.length).toBeGreaterThanOrEqual(3);
    expect(new Set(rels.map((r) => r.id)).size).toBe(rels.length);
    const pathOnly = rels.filter((r) => r.from.path !== undefined || r.to.path !== undefined);
    expect(pathOnly).toHaveLength(1);
    expect(pathOnly[0]?.from.component).toBeUndefined();
    expect(existsSync(join(demo.root, 'storefront/web', pathOnly[0]!.from.path!))).toBe(true);
  });
});

describe('create-demo.mjs', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = createTempDir('hub-demo-cli-');
  });
  afterAll(() => removeTempDir(tmp));

  it('prints the manifest path on stdout and progress on stderr', () => {
    const target = join(tmp, 'ws');
    const res = spawnSync(process.execPath, [SCRIPT, target], { encoding: 'utf8' });
    expect(res.status).toBe(0);
    expect(res.stdout.trim()).toBe(join(target, '.hub.yml'));
    expect(res.stderr).toContain('platform/identity');
    expect(existsSync(join(target, '.hub.yml'))).toBe(true);
  });

  it('refuses a non-empty target unless --force, which replaces it', () => {
    const target = join(tmp, 'busy');
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'keep.txt'), 'x');
    const refused = spawnSync(process.execPath, [SCRIPT, target], { encoding: 'utf8' });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('--force');
    expect(existsSync(join(target, 'keep.txt'))).toBe(true);

    const forced = spawnSync(process.execPath, [SCRIPT, target, '--force'], { encoding: 'utf8' });
    expect(forced.status).toBe(0);
    expect(existsSync(join(target, 'keep.txt'))).toBe(false);
    expect(existsSync(join(target, '.hub.yml'))).toBe(true);
  });

  it('npm start keeps a demo that is there, with what was done in it, and says so', () => {
    // The demo step of package.json's start script, run as npm runs it (from the checkout's folder).
    const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../package.json'), 'utf8'));
    const step = (pkg.scripts.start as string)
      .split('&&')
      .map((s) => s.trim())
      .find((s) => s.includes('examples/create-demo.mjs'));
    expect(step).toBeDefined();
    const [node, script, ...args] = step!.split(/\s+/);
    expect([node, script]).toEqual(['node', 'examples/create-demo.mjs']);
    const cwd = join(tmp, 'checkout');
    mkdirSync(cwd);
    const run = () => spawnSync(process.execPath, [SCRIPT, ...args], { cwd, encoding: 'utf8' });
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    const demo = join(cwd, '.demo');
    // What a tour leaves: a new file, a changed manifest, a commit.
    writeFileSync(join(demo, 'notes.txt'), 'mine\n');
    const manifest = `${readFileSync(join(demo, '.hub.yml'), 'utf8')}# my edit\n`;
    writeFileSync(join(demo, '.hub.yml'), manifest);
    const again = run();
    expect(again.status, again.stderr).toBe(0);
    expect(readFileSync(join(demo, 'notes.txt'), 'utf8')).toBe('mine\n');
    expect(readFileSync(join(demo, '.hub.yml'), 'utf8')).toBe(manifest);
    expect(again.stdout.trim()).toBe(join(realpathSync(demo), '.hub.yml'));
    expect(again.stderr).toMatch(/kept the demo workspace in .*\.demo/);
    expect(again.stderr).toContain('--force');
    // A folder of that name that is no demo (no .hub.yml) is refused, never replaced.
    const other = join(tmp, 'other');
    mkdirSync(join(other, '.demo'), { recursive: true });
    writeFileSync(join(other, '.demo', 'x.txt'), 'x');
    const refused = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: other, encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(existsSync(join(other, '.demo', 'x.txt'))).toBe(true);
  });

  it('rejects a missing target with a usage message', () => {
    const res = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('usage');
  });
});

describe('application manifest example', () => {
  it('parses, and its local paths exist', () => {
    const { manifest, root } = parseManifestText(readFileSync(APP_MANIFEST, 'utf8'), APP_MANIFEST);
    expect(manifest.kind).toBe('application');
    expect(manifest.name).toBe('checkout');
    const local = [...(manifest.paths ?? []), ...(manifest.components ?? [])].flatMap((c) =>
      'path' in c ? [c.path] : [],
    );
    expect(local.length).toBeGreaterThanOrEqual(3);
    for (const p of local) expect(existsSync(join(root, p)), p).toBe(true);
    const refs = (manifest.components ?? []).flatMap((c) => ('ref' in c ? [c.ref] : []));
    expect(refs).toContain('platform/identity');
  });
});
