import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
let manifest: string;

beforeAll(() => {
  dir = createTempDir('hub-cli-');
  manifest = createDemo(join(dir, 'demo')).manifestPath;
});
afterAll(() => removeTempDir(dir));

describe('component commands on the demo workspace', () => {
  it('lists every component as {components:[...]} with three-segment ids', () => {
    const r = runHub(['-c', manifest, 'component', 'list', '--json']);
    expect(r.code).toBe(0);
    const ids = r.json().components.map((c: { id: string }) => c.id);
    expect(ids).toContain('platform/identity/auth-plugin');
    expect(ids.every((id: string) => id.split('/').length === 3)).toBe(true);
  });

  it('narrows list by project and rejects an unknown project', () => {
    const r = runHub(['-c', manifest, 'component', 'list', '--project', 'storefront', '--json']);
    expect(r.json().components.every((c: { project: string }) => c.project === 'storefront')).toBe(true);
    const bad = runHub(['-c', manifest, 'component', 'list', '--project', 'nope', '--json']);
    expect(bad.code).toBe(1);
    expect(bad.json().error.code).toBe('validation');
    expect(bad.json().error.message).toContain('nope');
  });

  it('resolves a nested path to the most specific component, from any directory', () => {
    const r = runHub(
      [
        '-c',
        manifest,
        'component',
        'resolve',
        'platform/identity/services/api/plugins/auth/main.go',
        '--json',
      ],
      { cwd: '/' },
    );
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      matched: true,
      id: 'platform/identity/auth-plugin',
      repository: 'platform/identity',
    });
  });

  it('resolves a repo-relative path with --project/--repo and returns matched:false on a miss with exit 0', () => {
    const hit = runHub([
      '-c',
      manifest,
      'component',
      'resolve',
      'services/api/handlers',
      '--project',
      'platform',
      '--repo',
      'identity',
      '--json',
    ]);
    expect(hit.json().id).toBe('platform/identity/api');
    const miss = runHub([
      '-c',
      manifest,
      'component',
      'resolve',
      'docs/readme.md',
      '--project',
      'platform',
      '--repo',
      'identity',
      '--json',
    ]);
    expect(miss.code).toBe(0);
    expect(miss.json()).toMatchObject({ matched: false, component: null });
  });

  it('refuses a path that lies in another repository than the filters', () => {
    const r = runHub([
      '-c',
      manifest,
      'component',
      'resolve',
      join(dir, 'demo/storefront/web/apps/storefront'),
      '--project',
      'platform',
      '--repo',
      'identity',
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.details.rule).toBe('cross_repo');
  });

  it('uses the working directory for relative paths when no definition is given', () => {
    const r = runHub(['component', 'resolve', '.', '--json'], {
      cwd: join(dir, 'demo/platform/gateway/services/gateway'),
    });
    expect(r.json().id).toBe('platform/gateway/gateway');
  });

  it('shows a component by name and by id; an ambiguous name lists candidates', () => {
    expect(
      runHub(['-c', manifest, 'component', 'show', 'platform/identity/api', '--json']).json().component.name,
    ).toBe('api');
    const dup = join(dir, 'dup.yml');
    writeFileSync(
      dup,
      'workspace:\n  projects:\n    - name: p\n      repos:\n        - name: a\n          url: https://x/a.git\n          components: [{name: api, path: api}]\n        - name: b\n          url: https://x/b.git\n          components: [{name: api, path: api}]\n',
    );
    const r = runHub(['-c', dup, 'component', 'show', 'api', '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({
      code: 'ambiguous',
      details: { candidates: ['p/a/api', 'p/b/api'] },
    });
  });

  it('graphs a neighbourhood with origins on every edge', () => {
    const r = runHub(['-c', manifest, 'component', 'graph', 'storefront', '--depth', '2', '--json']);
    const g = r.json();
    expect(g).toMatchObject({ origin: 'component:storefront/web/storefront', depth: 2, direction: 'both' });
    expect(g.edges.every((e: { origin: string }) => ['declared', 'depends_on'].includes(e.origin))).toBe(
      true,
    );
    expect(g.nodes.map((n: { id: string }) => n.id)).toContain('component:platform/identity/api');
    expect(runHub(['-c', manifest, 'component', 'graph', 'api', '--depth', '9', '--json']).json().depth).toBe(
      5,
    );
  });

  it('returns not_found for an unknown identity and exit 2 for a bad flag value', () => {
    const r = runHub(['-c', manifest, 'component', 'graph', 'platform/identity/nope', '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.code).toBe('not_found');
    expect(runHub(['-c', manifest, 'component', 'graph', 'api', '--direction', 'sideways']).code).toBe(2);
    expect(runHub(['-c', manifest, 'component', 'frobnicate']).code).toBe(2);
    expect(runHub(['-c', manifest, 'component', 'list', '--no-such-flag']).code).toBe(2);
  });

  it('detects without writing, then applies once and marks the new ones catalogued', () => {
    const before = readFileSync(manifest, 'utf8');
    const dry = runHub(['-c', manifest, 'component', 'detect', '--json']).json();
    expect(readFileSync(manifest, 'utf8')).toBe(before);
    const fresh = dry.candidates.filter((c: { already_catalogued: boolean }) => !c.already_catalogued);
    expect(fresh.map((c: { path: string }) => c.path).sort()).toEqual([
      'packages/analytics',
      'services/rate-limiter',
    ]);
    expect(dry.applied).toBe(false);
    const applied = runHub(['-c', manifest, 'component', 'detect', '--apply', '--json']).json();
    expect(applied.applied).toBe(true);
    const after = readFileSync(manifest, 'utf8');
    expect(after).toContain('services/rate-limiter');
    expect(after.split('\n')[0]).toBe(before.split('\n')[0]);
    // A second apply would write nothing: an error, never a silent success (issue 15).
    const again = runHub(['-c', manifest, 'component', 'detect', '--apply', '--json']);
    expect(again.code).toBe(1);
    expect(again.json().error.details.rule).toBe('nothing_to_apply');
    const dryAgain = runHub(['-c', manifest, 'component', 'detect', '--json']).json();
    expect(dryAgain.candidates.every((c: { already_catalogued: boolean }) => c.already_catalogued)).toBe(
      true,
    );
  });

  it('inits a component, refuses a second init of the same path and needs a scope', () => {
    const noScope = runHub(['-c', manifest, 'component', 'init', 'services/new-thing', '--json']);
    expect(noScope.json().error.message).toContain('--project and --repo');
    const args = [
      '-c',
      manifest,
      'component',
      'init',
      'packages/sdk/../tools/',
      '--project',
      'platform',
      '--repo',
      'identity',
    ];
    const draft = runHub([...args, '--json']).json();
    expect(draft).toMatchObject({
      applied: false,
      component: { name: 'tools', path: 'packages/tools', kind: 'package' },
    });
    // The folder must exist before --apply (config validate rejects a missing component directory).
    expect(runHub([...args, '--apply', '--json']).json().error.details.rule).toBe('missing_directory');
    mkdirSync(join(dirname(manifest), 'platform', 'identity', 'packages', 'tools'), { recursive: true });
    expect(runHub([...args, '--apply', '--json']).json().applied).toBe(true);
    const second = runHub([...args, '--apply', '--json']);
    expect(second.code).toBe(1);
    expect(second.json().error.message).toContain('already catalogued');
  });
});

describe('manifest cache', () => {
  it('serves the same answer from the cache and notices edits', () => {
    const cache = join(dir, 'cache');
    const m = join(dir, 'cached.yml');
    writeFileSync(
      m,
      'workspace:\n  projects:\n    - name: p\n      repos:\n        - name: r\n          url: https://x/r.git\n          components: [{name: one, path: one}]\n',
    );
    const env = { HUB_CACHE_DIR: cache };
    const first = runHub(['-c', m, 'component', 'list', '--json'], { env }).json();
    const second = runHub(['-c', m, 'component', 'list', '--json'], { env }).json();
    expect(second).toEqual(first);
    writeFileSync(m, readFileSync(m, 'utf8').replace('name: one, path: one', 'name: two, path: two'));
    const third = runHub(['-c', m, 'component', 'list', '--json'], { env }).json();
    expect(third.components[0].name).toBe('two');
  });
});
