import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTempDir,
  git,
  makeGitRepo,
  pushCommit,
  removeTempDir,
  makeUpstream as upstream,
} from '../../test/fixtures/index.js';
import { Catalog, Checkouts } from '../catalog/index.js';
import { readManifestFile } from '../model/index.js';
import { planSync } from './sync-plan.js';
import { syncRepos } from './sync-repos.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeTempDir(d);
});

function workspace(root: string, repos: string): { catalog: Catalog; checkouts: Checkouts } {
  writeFileSync(
    join(root, '.hub.yml'),
    `workspace:\n  name: t\n  projects:\n    - name: p\n      repos:\n${repos}`,
  );
  const catalog = new Catalog(readManifestFile(join(root, '.hub.yml')));
  return { catalog, checkouts: new Checkouts(root) };
}

async function sync(root: string, repos: string, dryRun = false) {
  const { catalog, checkouts } = workspace(root, repos);
  const { targets, preset } = planSync(catalog.repos, checkouts);
  return syncRepos(targets, preset, { dryRun, concurrency: 4 });
}

describe('project sync', () => {
  it('clones url-only repositories, fast-forwards clean ones and reports what changed', async () => {
    const root = createTempDir('hub-sync-');
    dirs.push(root);
    const a = upstream(root, 'a');
    const b = upstream(root, 'b');
    const c = upstream(root, 'c');
    git(root, ['clone', '-q', b.url, join(root, 'p', 'b')]);
    git(root, ['clone', '-q', c.url, join(root, 'p', 'c')]);
    pushCommit(b, 'new.txt');
    const repos =
      `        - name: a\n          url: ${a.url}\n` +
      `        - name: b\n          url: ${b.url}\n` +
      `        - name: c\n          path: ./p/c\n`;
    const r = await sync(root, repos);
    const by = Object.fromEntries(r.repos.map((x) => [x.repo, x]));
    expect(by.a!.action).toBe('cloned');
    expect(readFileSync(join(root, 'p', 'a', 'README.md'), 'utf8')).toBe('# a\n');
    expect(by.b!.action).toBe('updated');
    expect(by.b!.from).toMatch(/^[0-9a-f]{7,}$/);
    expect(git(join(root, 'p', 'b'), ['rev-parse', 'HEAD'])).toBe(git(b.bare, ['rev-parse', 'main']));
    expect(git(join(root, 'p', 'b'), ['rev-parse', 'HEAD']).startsWith(by.b!.to!)).toBe(true);
    expect(by.c!.action).toBe('unchanged');
    expect(r.counts).toMatchObject({ cloned: 1, updated: 1, unchanged: 1, skipped: 0, failed: 0 });
  });

  it('never touches a dirty checkout: it is reported, its files and head stay', async () => {
    const root = createTempDir('hub-sync-');
    dirs.push(root);
    const a = upstream(root, 'a');
    const dir = join(root, 'p', 'a');
    git(root, ['clone', '-q', a.url, dir]);
    pushCommit(a, 'later.txt');
    writeFileSync(join(dir, 'README.md'), 'local edit\n');
    const head = git(dir, ['rev-parse', 'HEAD']);
    const r = await sync(root, `        - name: a\n          url: ${a.url}\n`);
    expect(r.repos[0]).toMatchObject({ action: 'skipped', reason: 'dirty', changes: 1 });
    expect(git(dir, ['rev-parse', 'HEAD'])).toBe(head);
    expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('local edit\n');
    // Not even fetched: the remote-tracking branch did not move.
    expect(git(dir, ['rev-parse', 'origin/main'])).toBe(head);
  });

  it('reports a diverged checkout as failed, with git reason, and leaves it as it was', async () => {
    const root = createTempDir('hub-sync-');
    dirs.push(root);
    const a = upstream(root, 'a');
    const dir = join(root, 'p', 'a');
    git(root, ['clone', '-q', a.url, dir]);
    pushCommit(a, 'theirs.txt');
    writeFileSync(join(dir, 'mine.txt'), 'mine\n');
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', 'mine']);
    const head = git(dir, ['rev-parse', 'HEAD']);
    const r = await sync(root, `        - name: a\n          path: ./p/a\n`);
    expect(r.repos[0]).toMatchObject({ action: 'failed', reason: 'not_fast_forward' });
    expect(r.repos[0]!.message).toMatch(/fast-forward/i);
    expect(git(dir, ['rev-parse', 'HEAD'])).toBe(head);
  });

  it('dry run decides without cloning or fetching', async () => {
    const root = createTempDir('hub-sync-');
    dirs.push(root);
    const a = upstream(root, 'a');
    const b = upstream(root, 'b');
    git(root, ['clone', '-q', b.url, join(root, 'p', 'b')]);
    pushCommit(b, 'x.txt');
    const before = git(join(root, 'p', 'b'), ['rev-parse', 'origin/main']);
    const r = await sync(
      root,
      `        - name: a\n          url: ${a.url}\n        - name: b\n          url: ${b.url}\n`,
      true,
    );
    expect(r.repos.map((x) => x.action)).toEqual(['would_clone', 'would_fetch']);
    expect(existsSync(join(root, 'p', 'a'))).toBe(false);
    expect(git(join(root, 'p', 'b'), ['rev-parse', 'origin/main'])).toBe(before);
  });

  it('refuses ext:: and other transports in the manifest before git runs', async () => {
    const root = createTempDir('hub-sync-');
    dirs.push(root);
    const marker = join(root, 'pwned');
    const r = await sync(root, `        - name: a\n          url: "ext::sh -c touch% ${marker}"\n`);
    expect(r.repos[0]).toMatchObject({ action: 'failed', reason: 'git_url_transport' });
    expect(r.repos[0]!.message).toMatch(/https, ssh .* git:\/\/ and file:\/\//);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(root, 'p', 'a'))).toBe(false);
  });

  it("refuses a checkout's own config that allows ext:: (the command line wins over it)", async () => {
    const root = createTempDir('hub-sync-');
    dirs.push(root);
    const dir = makeGitRepo(join(root, 'p', 'a'), { 'f.txt': 'x\n' });
    const marker = join(root, 'pwned');
    git(dir, ['config', 'protocol.ext.allow', 'always']);
    git(dir, ['remote', 'add', 'origin', `ext::sh -c touch% ${marker}`]);
    git(dir, ['config', 'branch.main.remote', 'origin']);
    git(dir, ['config', 'branch.main.merge', 'refs/heads/main']);
    const r = await sync(root, `        - name: a\n          path: ./p/a\n`);
    expect(r.repos[0]).toMatchObject({ action: 'failed', reason: 'fetch_failed' });
    expect(existsSync(marker)).toBe(false);
  });

  it('skips a repository outside the workspace without running git there', async () => {
    const root = createTempDir('hub-sync-');
    const outside = createTempDir('hub-sync-out-');
    dirs.push(root, outside);
    makeGitRepo(join(outside, 'x'), { 'f.txt': 'x\n' });
    const r = await sync(root, `        - name: x\n          path: ${join(outside, 'x')}\n`);
    expect(r.repos[0]).toMatchObject({ action: 'skipped', reason: 'outside_workspace' });
  });

  it('reports a checkout without an upstream and a missing path repository as skipped', async () => {
    const root = createTempDir('hub-sync-');
    dirs.push(root);
    makeGitRepo(join(root, 'p', 'local'), { 'f.txt': 'x\n' });
    const r = await sync(
      root,
      `        - name: local\n          path: ./p/local\n        - name: gone\n          path: ./p/gone\n`,
    );
    const by = Object.fromEntries(r.repos.map((x) => [x.repo, x]));
    expect(by.local).toMatchObject({ action: 'skipped', reason: 'no_upstream' });
    expect(by.gone).toMatchObject({ action: 'skipped', reason: 'no_locator' });
  });

  it('attributes each outcome when one checkout of a batch cannot fast-forward', async () => {
    const root = createTempDir('hub-sync-');
    dirs.push(root);
    const up = upstream(root, 'up');
    let repos = '';
    for (let i = 0; i < 12; i++) {
      git(root, ['clone', '-q', up.url, join(root, 'p', `r${i}`)]);
      repos += `        - name: r${i}\n          path: ./p/r${i}\n`;
    }
    const mine = join(root, 'p', 'r3');
    writeFileSync(join(mine, 'mine.txt'), 'mine\n');
    git(mine, ['add', '-A']);
    git(mine, ['commit', '-q', '-m', 'mine']);
    pushCommit(up, 'theirs.txt');
    const r = await sync(root, repos);
    const by = Object.fromEntries(r.repos.map((x) => [x.repo, x]));
    expect(by.r3).toMatchObject({ action: 'failed', reason: 'not_fast_forward' });
    for (const n of [0, 1, 2, 4, 9, 10, 11]) expect(by[`r${n}`]!.action, `r${n}`).toBe('updated');
    expect(r.counts).toMatchObject({ updated: 11, failed: 1 });
  });
});
