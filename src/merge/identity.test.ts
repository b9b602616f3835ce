// The identity a merge commit gets: the user's where git config or the environment sets it, hub's fallback for
// whichever part is missing (one git call reads both keys).
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDir, git, makeGitRepo, removeTempDir } from '../../test/fixtures/index.js';
import { gitIdentity } from './git.js';

const dir = createTempDir('hub-identity-');
afterAll(() => removeTempDir(dir));

describe('gitIdentity', () => {
  it("keeps the repository's configured name and email, fills in neither", async () => {
    const root = makeGitRepo(join(dir, 'both'), { 'a.txt': 'a\n' });
    git(root, ['config', 'user.name', 'Ada']);
    git(root, ['config', 'user.email', 'ada@example.com']);
    expect(await gitIdentity(root, {})).toEqual([]);
  });

  it('an empty configured value counts as unset; the environment wins over config', async () => {
    const root = makeGitRepo(join(dir, 'empty'), { 'a.txt': 'a\n' });
    git(root, ['config', 'user.name', '']);
    git(root, ['config', 'user.email', 'ada@example.com']);
    expect(await gitIdentity(root, {})).toEqual(['-c', 'user.name=hub']);
    expect(await gitIdentity(root, { GIT_AUTHOR_NAME: 'A', GIT_COMMITTER_NAME: 'A' })).toEqual([]);
  });
});
