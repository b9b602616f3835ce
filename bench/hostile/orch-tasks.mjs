// Hostile input for task graphs and the scheduler (issue 13): huge outlines (bytes, items, nesting), dependency
// chains 10,000 deep (a recursive walk overflows) with and without a cycle closing them, cycles, graph and node ids
// with `/` or `..`, outline files that are a FIFO or a symlink out of the workspace (over HTTP and MCP), bind-acl
// with a branch that starts with `-`, and out-of-range scheduler input. A correct hub refuses the bad inputs
// cleanly (no hang, no crash, no ref made), and takes the deep chain.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const REPO = 'platform/identity';

const rpc = (id, name, args) =>
  `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } })}\n`;

/** Every local branch of the demo's identity repository. */
const refsOf = (root) =>
  execFileSync('git', ['for-each-ref', '--format=%(refname)', 'refs/heads/'], {
    cwd: join(root, 'platform', 'identity'),
    encoding: 'utf8',
  })
    .split('\n')
    .filter(Boolean);

/** A demo with graph `g` (one node `n` in platform/identity claiming services/**), for cases that need one. */
async function withGraph(kit) {
  const demo = kit.demo();
  const r = await kit.hub([
    '-c',
    demo.manifestPath,
    'task',
    'create',
    '--title',
    'G',
    '--graph-id',
    'g',
    '--outline',
    JSON.stringify([{ title: 'n', repository: REPO, patterns: ['services/**'] }]),
  ]);
  if (r.code !== 0) throw new Error(`setup failed: ${r.stderr}`);
  return demo;
}

/** A CLI case on a demo with graph `g`: `args` after `-c <manifest>`, `input` on stdin. */
const cli = (name, args, { input, expect = 'refused' } = {}) => ({
  name: `CLI ${name}`,
  expect,
  async run(kit) {
    const { root, manifestPath } = await withGraph(kit);
    const before = refsOf(root);
    const judged = kit.judgeCli(await kit.hub(['-c', manifestPath, ...args], { input, timeoutMs: 60_000 }));
    const made = refsOf(root).filter((r) => !before.includes(r));
    return made.length ? { verdict: 'accepted', detail: `created ${made.join(', ')}` } : judged;
  },
});

/** An HTTP case on a served demo with graph `g` (and `prepare(root)` run first). */
const http = (name, method, path, body, prepare = () => {}) => ({
  name: `HTTP ${name}`,
  expect: 'refused',
  async run(kit) {
    const { root } = await withGraph(kit);
    prepare(root, kit);
    const before = refsOf(root);
    const s = await kit.server(root);
    try {
      const judged = kit.judgeHttp(await kit.request(s.base, method, path, { body, timeoutMs: 30_000 }));
      if (!s.alive()) return { verdict: 'crash', detail: 'server died' };
      const made = refsOf(root).filter((r) => !before.includes(r));
      return made.length ? { verdict: 'accepted', detail: `created ${made.join(', ')}` } : judged;
    } finally {
      await s.close();
    }
  },
});

/** An MCP case: one tool call on a demo with graph `g`. */
const mcp = (name, tool, args, prepare = () => {}) => ({
  name: `MCP ${name}`,
  expect: 'refused',
  async run(kit) {
    const { root } = await withGraph(kit);
    prepare(root, kit);
    const m = kit.mcp(root);
    try {
      await m.init();
      m.send(rpc(1, tool, args));
      return kit.judgeRpc(await m.next(30_000));
    } finally {
      m.close();
    }
  },
});

/** `plans/link.txt` -> a file outside the workspace; `plans/pipe` a FIFO (a read would block forever). */
function plantFiles(root, kit) {
  const outside = kit.tempDir('hub-hostile-outline-');
  writeFileSync(join(outside, 'secret.txt'), 'a secret line\n');
  mkdirSync(join(root, 'plans'), { recursive: true });
  symlinkSync(join(outside, 'secret.txt'), join(root, 'plans', 'link.txt'));
  execFileSync('mkfifo', [join(root, 'plans', 'pipe')]);
}

const chain = (n, closed) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) => ({
      title: `step ${i}`,
      node_id: `s${i}`,
      depends_on: i === 0 ? (closed ? [`s${n - 1}`] : []) : [`s${i - 1}`],
    })),
  );

