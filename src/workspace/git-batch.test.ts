import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, makeGitRepo, removeTempDir } from '../../test/fixtures/index.js';
import { splitBefore, splitRecords } from './git-batch.js';
import { repoGitState, repoGitStates } from './git-state.js';

let tmp: string;
const roots: string[] = [];

beforeAll(() => {
  tmp = createTempDir('hub-batch-');
  for (let i = 0; i < 7; i++) {
    const dir = makeGitRepo(join(tmp, `r${i}`), { 'a.txt': `${i}\n` });
    if (i % 3 === 0) writeFileSync(join(dir, 'dirty.txt'), 'x\n');
    roots.push(dir);
  }
  // A folder with a broken .git: git fails there, and a for-each-repo chunk stops at it.
  const broken = join(tmp, 'broken');
  mkdirSync(join(broken, '.git'), { recursive: true });
  roots.splice(3, 0, broken);
  roots.push(join(tmp, 'not-a-repo'));
});
afterAll(() => removeTempDir(tmp));

describe('batched git', () => {
  it('splits output into records', () => {
    expect(splitBefore('# a 1\nx\n# a 2\n', '# a ')).toEqual(['# a 1\nx', '# a 2\n']);
    expect(splitRecords('junk\nH1\nH2\nb', (l) => l.startsWith('H'))).toEqual(['H1', 'H2\nb']);
    expect(splitBefore('', '#')).toEqual([]);
  });

  it('gives every repository the state a single git status gives, also around a broken one', async () => {
    const batched = await repoGitStates(roots, { parallel: 2 });
    const single = await Promise.all(roots.map((r) => repoGitState(r, { headTime: false })));
    expect(batched).toEqual(single);
    const states = await repoGitStates(roots);
    expect(states[3]).toMatchObject({ is_git_repo: true });
    expect(states[3]!.error).toBeTruthy();
    expect(states[0]).toMatchObject({ branch: 'main', dirty: true, changes: 1 });
    expect(states[1]).toMatchObject({ dirty: false });
    expect(states[roots.length - 1]).toMatchObject({ is_git_repo: false });
  });
});
