import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, git, removeTempDir } from './fixtures/index.js';
import { serverEnv } from './mcp-client.js';
import { HUB_BIN, runHub } from './run-hub.js';

/**
 * From intent to a merged integration branch: three agents, each a process of its own talking to hub over MCP,
 * take a five-node graph across two repositories. One agent is killed mid-task and recovered; one merge conflicts
 * and is resolved through the conflict path; nobody's checkout is disturbed; the events tell the story.
 */
const AGENT = join(import.meta.dirname, 'fixtures', 'orch-agent.mjs');
const GRAPH = 'refresh';
const OUTLINE = [
  {
    node_id: 'token-api',
    title: 'Token refresh API',
    repository: 'platform/identity',
    patterns: ['services/api/token/**'],
    priority: 3,
  },
  {
    node_id: 'sdk-client',
    title: 'SDK client for refresh',
    repository: 'platform/identity',
    patterns: ['packages/sdk/refresh/**'],
    depends_on: ['token-api'],
  },
  {
    node_id: 'web-login',
    title: 'Storefront login flow',
    repository: 'storefront/web',
    patterns: ['apps/storefront/login/**'],
    priority: 2,
  },
  {
    node_id: 'web-refresh',
    title: 'Storefront uses refresh',
    repository: 'storefront/web',
    patterns: ['apps/storefront/session/**'],
    depends_on: ['sdk-client', 'web-login'],
  },
  {
    node_id: 'docs',
    title: 'Docs for refresh',
    repository: 'platform/identity',
    patterns: ['docs/refresh/**'],
    depends_on: ['token-api'],
  },
];

let dir: string;
let root: string;
const children: ChildProcess[] = [];

const hub = (...args: string[]) => {
  const r = runHub(['-c', join(root, '.hub.yml'), ...args, '--json']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json();
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** `aos doctor` exits 1 when it finds something to do (health warning or error) and 0 when health is ok. */
const doctorRun = () => {
  const r = runHub(['-c', join(root, '.hub.yml'), 'aos', 'doctor', '--json']);
  const report = r.json();
  expect(r.code, r.stdout + r.stderr).toBe(report.health === 'ok' ? 0 : 1);
  return report;
};

/** Starts an agent process; resolves its output lines as they come, and its exit. */
function agent(id: string, mode: 'work' | 'stall') {
  const child = spawn(process.execPath, [AGENT, HUB_BIN, root, id, GRAPH, 'integration', mode], {
    env: serverEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: string[] = [];
  let stderr = '';
  const waiters: Array<{ match: string; resolve: () => void }> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      lines.push(line);
      for (const w of waiters.filter((x) => line.includes(x.match))) w.resolve();
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    lines,
    stderr: () => stderr,
    exited,
    saw: (match: string) =>
      lines.some((l) => l.includes(match))
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ match, resolve })),
  };
}

const snapshot = (repo: string) => ({
  head: git(repo, ['rev-parse', 'HEAD']).trim(),
  branch: git(repo, ['rev-parse', '--abbrev-ref', 'HEAD']).trim(),
  status: git(repo, ['status', '--porcelain']),
});

beforeAll(() => {
  dir = createTempDir('hub-orch-');
  root = createDemo(join(dir, 'demo')).root;
});

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  removeTempDir(dir);
});

