import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, git, makeGitRepo, removeTempDir } from '../../test/fixtures/index.js';
import { runGit } from '../infra/index.js';
import { branchKind, originHead, parseStatusCounts } from './git-status.js';

let tmp: string;
let origin: string;
let clone: string;

const status = async (dir: string) =>
  parseStatusCounts((await runGit(['status', '--porcelain=v2', '--branch'], { cwd: dir })).stdout);

beforeAll(() => {
  tmp = createTempDir('hub-terrain-git-');
  origin = makeGitRepo(join(tmp, 'origin'), { 'a.txt': 'a\n', 'b.txt': 'b\n' });
  execFileSync('git', ['clone', '-q', origin, join(tmp, 'clone')]);
  clone = join(tmp, 'clone');
});
afterAll(() => removeTempDir(tmp));

describe('one porcelain v2 status gives branch, upstream distance, dirty counts and conflicts', () => {
  it('a clean clone: on its default branch, in sync with origin/main', async () => {
    expect(await status(clone)).toMatchObject({
      branch: 'main',
      upstream: 'origin/main',
      ahead: 0,
      behind: 0,
      entries: 0,
    });
    expect(originHead(clone)).toBe('main');
    expect(originHead(origin)).toBeUndefined();
  });

  it('counts staged, modified and untracked entries, and commits ahead and behind', async () => {
    git(clone, ['commit', '-q', '--allow-empty', '-m', 'local']);
    git(origin, ['commit', '-q', '--allow-empty', '-m', 'remote 1']);
    git(origin, ['commit', '-q', '--allow-empty', '-m', 'remote 2']);
    git(clone, ['fetch', '-q']);
    writeFileSync(join(clone, 'a.txt'), 'changed\n');
    writeFileSync(join(clone, 'b.txt'), 'staged\n');
    git(clone, ['add', 'b.txt']);
    writeFileSync(join(clone, 'new.txt'), 'x\n');
    expect(await status(clone)).toMatchObject({
      ahead: 1,
      behind: 2,
      entries: 3,
      staged: 1,
      modified: 1,
      untracked: 1,
      unmerged: 0,
    });
  });

  it('counts unmerged paths of a stopped merge as conflicts', async () => {
    const dir = makeGitRepo(join(tmp, 'conflict'), { 'f.txt': 'base\n' });
    git(dir, ['checkout', '-q', '-b', 'feature/x']);
    writeFileSync(join(dir, 'f.txt'), 'theirs\n');
    git(dir, ['commit', '-q', '-am', 'theirs']);
    git(dir, ['checkout', '-q', 'main']);
    writeFileSync(join(dir, 'f.txt'), 'ours\n');
    git(dir, ['commit', '-q', '-am', 'ours']);
    expect(() => git(dir, ['merge', '-q', 'feature/x'])).toThrow();
    const s = await status(dir);
    expect(s).toMatchObject({ branch: 'main', unmerged: 1, upstream: null, ahead: null, behind: null });
  });

  it('a detached head and an unborn branch', async () => {
    const dir = makeGitRepo(join(tmp, 'detached'), { 'f.txt': 'x\n' });
    git(dir, ['checkout', '-q', '--detach']);
    const d = await status(dir);
    expect(d.branch).toBeNull();
    expect(d.head).toMatch(/^[0-9a-f]{40}$/);
    const empty = makeGitRepo(join(tmp, 'empty'));
    expect(await status(empty)).toMatchObject({ branch: 'main', head: null });
  });
});

describe('branch kinds', () => {
  it('names default, develop, hotfix, feature, detached and other branches', () => {
    expect(branchKind('main', 'x', null)).toBe('default');
    expect(branchKind('trunk', 'x', 'trunk')).toBe('default');
    expect(branchKind('main', 'x', 'trunk')).toBe('other');
    expect(branchKind('develop', 'x', 'main')).toBe('develop');
    expect(branchKind('dev', 'x', 'main')).toBe('develop');
    expect(branchKind('hotfix-1.2', 'x', 'main')).toBe('hotfix');
    expect(branchKind('fix/login', 'x', 'main')).toBe('hotfix');
    expect(branchKind('feature/cart', 'x', 'main')).toBe('feature');
    expect(branchKind('feat/cart', 'x', 'main')).toBe('feature');
    expect(branchKind('alice/spike', 'x', 'main')).toBe('other');
    expect(branchKind(null, 'abc', 'main')).toBe('detached');
    expect(branchKind(null, null, 'main')).toBeNull();
  });
});
