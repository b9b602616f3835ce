import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

  it('goes on after a broken repository without running its whole chunk again', async () => {
    // A git first on PATH that logs each call: how many processes the batch took.
    const shim = join(tmp, 'shim');
    const log = join(tmp, 'calls.log');
    mkdirSync(shim, { recursive: true });
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    writeFileSync(join(shim, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`, {
      mode: 0o755,
    });
    const chunk = roots.slice(0, 8); // index 3 is the broken one
    const single = await Promise.all(chunk.map((r) => repoGitState(r, { headTime: false })));
    // biome-ignore lint/style/noProcessEnv: the logging git must come first on the PATH the batch runs with.
    vi.stubEnv('PATH', `${shim}:${process.env.PATH}`);
    try {
      rmSync(log, { force: true });
      const batched = await repoGitStates(chunk, { parallel: 1, batchSize: chunk.length });
      expect(batched).toEqual(single);
      // for-each-repo up to the broken one, its last record again alone, the broken one alone, the rest: 5, not 1 + 8.
      expect(readFileSync(log, 'utf8').trim().split('\n')).toHaveLength(5);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
