import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, git, makeGitRepo, makeUpstream, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;
let outside: string;
const env = { HUB_WORKSPACE_WORKTREES_PATH: 'web/worktrees' };

beforeAll(() => {
  dir = createTempDir('hub-prune-');
  root = join(dir, 'ws');
  outside = join(dir, 'outside');
  makeGitRepo(join(outside, 'keep'), { 'precious.txt': 'mine\n' });
  const up = makeUpstream(dir, 'up');
  const web = join(root, 'web');
  git(dir, ['clone', '-q', up.url, join(web, 'a')]);
  makeGitRepo(join(web, 'group', 'inner'), { 'f.txt': 'x' });
  for (const n of ['old-clean', 'old-dirty', 'old-unpushed', '.hidden-clone'])
    git(dir, ['clone', '-q', up.url, join(web, n)]);
  writeFileSync(join(web, 'old-dirty', 'README.md'), 'edited\n');
  writeFileSync(join(web, 'old-unpushed', 'new.txt'), 'n\n');
  git(join(web, 'old-unpushed'), ['add', '-A']);
  git(join(web, 'old-unpushed'), ['commit', '-q', '-m', 'local only']);
  mkdirSync(join(web, 'notes'));
  writeFileSync(join(web, 'notes', 'todo.md'), 'keep?\n');
  mkdirSync(join(web, 'worktrees', 'agent'), { recursive: true });
  symlinkSync(join(outside, 'keep'), join(web, 'link-out'));
  symlinkSync(join(web, 'a'), join(web, 'link-managed'));
  writeFileSync(
    join(root, '.hub.yml'),
    `workspace:\n  projects:\n    - name: web\n      repos:\n        - {name: a, url: "${up.url}"}\n        - {name: inner, path: ./web/group/inner}\n`,
  );
});

afterAll(() => removeTempDir(dir));

const prune = (...args: string[]) =>
  runHub(['project', 'repo', 'prune', ...args, '--json'], { cwd: root, env });
const byPath = (j: { folders: Array<{ path: string; action: string }> }) =>
  Object.fromEntries(j.folders.map((f) => [f.path, f]));

describe('hub project repo prune', () => {
  it('dry run lists what would go and what is kept, and removes nothing', () => {
    const r = prune('--dry-run');
    expect(r.code, r.stderr).toBe(0);
    const f = byPath(r.json());
    expect(Object.keys(f).sort()).toEqual([
      'web/link-out',
      'web/notes',
      'web/old-clean',
      'web/old-dirty',
      'web/old-unpushed',
      'web/worktrees',
    ]);
    expect(f['web/old-clean']).toMatchObject({ action: 'would_remove', kind: 'checkout' });
    expect(f['web/link-out']).toMatchObject({ action: 'would_remove', kind: 'symlink' });
    expect(f['web/old-dirty']).toMatchObject({ action: 'skipped', reason: 'dirty' });
    expect(f['web/old-unpushed']).toMatchObject({ action: 'skipped', reason: 'dirty' });
    expect(JSON.stringify(f['web/old-unpushed'])).toMatch(/unpushed_commits/);
    expect(f['web/notes']).toMatchObject({ action: 'skipped', reason: 'not_a_git_checkout' });
    expect(f['web/worktrees']).toMatchObject({ action: 'skipped', reason: 'protected' });
    expect(existsSync(join(root, 'web', 'old-clean'))).toBe(true);
  });

  it('removes clean unmanaged checkouts and links (never their targets), keeping dirty ones', () => {
    const r = prune();
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().counts).toMatchObject({ removed: 2, skipped: 4 });
    expect(existsSync(join(root, 'web', 'old-clean'))).toBe(false);
    expect(existsSync(join(root, 'web', 'link-out'))).toBe(false);
    expect(existsSync(join(outside, 'keep', 'precious.txt'))).toBe(true);
    for (const kept of [
      'old-dirty',
      'old-unpushed',
      'notes',
      '.hidden-clone',
      'a',
      'group/inner',
      'link-managed',
    ])
      expect(existsSync(join(root, 'web', kept)), kept).toBe(true);
  });

  it('--force removes dirty checkouts and plain folders, never the worktrees folder or managed ones; --include-hidden sees dot-folders', () => {
    const r = prune('--force', '--include-hidden');
    expect(r.code, r.stderr).toBe(0);
    const f = byPath(r.json());
    expect(f['web/old-dirty']!.action).toBe('removed');
    expect(f['web/.hidden-clone']!.action).toBe('removed');
    expect(f['web/worktrees']).toMatchObject({ action: 'skipped', reason: 'protected' });
    expect(existsSync(join(root, 'web', 'worktrees', 'agent'))).toBe(true);
    expect(existsSync(join(root, 'web', 'a', 'README.md'))).toBe(true);
    expect(existsSync(join(root, 'web', 'group', 'inner', 'f.txt'))).toBe(true);
    expect(existsSync(join(root, '.hub.yml'))).toBe(true);
  });
});

describe('prune scope', () => {
  it('takes a declared project without repositories (all of its folder is unmanaged); refuses an unknown one', () => {
    const ws = join(dir, 'empty-project');
    makeGitRepo(ws);
    makeGitRepo(join(ws, 'fresh', 'leftover'), { 'f.txt': 'x\n' });
    writeFileSync(join(ws, '.hub.yml'), 'workspace:\n  projects:\n    - name: fresh\n      repos: []\n');
    const r = runHub(['project', 'repo', 'prune', '--dry-run', '--project', 'fresh', '--json'], { cwd: ws });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().folders).toMatchObject([{ path: 'fresh/leftover', action: 'would_remove' }]);
    const miss = runHub(['project', 'repo', 'prune', '--dry-run', '--project', 'frsh', '--json'], {
      cwd: ws,
    });
    expect(miss.code).toBe(1);
    expect(miss.json().error.details).toMatchObject({ field: 'project', value: 'frsh' });
  });
});
