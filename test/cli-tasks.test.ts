// Task graphs and the scheduler through the real CLI on the demo workspace (real git): outlines from a file and
// stdin, refusals named, bind-acl really taking (and on failure giving back) branch, lease, worktree and claim,
// dry runs changing nothing, compile recording the pack, and racing CLI processes losing nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, git, hubAsync, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

let root: string;
let manifest: string;
beforeEach(() => {
  const dir = createTempDir('hub-cli-tasks-');
  temps.push(dir);
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
});

const hub = (args: string[], input?: string) =>
  runHub(['-c', manifest, ...args, '--json'], { input, cwd: root });
const ok = (args: string[], input?: string) => {
  const r = hub(args, input);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json();
};
const err = (args: string[], input?: string) => {
  const r = hub(args, input);
  expect(r.code, r.stdout).toBe(1);
  return r.json().error;
};
const graphDoc = (id: string) => JSON.parse(readFileSync(join(root, '.hub', 'tasks', `${id}.json`), 'utf8'));
const identity = () => join(root, 'platform', 'identity');
const heads = () => git(identity(), ['for-each-ref', '--format=%(refname)', 'refs/heads/']).split('\n');
const worktrees = () =>
  git(identity(), ['worktree', 'list', '--porcelain'])
    .split('\n')
    .filter((l) => l.startsWith('worktree '));

describe('task create and expand', () => {
  it('reads an outline from a file and from stdin, and lists what is ready', () => {
    writeFileSync(join(root, 'plan.txt'), '- Design\n  - Build\n    - Test\n  - Docs\n');
    const created = ok([
      'task',
      'create',
      '--title',
      'Login',
      '--graph-id',
      'login',
      '--from-outline',
      'plan.txt',
      '--repository',
      'platform/identity',
      '--goal',
      'Users log in',
      '--acceptance',
      'tests pass',
    ]);
    expect(created).toMatchObject({ created: ['design', 'build', 'test', 'docs'], ready: ['design'] });
    const more = ok(
      ['task', 'expand', '--graph-id', 'login'],
      JSON.stringify([{ title: 'Release', depends_on: ['test', 'docs'], priority: 5 }]),
    );
    expect(more.created).toEqual(['release']);
    expect(ok(['task', 'ready']).ready.map((n: { node_id: string }) => n.node_id)).toEqual(['design']);
    expect(graphDoc('login').nodes.find((n: { node_id: string }) => n.node_id === 'release')).toMatchObject({
      depends_on: ['test', 'docs'],
      priority: 5,
      status: 'pending',
    });
  });

  it('refuses a cycle naming it, an unknown repository with a suggestion, and writes nothing', () => {
    ok(['task', 'create', '--title', 'G', '--graph-id', 'g']);
    const before = readFileSync(join(root, '.hub', 'tasks', 'g.json'), 'utf8');
    const cyc = err([
      'task',
      'expand',
      '--graph-id',
      'g',
      '--outline',
      JSON.stringify([
        { title: 'a', depends_on: ['b'] },
        { title: 'b', depends_on: ['a'] },
      ]),
    ]);
    expect(cyc).toMatchObject({ code: 'validation', details: { rule: 'acyclic', cycle: ['a', 'b', 'a'] } });
    const repo = err([
      'task',
      'expand',
      '--graph-id',
      'g',
      '--outline',
      'x',
      '--repository',
      'platform/identiy',
    ]);
    expect(repo.code).toBe('not_found');
    expect(repo.message).toContain("did you mean 'identity'");
    expect(readFileSync(join(root, '.hub', 'tasks', 'g.json'), 'utf8')).toBe(before);
    const graph = err(['task', 'expand', '--graph-id', 'h', '--outline', 'x']);
    expect(graph.message).toContain("did you mean 'g'");
  });

  it('refuses an outline that is a FIFO (regular files only)', () => {
    const fifo = join(root, 'plan.fifo');
    execFileSync('mkfifo', [fifo]);
    ok(['task', 'create', '--title', 'G', '--graph-id', 'g']);
    expect(err(['task', 'expand', '--graph-id', 'g', '--from-outline', fifo])).toMatchObject({
      details: { field: 'from_outline', rule: 'regular_file' },
    });
  });
});