export const cases = [
  cli('task expand with a 3 MB outline on stdin', ['task', 'expand', '--graph-id', 'g'], {
    input: 'x'.repeat(3 * 1024 * 1024),
  }),
  cli('task expand with 10,001 outline lines', ['task', 'expand', '--graph-id', 'g'], {
    input: Array.from({ length: 10_001 }, (_, i) => `t${i}`).join('\n'),
  }),
  cli('task expand with JSON nested 100,000 deep', ['task', 'expand', '--graph-id', 'g'], {
    input: `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  }),
  cli(
    'task create with a dependency chain 10,000 deep (taken, no overflow)',
    ['task', 'create', '--title', 'deep', '--from-outline', '-'],
    {
      input: chain(10_000, false),
      expect: 'accepted',
    },
  ),
  cli(
    'task create with a 10,000-deep chain closed into a cycle',
    ['task', 'create', '--title', 'deep', '--from-outline', '-'],
    {
      input: chain(10_000, true),
    },
  ),
  cli('task expand with a node depending on itself', [
    'task',
    'expand',
    '--graph-id',
    'g',
    '--outline',
    '[{"title":"x","depends_on":["x"]}]',
  ]),
  cli('task create with graph id ../../etc', ['task', 'create', '--title', 'x', '--graph-id', '../../etc']),
  cli('task start with node id a/b', ['task', 'start', '--node-id', 'a/b', '--agent-id', 'h']),
  cli('task bind-acl with --branch=-x (an option as a branch)', [
    'task',
    'bind-acl',
    '--node-id',
    'n',
    '--agent-id',
    'h',
    '--branch=-x',
  ]),
  cli('task bind-acl --dry-run with --branch=--output=/tmp/x', [
    'task',
    'bind-acl',
    '--node-id',
    'n',
    '--agent-id',
    'h',
    '--branch=--output=/tmp/hub-hostile-x',
    '--dry-run',
  ]),
  cli('task bind-acl with agent id ../x (a document name)', [
    'task',
    'bind-acl',
    '--node-id',
    'n',
    '--agent-id',
    '../x',
  ]),
  http(
    'task expand with outline file that is a FIFO',
    'POST',
    '/v3/ops/tasks/expand',
    { graph_id: 'g', from_outline: 'plans/pipe' },
    plantFiles,
  ),
  http(
    'task expand with outline file symlinked out of the workspace',
    'POST',
    '/v3/ops/tasks/expand',
    { graph_id: 'g', from_outline: 'plans/link.txt' },
    plantFiles,
  ),
  http('task expand with from_outline /etc/passwd', 'POST', '/v3/ops/tasks/expand', {
    graph_id: 'g',
    from_outline: '/etc/passwd',
  }),
  http('task create with graph id a/b', 'POST', '/v3/ops/tasks', { title: 'x', graph_id: 'a/b' }),
  http('task expand with node id ..', 'POST', '/v3/ops/tasks/expand', {
    graph_id: 'g',
    outline: '[{"title":"x","node_id":".."}]',
  }),
  http('task expand with a cycle', 'POST', '/v3/ops/tasks/expand', {
    graph_id: 'g',
    outline: '[{"title":"a","depends_on":["b"]},{"title":"b","depends_on":["a"]}]',
  }),
  http('task bind-acl with branch -x', 'POST', '/v3/ops/tasks/bind-acl', {
    node_id: 'n',
    agent_id: 'h',
    branch: '-x',
  }),
  http('schedule next with limit 1000000000', 'POST', '/v3/ops/schedule/next', { agent_id: 'h', limit: 1e9 }),
  http('schedule policy set with a weight of 1e999', 'POST', '/v3/ops/schedule/policy', { cost: '1e999' }),
  mcp(
    'hub_task_expand with an outline file symlinked out of the workspace',
    'hub_task_expand',
    { graph_id: 'g', from_outline: 'plans/link.txt' },
    plantFiles,
  ),
  mcp(
    'hub_task_expand with an outline file that is a FIFO',
    'hub_task_expand',
    { graph_id: 'g', from_outline: 'plans/pipe' },
    plantFiles,
  ),
  mcp('hub_task_bind_acl with branch --upload-pack=x', 'hub_task_bind_acl', {
    node_id: 'n',
    agent_id: 'h',
    branch: '--upload-pack=x',
  }),
  mcp('hub_task_complete with graph id ..', 'hub_task_complete', { graph_id: '..', node_id: 'n' }),
];
