import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runGit } from './git.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A folder of the workspace whose `.git` file points at a git dir that the workspace itself ships, configured to
 * run a command: what a shared or unpacked workspace (not a fresh clone) can hold.
 */
function plantedRepo(): { repo: string; marker: string } {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'hub-git-')));
  const store = join(dir, 'store.git');
  const repo = join(dir, 'evil');
  const marker = join(dir, 'ran');
  execFileSync('git', ['init', '-q', '--bare', store]);
  const cfg = (k: string, v: string) =>
    execFileSync('git', ['config', '--file', join(store, 'config'), k, v]);
  cfg('core.bare', 'false');
  cfg('core.worktree', '../evil');
  cfg('core.fsmonitor', `touch ${marker}; false`);
  mkdirSync(repo);
  writeFileSync(join(repo, '.git'), 'gitdir: ../store.git\n');
  return { repo, marker };
}

describe('runGit', () => {
  it('never runs a command a repository configures for itself (core.fsmonitor)', async () => {
    const { repo, marker } = plantedRepo();
    const r = await runGit(['status', '--porcelain'], { cwd: repo });
    expect(r.code).toBe(0);
    expect(existsSync(marker)).toBe(false);
  });

  it('keeps configuration the caller passes through the environment', async () => {
    const { repo } = plantedRepo();
    const r = await runGit(['config', '--get', 'hub.test'], {
      cwd: repo,
      env: {
        // biome-ignore lint/style/noProcessEnv: git must still be found on the PATH of the test.
        PATH: process.env.PATH,
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'hub.test',
        GIT_CONFIG_VALUE_0: 'kept',
      },
    });
    expect(r.stdout.trim()).toBe('kept');
  });

  it('refuses a bare repository it was not pointed at explicitly', async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'hub-git-')));
    execFileSync('git', ['init', '-q', '--bare', join(dir, 'inner')]);
    const r = await runGit(['rev-parse', '--git-dir'], { cwd: join(dir, 'inner') });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/bare repository/);
  });
});