describe('task bind-acl', () => {
  const setup = () => {
    ok([
      'task',
      'create',
      '--title',
      'Login',
      '--graph-id',
      'login',
      '--repository',
      'platform/identity',
      '--outline',
      JSON.stringify([
        { title: 'API work', component: 'api' },
        { title: 'SDK', patterns: ['packages/sdk/**'] },
      ]),
    ]);
  };

  it('--dry-run prints the exact commands and changes nothing', () => {
    setup();
    const [h, w] = [heads(), worktrees()];
    const r = ok(['task', 'bind-acl', '--node-id', 'api-work', '--agent-id', 'a1', '--dry-run']);
    expect(r.plan.commands).toEqual([
      "hub lease acquire --repository platform/identity --agent-id a1 --task-id login.api-work --allocate --branch agent/login.api-work --description 'API work'",
      'hub worktree create --repository platform/identity --agent-id a1 --task-id login.api-work --branch agent/login.api-work',
      'hub claim declare --repository platform/identity --agent-id a1 --task-id login.api-work --component api',
    ]);
    expect([heads(), worktrees()]).toEqual([h, w]);
    expect(ok(['lease', 'list', '--agent-id', 'a1']).leases).toEqual([]);
    expect(graphDoc('login').nodes[0].acl).toBeUndefined();
  });

  it('really allocates the branch, takes the lease, makes the worktree, claims, and records it on the node', () => {
    setup();
    const r = ok(['task', 'bind-acl', '--node-id', 'api-work', '--agent-id', 'a1']);
    expect(r.bound).toBe(true);
    expect(heads()).toContain('refs/heads/agent/login.api-work');
    expect(existsSync(r.acl.worktree_path)).toBe(true);
    expect(git(r.acl.worktree_path, ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('agent/login.api-work');
    const claims = ok(['claim', 'list', '--agent-id', 'a1']).claims;
    expect(claims.map((c: { claim_id: string; patterns: string[] }) => [c.claim_id, c.patterns])).toEqual([
      [r.acl.claim_ids[0], ['services/api/**']],
    ]);
    expect(graphDoc('login').nodes[0]).toMatchObject({ agent_id: 'a1', acl: { lease_id: r.acl.lease_id } });
    // Again: the binding it has; another agent is refused naming the holder.
    expect(ok(['task', 'bind-acl', '--node-id', 'api-work', '--agent-id', 'a1']).bound).toBe(false);
    expect(err(['task', 'bind-acl', '--node-id', 'api-work', '--agent-id', 'a2'])).toMatchObject({
      code: 'refused',
      details: { rule: 'bound_to_other_agent', holder: { agent_id: 'a1' } },
    });
  });

  it('gives back what earlier steps took when the claim step fails, and names the step', () => {
    setup();
    ok([
      'claim',
      'declare',
      '--repository',
      'platform/identity',
      '--agent-id',
      'other',
      '--pattern',
      'packages/**',
    ]);
    const [h, w] = [heads(), worktrees()];
    const e = err(['task', 'bind-acl', '--node-id', 'sdk', '--agent-id', 'a1']);
    expect(e).toMatchObject({ code: 'refused', details: { step: 'claim' } });
    expect(e.message).toContain("step 'claim' failed");
    expect(e.details.released).toEqual([
      expect.stringMatching(/^worktree wt-/),
      expect.stringMatching(/^lease ls-/),
      'branch agent/login.sdk',
    ]);
    expect([heads(), worktrees()]).toEqual([h, w]);
    expect(ok(['lease', 'list', '--agent-id', 'a1']).leases).toEqual([]);
    expect(
      ok(['branch', 'list', '--agent-id', 'a1']).branches.every(
        (b: { status: string }) => b.status !== 'active',
      ),
    ).toBe(true);
    expect(graphDoc('login').nodes[1].acl).toBeUndefined();
  });

  it('refuses a node with nothing to claim, saying what to pass, and a branch that starts with -', () => {
    ok([
      'task',
      'create',
      '--title',
      'G',
      '--graph-id',
      'g',
      '--outline',
      'bare',
      '--repository',
      'platform/identity',
    ]);
    const none = err(['task', 'bind-acl', '--node-id', 'bare', '--agent-id', 'a1']);
    expect(none.message).toContain('pass --pattern <glob>');
    const dash = err([
      'task',
      'bind-acl',
      '--node-id',
      'bare',
      '--agent-id',
      'a1',
      '--pattern',
      'x/**',
      '--branch=-x',
    ]);
    expect(dash.details).toMatchObject({ field: 'branch' });
  });
});

describe('context compile for a task node', () => {
  it("uses the node's repository and budget, records the pack, and refuses unknown ids with a suggestion", () => {
    ok([
      'context',
      'objective',
      'set',
      '--id',
      'ship-login',
      '--title',
      'Ship login',
      '--acceptance',
      'SSO works',
    ]);
    expect(err(['task', 'create', '--title', 'X', '--objective-id', 'ship-logn']).message).toContain(
      "did you mean 'ship-login'",
    );
    ok([
      'task',
      'create',
      '--title',
      'Login',
      '--graph-id',
      'login',
      '--objective-id',
      'ship-login',
      '--outline',
      JSON.stringify([{ title: 'API work', repository: 'platform/identity', context_budget: 4000 }]),
    ]);
    const pack = ok(['context', 'compile', '--task-id', 'api-work']);
    expect(pack.max_tokens).toBe(4000);
    expect(pack.compiled_context).toMatchObject({ document: 'task-contexts/login~api-work', budget: 4000 });
    expect(pack.task).toMatchObject({
      graph_id: 'login',
      task_id: 'api-work',
      title: 'API work',
      graph: { title: 'Login' },
      objective: { id: 'ship-login', title: 'Ship login', acceptance: 'SSO works' },
    });
    expect(graphDoc('login').nodes[0].compiled_context.digest).toBe(pack.compiled_context.digest);
    expect(existsSync(join(root, '.hub', 'task-contexts', 'login~api-work.json'))).toBe(true);
    expect(err(['context', 'compile', '--task-id', 'api-wrk']).message).toContain("did you mean 'api-work'");
    expect(
      err(['context', 'compile', '--task-id', 'api-work', '--project', 'storefront']).details,
    ).toMatchObject({
      field: 'project',
      rule: 'node_repository',
    });
  });
});

describe('racing CLI processes (local backend)', () => {
  it('four agents asking schedule next at once get four distinct nodes', async () => {
    ok(['task', 'create', '--title', 'G', '--graph-id', 'g', '--outline', 'a\nb\nc\nd\ne\nf\n']);
    const runs = await Promise.all(
      [0, 1, 2, 3].map((i) => hubAsync(manifest, ['schedule', 'next', '--agent-id', `r${i}`, '--json'])),
    );
    const picked = runs.map((r) => {
      expect(r.code, r.out).toBe(0);
      return JSON.parse(r.out).decisions[0].node_id as string;
    });
    expect(new Set(picked).size).toBe(4);
    const running = graphDoc('g').nodes.filter((n: { status: string }) => n.status === 'running');
    expect(running).toHaveLength(4);
  });

  it('concurrent completes and expands of one graph lose nothing', async () => {
    ok(['task', 'create', '--title', 'G', '--graph-id', 'g', '--outline', 'a\nb\nc\nd\n']);
    const runs = await Promise.all([
      ...['a', 'b', 'c', 'd'].map((n) =>
        hubAsync(manifest, ['task', 'complete', '--graph-id', 'g', '--node-id', n]),
      ),
      ...['x', 'y'].map((t) => hubAsync(manifest, ['task', 'expand', '--graph-id', 'g', '--outline', t])),
    ]);
    for (const r of runs) expect(r.code, r.out).toBe(0);
    const nodes = graphDoc('g').nodes as Array<{ node_id: string; status: string }>;
    expect(Object.fromEntries(nodes.map((n) => [n.node_id, n.status]))).toEqual({
      a: 'completed',
      b: 'completed',
      c: 'completed',
      d: 'completed',
      x: 'ready',
      y: 'ready',
    });
  });
});

describe('outline files over a symlink', () => {
  it('the CLI follows a symlink the user named (the user may read what they can read)', () => {
    const outside = createTempDir('hub-outline-');
    temps.push(outside);
    writeFileSync(join(outside, 'plan.txt'), 'from outside\n');
    mkdirSync(join(root, 'plans'));
    symlinkSync(join(outside, 'plan.txt'), join(root, 'plans', 'plan.txt'));
    ok(['task', 'create', '--title', 'G', '--graph-id', 'g', '--from-outline', 'plans/plan.txt']);
    expect(graphDoc('g').nodes[0].title).toBe('from outside');
  });
});
