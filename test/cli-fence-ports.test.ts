// The walk-throughs of docs/coordination.md and docs/orchestration.md, run with the real CLI: a stalled agent loses
// its lease and its stale merge is refused (stale_fence, exit 1, nothing moves); two worktrees of one repository
// get disjoint ports in a git-ignored .env.hub.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorkspace, git, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

function workspace() {
  const ws = buildWorkspace({
    projects: [{ name: 'shop', repos: [{ name: 'web', files: { 'README.md': '# web\n' } }] }],
  });
  temps.push(ws.root);
  const repo = ws.repoDirs['shop/web']!;
  // Integration lands in a branch nobody has checked out.
  git(repo, ['branch', 'integration']);
  const hub = (args: string[]) => runHub(args, { cwd: ws.root, env: { HUB_CACHE_DIR: 'off' } });
  return { ws, repo, hub };
}

describe('fenced leases, from the CLI', () => {
  it("shows fences, and refuses a stalled agent's merge once the task was leased again", () => {
    const { repo, hub } = workspace();
    const acquire = (agent: string) =>
      hub([
        'lease',
        'acquire',
        '--repository',
        'shop/web',
        '--agent-id',
        agent,
        '--task-id',
        'T-7',
        '--ttl',
        '30m',
      ]);
    const a = acquire('agent-a');
    expect(a.stdout).toMatch(/^acquired ls-\S+ \[active\] shop\/web task T-7 agent agent-a fence 1 until /);
    git(repo, ['checkout', '-q', '-b', 'agent/T-7-a']);
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    git(repo, ['add', 'a.txt']);
    git(repo, ['commit', '-q', '-m', 'a']);
    git(repo, ['checkout', '-q', 'main']);
    const enq = hub([
      'merge',
      'enqueue',
      '--repository',
      'shop/web',
      '--branch',
      'agent/T-7-a',
      '--into',
      'integration',
      '--agent-id',
      'agent-a',
      '--task-id',
      'T-7',
      '--json',
    ]);
    expect(enq.code, enq.stderr).toBe(0);
    const stale = enq.json().merge;
    expect(stale).toMatchObject({ task_id: 'T-7', fence: 1, agent_id: 'agent-a' });

    // agent-a stalls; its lease is released for it (aos recover, or its TTL runs out) and agent-b takes the task.
    expect(
      hub(['lease', 'release', '--repository', 'shop/web', '--agent-id', 'agent-a', '--task-id', 'T-7']).code,
    ).toBe(0);
    expect(acquire('agent-b').stdout).toContain('agent agent-b fence 2');
    const list = hub(['lease', 'list', '--repository', 'shop/web']);
    expect(list.stdout).toMatch(/FENCE/);
    expect(list.stdout).toMatch(/active\s+shop\/web\s+T-7\s+agent-b\s+2/);
    expect(hub(['merge', 'status', '--repository', 'shop/web']).stdout).toMatch(/FENCE[\s\S]*1 \(T-7\)/);
    expect(hub(['aos', 'status']).stdout).toMatch(/shop\/web task T-7: agent-b fence 2/);

    const before = git(repo, ['rev-parse', 'integration']);
    const refused = hub([
      'merge',
      'integrate',
      '--repository',
      'shop/web',
      '--merge-id',
      stale.merge_id,
      '--json',
    ]);
    expect(refused.code).toBe(1);
    const err = JSON.parse(refused.stderr || refused.stdout).error;
    expect(err).toMatchObject({
      code: 'refused',
      details: {
        rule: 'stale_fence',
        fence: 1,
        agent_id: 'agent-a',
        current: { agent_id: 'agent-b', fence: 2 },
      },
    });
    expect(err.message).toContain("agent 'agent-a' carries fence 1 of task 'T-7'");
    expect(err.message).toContain("leased to agent 'agent-b' with fence 2");
    expect(git(repo, ['rev-parse', 'integration'])).toBe(before);
  });
});

describe('worktree ports, from the CLI', () => {
  it('gives two worktrees of one repository their own ports in .env.hub', () => {
    const { ws, repo, hub } = workspace();
    writeFileSync(
      join(ws.root, 'hub.config.yaml'),
      [
        'coordination:',
        '  worktree:',
        '    ports: {count: 2, range: [4100, 4199]}',
        '    env:',
        "      DATABASE_URL: 'postgres://localhost/web_{task_id}'",
        "      PUBLIC_URL: 'http://localhost:{port_1}'",
        '',
      ].join('\n'),
    );
    const create = (agent: string, task: string) =>
      hub([
        'worktree',
        'create',
        '--repository',
        'shop/web',
        '--agent-id',
        agent,
        '--task-id',
        task,
        '--branch',
        `agent/${task}`,
        '--base',
        'main',
        '--json',
      ]);
    const one = create('agent-a', 'T-1');
    expect(one.code, one.stderr).toBe(0);
    const two = create('agent-b', 'T-2');
    expect(two.code, two.stderr).toBe(0);
    expect(one.json().ports).toEqual([4100, 4101]);
    expect(two.json().ports).toEqual([4102, 4103]);
    const env2 = readFileSync(join(two.json().worktree.path, '.env.hub'), 'utf8');
    expect(env2).toContain(
      'HUB_PORT_1=4102\nHUB_PORT_2=4103\nDATABASE_URL=postgres://localhost/web_T-2\nPUBLIC_URL=http://localhost:4102\n',
    );
    expect(git(two.json().worktree.path, ['status', '--porcelain'])).toBe('');
    const human = hub([
      'worktree',
      'create',
      '--repository',
      'shop/web',
      '--agent-id',
      'agent-c',
      '--task-id',
      'T-3',
      '--branch',
      'agent/T-3',
      '--base',
      'main',
    ]);
    expect(human.stdout).toContain('ports 4104, 4105');
    expect(hub(['worktree', 'list', '--repository', 'shop/web']).stdout).toMatch(
      /PORTS[\s\S]*agent\/T-3\s+4104,4105\s/,
    );
    // Destroy gives the ports back.
    expect(hub(['worktree', 'destroy', '--id', one.json().worktree.id]).code).toBe(0);
    expect(create('agent-d', 'T-4').json().ports).toEqual([4100, 4101]);
    expect(git(repo, ['status', '--porcelain'])).toBe('');
  });
});