describe('orchestration end to end', () => {
  it('takes a five-node graph across two repositories from intent to a promoted integration branch', async () => {
    const identity = join(root, 'platform/identity');
    const web = join(root, 'storefront/web');
    writeFileSync(join(identity, 'CHANGES.md'), '# Changes\nlatest: none\n');
    git(identity, ['add', 'CHANGES.md']);
    git(identity, ['commit', '-q', '-m', 'changelog']);
    for (const repo of [identity, web]) {
      git(repo, ['branch', 'integration']);
      git(repo, ['branch', 'release']);
    }
    // A person's uncommitted edit in a main checkout: no merge may touch it.
    writeFileSync(join(web, 'WIP.txt'), 'not mine to commit\n');
    const before = { identity: snapshot(identity), web: snapshot(web) };

    writeFileSync(join(root, 'outline.json'), JSON.stringify(OUTLINE));
    const created = hub(
      'task',
      'create',
      '--title',
      'Token refresh',
      '--graph-id',
      GRAPH,
      '--goal',
      'Sessions renew without logging in again',
      '--from-outline',
      join(root, 'outline.json'),
    );
    expect(JSON.stringify(created)).toContain('web-login');

    // agent-c takes the most urgent task and dies holding it
    const c = agent('agent-c', 'stall');
    await c.saw('stalled');
    expect(c.lines.join('\n')).toContain('took token-api');
    c.child.kill('SIGKILL');
    await c.exited;
    await pause(2_500);

    const doctor = doctorRun();
    const codes = doctor.findings.map(
      (f: { code: string; subject?: string }) => `${f.code} ${f.subject ?? ''}`,
    );
    expect(codes).toEqual(
      expect.arrayContaining(['dead_agent_holdings agent-c', `stalled_task ${GRAPH}/token-api`]),
    );
    const recovered = hub('aos', 'recover');
    expect(recovered.agents).toHaveLength(1);
    expect(recovered.agents[0]).toMatchObject({
      agent_id: 'agent-c',
      worktrees: [{ action: 'removed' }],
      other: {
        tasks: [{ graph_id: GRAPH, node_id: 'token-api', status: 'ready' }],
        runs: [{ outcome: 'abandoned' }],
      },
    });
    expect(doctorRun().health).toBe('ok');

    // agent-a and agent-b finish the graph together
    const a = agent('agent-a', 'work');
    const b = agent('agent-b', 'work');
    const codesOut = await Promise.all([a.exited, b.exited]);
    const story = [...a.lines, ...b.lines].join('\n');
    expect(codesOut, `${story}\n${a.stderr()}${b.stderr()}`).toEqual([0, 0]);
    expect(story).toContain('conflict');

    const nodes = hub('task', 'list', '--graph-id', GRAPH).nodes as Array<{
      node_id: string;
      status: string;
    }>;
    expect(nodes.map((n) => n.status)).toEqual([
      'completed',
      'completed',
      'completed',
      'completed',
      'completed',
    ]);

    // promote each repository's integration branch into the release branch
    for (const repository of ['platform/identity', 'storefront/web']) {
      const merges = hub('merge', 'status', '--repository', repository, '--status', 'succeeded').merges;
      const last = merges[merges.length - 1];
      const promoted = hub('merge', 'promote', '--merge-id', last.merge_id, '--into', 'release');
      expect(promoted.merge.status).toBe('succeeded');
    }
    const tree = (repo: string) => git(repo, ['ls-tree', '-r', '--name-only', 'release']).split('\n');
    expect(tree(identity)).toEqual(
      expect.arrayContaining([
        'services/api/token/token-api.md',
        'packages/sdk/refresh/sdk-client.md',
        'docs/refresh/docs.md',
      ]),
    );
    expect(tree(web)).toEqual(
      expect.arrayContaining([
        'apps/storefront/login/web-login.md',
        'apps/storefront/session/web-refresh.md',
      ]),
    );
    // the conflict was resolved keeping both agents' words
    expect(git(identity, ['show', 'release:CHANGES.md'])).toBe('# Changes\nlatest: token-api, docs');

    // nobody's checkout moved: same branch, same commit, same working files (the person's WIP included)
    expect({ identity: snapshot(identity), web: snapshot(web) }).toEqual(before);

    // the ledger and the feed tell the story
    const runs = hub('run', 'list', '--limit', '100').runs as Array<{ outcome?: string; actor: string }>;
    expect(runs.filter((r) => r.outcome === 'landed')).toHaveLength(5);
    expect(runs.filter((r) => r.outcome === 'abandoned').map((r) => r.actor)).toEqual(['agent-c']);
    const events = hub('context', 'events').events as Array<{ source: string; kind: string }>;
    const kinds = new Set(events.map((e) => `${e.source}:${e.kind}`));
    for (const k of [
      'taskgraph:TaskGraphCreated',
      'scheduler:ScheduleDecision',
      'taskgraph:TaskBound',
      'run:RunOpened',
      'merge:MergeEnqueued',
      'merge:ConflictDetected',
      'merge:MergeSucceeded',
      'merge:MergePromoted',
      'taskgraph:TaskCompleted',
      'aos:AgentRecovered',
      'taskgraph:TaskRequeued',
      'acl:WorktreeDestroyed',
    ])
      expect(kinds, k).toContain(k);
    expect(doctorRun().findings).toEqual([]);
  });
});
