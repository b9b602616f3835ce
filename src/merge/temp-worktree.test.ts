// Temporary merge worktrees made at once in one repository (a train's rows, the queue's integrators, other hub
// processes): git reads every worktree's admin folder when it adds one, and fails on one another git is still
// making ("failed to read .git/worktrees/<id>/commondir"). Every one must still be made.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDir, git, makeGitRepo, removeTempDir } from '../../test/fixtures/index.js';
import { headSha, withTempWorktree } from './git.js';

const run = promisify(execFile);
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

/** A repository of one commit, and an empty folder for the temporary worktrees. */
function repo() {
  const dir = createTempDir('hub-merge-wt-');
  temps.push(dir);
  const root = makeGitRepo(join(dir, 'repo'), { 'a.txt': 'a\n' });
  const tmpRoot = join(dir, 'tmp');
  mkdirSync(tmpRoot);
  return { dir, root, sha: git(root, ['rev-parse', 'HEAD']).trim(), tmpRoot };
}

describe('temporary merge worktrees', () => {
  it('are all made when many are made at once in one repository, and all removed after', async () => {
    const { root, sha, tmpRoot } = repo();
    const seen: string[] = [];
    for (let round = 0; round < 4; round++)
      await Promise.all(
        Array.from({ length: 12 }, () =>
          withTempWorktree(root, sha, tmpRoot, async (wt) => {
            seen.push(await headSha(wt));
            return wt;
          }),
        ),
      );
    expect(seen).toEqual(Array.from({ length: 48 }, () => sha));
    expect(git(root, ['worktree', 'list', '--porcelain']).match(/^worktree /gm)).toHaveLength(1);
    expect(readdirSync(tmpRoot)).toEqual([]);
  });

  it('are made while other git processes add and remove worktrees of the same repository', async () => {
    const { dir, root, sha, tmpRoot } = repo();
    // Another program's worktrees, made and removed over and over by git processes of their own.
    let running = true;
    let n = 0;
    const other = async () => {
      while (running) {
        const wt = join(dir, `other-${n++}`);
        await run('git', ['-C', root, 'worktree', 'add', '--detach', '--quiet', '--', wt, sha]).catch(
          () => {},
        );
        await run('git', ['-C', root, 'worktree', 'remove', '--force', '--', wt]).catch(() => {});
      }
    };
    const others = Array.from({ length: 4 }, other);
    const heads: string[] = [];
    try {
      for (let round = 0; round < 3; round++)
        heads.push(
          ...(await Promise.all(
            Array.from({ length: 6 }, () => withTempWorktree(root, sha, tmpRoot, async (wt) => headSha(wt))),
          )),
        );
    } finally {
      running = false;
      await Promise.all(others);
    }
    expect(n).toBeGreaterThan(4);
    expect(heads).toEqual(Array.from({ length: 18 }, () => sha));
  });
});
