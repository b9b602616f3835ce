// Hostile input for branches, leases and agents (issue 12): ref-injection branch names and bases on every surface
// (`--name=-x`, `agent/../x`, `agent/a b`, `agent/x.lock`, a 10 KB name, a base that is an option), injection
// through the pattern's task id, document-name injection through agent ids, unknown repositories, a repository
// outside the workspace, and races (8 allocators of one name, 8 acquirers of one lease). A correct hub refuses the
// inputs, creates no ref for them, and leaves exactly one winner of each race.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = 'platform/identity';
const RACERS = 8;

/** Every local branch of the demo's identity repository. */
const refsOf = (root) =>
  execFileSync('git', ['for-each-ref', '--format=%(refname)', 'refs/heads/'], {
    cwd: join(root, 'platform', 'identity'),
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);

/** The judged verdict, unless a ref beyond the demo's own appeared (the attack made a branch). */
function noNewRef(before, root, judged) {
  const made = refsOf(root).filter((r) => !before.includes(r));
  return made.length ? { verdict: 'accepted', detail: `created ${made.join(', ').slice(0, 120)}` } : judged;
}

const allocateArgs = (manifest, extra) => [
  '-c',
  manifest,
  'branch',
  'allocate',
  '--repository',
  REPO,
  '--agent-id',
  'hostile',
  '--task-id',
  't1',
  ...extra,
];

const rpc = (id, name, args) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

/** A CLI case: `branch allocate` with `extra` arguments. */
const cliName = (label, extra) => ({
  name: `CLI branch allocate ${label}`,
  expect: 'refused',
  async run(kit) {
    const { root, manifestPath } = kit.demo();
    const before = refsOf(root);
    return noNewRef(before, root, kit.judgeCli(await kit.hub(allocateArgs(manifestPath, extra))));
  },
});

/** An HTTP case: POST /v3/ops/branches with `body`. */
const httpAllocate = (label, body, path = '/v3/ops/branches') => ({
  name: `HTTP ${label}`,
  expect: 'refused',
  async run(kit) {
    const { root } = kit.demo();
    const before = refsOf(root);
    const s = await kit.server(root);
    try {
      const r = await kit.request(s.base, 'POST', path, {
        body: { repository: REPO, agent_id: 'hostile', task_id: 't1', ...body },
      });
      return noNewRef(before, root, kit.judgeHttp(r));
    } finally {
      await s.close();
    }
  },
});

/** An MCP case: one tool call. */
const mcpCall = (label, tool, args) => ({
  name: `MCP ${label}`,
  expect: 'refused',
  async run(kit) {
    const { root } = kit.demo();
    const before = refsOf(root);
    const m = kit.mcp(root);
    try {
      await m.init();
      m.send(rpc(1, tool, args));
      return noNewRef(before, root, kit.judgeRpc(await m.next(20_000)));
    } finally {
      m.close();
    }
  },
});

/** Tallies a race: accepted when exactly one won and every other was refused cleanly (409). */
function tally(kind, judged, statuses) {
  const crash = judged.find((j) => j.verdict === 'crash');
  if (crash) return crash;
  const wins = judged.filter((j) => j.verdict === 'accepted').length;
  const unclean = judged.find((j) => j.verdict === 'unclean');
  if (unclean) return unclean;
  if (wins !== 1) return { verdict: 'unclean', detail: `${wins} of ${RACERS} ${kind} won` };
  if (statuses && statuses.filter((s) => s === 409).length !== RACERS - 1)
    return { verdict: 'unclean', detail: `refusals were ${statuses.join(',')}, not 409` };
  return { verdict: 'accepted', detail: `1 of ${RACERS} won, ${RACERS - 1} refused with the holder` };
}

export const cases = [
  {
    name: 'MCP hub_branch_allocate --repository self of a manifest below its git repository root (a monorepo; issue 25)',
    expect: 'refused',
    async run(kit) {
      const outer = kit.tempDir('hub-hostile-self-');
      const g = (args) =>
        execFileSync('git', ['-c', 'user.name=h', '-c', 'user.email=h@example.com', ...args], {
          cwd: outer,
          encoding: 'utf8',
        });
      g(['init', '-q', '-b', 'main']);
      g(['commit', '-q', '--allow-empty', '-m', 'root']);
      const ws = join(outer, 'tools', 'ws');
      mkdirSync(ws, { recursive: true });
      writeFileSync(join(ws, '.hub.yml'), 'workspace:\n  name: w\n  projects: []\n');
      const m = kit.mcp(ws);
      try {
        await m.init();
        const call = {
          name: 'hub_branch_allocate',
          arguments: { repository: 'self', agent_id: 'a1', task_id: 'T1' },
        };
        m.send(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: call })}\n`);
        const judged = kit.judgeRpc(await m.next(20_000));
        return g(['branch', '--list', 'agent/*']).trim()
          ? { verdict: 'accepted', detail: 'a branch was created in the outer repository' }
          : judged;
      } finally {
        m.close();
      }
    },
  },
  cliName('--name=-x (an option as a name)', ['--name=-x']),
  cliName('--name agent/x.lock', ['--name', 'agent/x.lock']),
  cliName('--base=--output=/tmp/x (an option as a base)', ['--base=--output=/tmp/hub-hostile-base']),
  cliName('--task-id with ../ through the pattern', ['--task-id', '../../x']),
  httpAllocate('branch name agent/../x', { name: 'agent/../x' }),
  httpAllocate('a 10 KB branch name', { name: `agent/${'x'.repeat(10 * 1024)}` }),
  httpAllocate('branch name agent/a@{-1}', { name: 'agent/a@{-1}' }),
  httpAllocate('branch name outside the allowed prefixes (refs/heads/main)', { name: 'refs/heads/main' }),
  httpAllocate(
    'lease acquire --allocate with branch agent/x\\u0000y',
    { allocate: true, branch: 'agent/x\u0000y' },
    '/v3/ops/leases',
  ),
  mcpCall('hub_branch_allocate with name agent/a b', 'hub_branch_allocate', {
    repository: REPO,
    agent_id: 'hostile',
    task_id: 't1',
    name: 'agent/a b',
  }),
  mcpCall('hub_lease_acquire with agent_id ../../etc/passwd (a document name)', 'hub_lease_acquire', {
    repository: REPO,
    agent_id: '../../etc/passwd',
    task_id: 't1',
  }),
  mcpCall('hub_branch_allocate with an unknown repository', 'hub_branch_allocate', {
    repository: 'platform/nope',
    agent_id: 'hostile',
    task_id: 't1',
  }),
  {
    name: 'CLI branch allocate in a repository outside the workspace (a symlinked repo folder)',
    expect: 'refused',
    async run(kit) {
      const base = kit.tempDir('hub-hostile-acl-');
      const outside = join(base, 'outside');
      mkdirSync(outside);
      execFileSync('git', ['init', '-q', outside]);
      execFileSync('git', [
        '-C',
        outside,
        '-c',
        'user.name=x',
        '-c',
        'user.email=x@x',
        'commit',
        '-q',
        '--allow-empty',
        '-m',
        'x',
      ]);
      const root = join(base, 'ws');
      mkdirSync(join(root, 'p'), { recursive: true });
      symlinkSync(outside, join(root, 'p', 'r'));
      const manifest = join(root, '.hub.yml');
      writeFileSync(
        manifest,
        'workspace:\n  name: w\n  projects:\n    - name: p\n      repos:\n        - name: r\n          path: ./p/r\n',
      );
      const r = await kit.hub([
        '-c',
        manifest,
        'branch',
        'allocate',
        '--repository',
        'p/r',
        '--agent-id',
        'a',
        '--task-id',
        't',
      ]);
      const heads = readdirSync(join(outside, '.git', 'refs', 'heads'));
      if (heads.includes('agent'))
        return { verdict: 'accepted', detail: 'a branch was created outside the workspace' };
      return kit.judgeCli(r);
    },
  },
  {
    name: `race: ${RACERS} CLI processes allocate one branch name`,
    expect: 'accepted',
    async run(kit) {
      const { manifestPath } = kit.demo();
      const runs = await Promise.all(
        Array.from({ length: RACERS }, (_, i) =>
          kit.hub([
            '-c',
            manifestPath,
            'branch',
            'allocate',
            '--repository',
            REPO,
            '--agent-id',
            `r${i}`,
            '--task-id',
            `t${i}`,
            '--name',
            'agent/race',
            '--json',
          ]),
        ),
      );
      return tally(
        'allocators',
        runs.map((r) => kit.judgeCli(r)),
      );
    },
  },
  {
    name: `race: ${RACERS} HTTP requests allocate one branch name`,
    expect: 'accepted',
    async run(kit) {
      const { root } = kit.demo();
      const s = await kit.server(root);
      try {
        const replies = await Promise.all(
          Array.from({ length: RACERS }, (_, i) =>
            kit.request(s.base, 'POST', '/v3/ops/branches', {
              body: { repository: REPO, agent_id: `r${i}`, task_id: `t${i}`, name: 'agent/race' },
            }),
          ),
        );
        const made = refsOf(root).filter((r) => r === 'refs/heads/agent/race').length;
        if (made !== 1) return { verdict: 'unclean', detail: `${made} git branches agent/race` };
        return tally(
          'allocators',
          replies.map((r) => kit.judgeHttp(r)),
          replies.filter((r) => r.status !== 200).map((r) => r.status),
        );
      } finally {
        await s.close();
      }
    },
  },
  {
    name: `race: ${RACERS} HTTP requests acquire one task's lease`,
    expect: 'accepted',
    async run(kit) {
      const { root } = kit.demo();
      const s = await kit.server(root);
      try {
        const replies = await Promise.all(
          Array.from({ length: RACERS }, (_, i) =>
            kit.request(s.base, 'POST', '/v3/ops/leases', {
              body: { repository: REPO, agent_id: `r${i}`, task_id: 'shared' },
            }),
          ),
        );
        return tally(
          'acquirers',
          replies.map((r) => kit.judgeHttp(r)),
          replies.filter((r) => r.status !== 200).map((r) => r.status),
        );
      } finally {
        await s.close();
      }
    },
  },
];
