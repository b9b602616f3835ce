import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDir, git, makeGitRepo, removeTempDir } from './fixtures/index.js';
import { callJson, connectHub, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';

// `.hub.yml` in tools/ws of a monorepo: `--repository self` would be the whole monorepo, outside the workspace an
// agent was given (issue 25). Refused unless the user's own config allows that root.
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

function monorepo() {
  const outer = createTempDir('hub-self-outer-');
  temps.push(outer);
  makeGitRepo(outer, { 'README.md': '# monorepo\n' });
  const ws = join(outer, 'tools', 'ws');
  mkdirSync(ws, { recursive: true });
  writeFileSync(join(ws, '.hub.yml'), 'workspace:\n  name: w\n  projects: []\n');
  const branches = () => git(outer, ['branch', '--list', '--format=%(refname:short)']);
  return { outer, ws, branches };
}

describe('--repository self of a manifest below its git repository root', () => {
  it('an MCP agent given the workspace cannot move the outer repository’s branches', async () => {
    const { outer, ws, branches } = monorepo();
    const before = branches();
    const client = await connectHub(ws);
    try {
      const args = { repository: 'self', agent_id: 'a1', task_id: 'T1' };
      const err = await rpcError(client.callTool({ name: 'hub_branch_allocate', arguments: args }), -32000);
      expect(err.message).toContain(git(outer, ['rev-parse', '--show-toplevel']));
      expect(err.message).toContain('workspace.allowed_outside_paths');
      expect(branches()).toBe(before);
    } finally {
      await client.close();
    }
  });

  it('the CLI refuses the same, and the user may allow that root in their own config', async () => {
    const { outer, ws, branches } = monorepo();
    const before = branches();
    const args = [
      'branch',
      'allocate',
      '--repository',
      'self',
      '--agent-id',
      'a1',
      '--task-id',
      'T1',
      '--json',
    ];
    const r = runHub(args, { cwd: ws });
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({
      code: 'refused',
      details: { field: 'repository', rule: 'definition_repository_inside_workspace' },
    });
    expect(branches()).toBe(before);
    const ok = runHub(args, { cwd: ws, env: { HUB_ALLOWED_OUTSIDE_PATHS: outer } });
    expect(ok.code, ok.stderr).toBe(0);
    expect(branches()).toContain('agent/T1');
    const client = await connectHub(ws, [], { HUB_ALLOWED_OUTSIDE_PATHS: outer });
    try {
      const r2 = await callJson(client, 'hub_branch_allocate', {
        repository: 'self',
        agent_id: 'a2',
        task_id: 'T2',
      });
      expect(r2.allocation).toMatchObject({ name: 'agent/T2', repository: 'self' });
      expect(branches()).toContain('agent/T2');
    } finally {
      await client.close();
    }
  });
});
