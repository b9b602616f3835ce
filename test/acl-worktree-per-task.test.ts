// coordination.worktree_per_task: every allocated task branch gets its worktree, by branch allocate and by lease
// acquire --allocate; with the setting off neither makes one.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, git, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let tmp: string;
beforeAll(() => {
  tmp = createTempDir('hub-wt-per-task-');
});
afterAll(() => removeTempDir(tmp));

function workspace(name: string, perTask: boolean) {
  const ws = buildWorkspace({
    root: join(tmp, name),
    projects: [{ name: 'p', repos: [{ name: 'r', files: { 'a.txt': 'a\n' } }] }],
  });
  writeFileSync(join(ws.root, 'hub.config.yaml'), `coordination:\n  worktree_per_task: ${perTask}\n`);
  const hub = (args: string[]) => runHub(['-c', ws.manifestPath, ...args, '--json']);
  return { ws, hub };
}

describe('coordination.worktree_per_task', () => {
  it('gives an allocated branch its worktree, on that branch', () => {
    const { ws, hub } = workspace('on', true);
    const r = hub(['branch', 'allocate', '--repository', 'p/r', '--agent-id', 'a1', '--task-id', 'T-1']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const wt = r.json().worktree;
    expect(wt).toMatchObject({ branch: 'agent/T-1', agent_id: 'a1', task_id: 'T-1' });
    expect(existsSync(wt.path)).toBe(true);
    expect(git(wt.path, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('agent/T-1');
    // Allocating again returns the same allocation and the same worktree.
    const again = hub(['branch', 'allocate', '--repository', 'p/r', '--agent-id', 'a1', '--task-id', 'T-1']);
    expect(again.json().worktree.id).toBe(wt.id);
    expect(hub(['worktree', 'list', '--repository', 'p/r']).json().worktrees).toHaveLength(1);
    expect(ws.root).toBeDefined();
  });

  it('gives lease acquire --allocate the worktree too', () => {
    const { hub } = workspace('lease', true);
    const r = hub([
      'lease',
      'acquire',
      '--repository',
      'p/r',
      '--agent-id',
      'a2',
      '--task-id',
      'T-2',
      '--allocate',
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json().worktree).toMatchObject({ branch: 'agent/T-2', agent_id: 'a2' });
  });

  it('makes none when the setting is off', () => {
    const { hub } = workspace('off', false);
    const r = hub(['branch', 'allocate', '--repository', 'p/r', '--agent-id', 'a1', '--task-id', 'T-3']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json().worktree).toBeUndefined();
    expect(hub(['worktree', 'list']).json().worktrees).toEqual([]);
  });
});
