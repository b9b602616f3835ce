// Task graphs and the scheduler on a hub server: concurrent writers through its routes and through the http state
// backend (each write applied on the server, atomically) lose nothing; racing agents get distinct nodes; an
// outline file named over HTTP or MCP must be a regular file inside the workspace.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createContext, invoke } from '../src/ops/index.js';
import { scheduleNextOp } from '../src/ops/schedule-ops.js';
import { taskBindAcl } from '../src/ops/task-bind-ops.js';
import { taskCreate, taskExpand } from '../src/ops/task-ops.js';
import { taskComplete } from '../src/ops/task-transition-ops.js';
import { createTempDir, git, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { connectHub } from './mcp-client.js';

let dir: string;
let server: { root: string; manifestPath: string };
let client: { root: string; manifestPath: string };
let srv: RunningServer;
let mcp: Client;

beforeAll(async () => {
  dir = createTempDir('hub-tasks-http-');
  server = createDemo(join(dir, 'server'));
  client = createDemo(join(dir, 'client'));
  srv = await startTestServer({ root: server.root });
  mcp = await connectHub(server.root);
});
afterAll(async () => {
  await mcp?.close();
  await srv?.close();
  removeTempDir(dir);
});

const post = async (path: string, body: Record<string, unknown>) => {
  const r = await call(srv.base, 'POST', path, { body });
  expect(r.status, r.text).toBe(200);
  return r.json;
};
const statuses = (graph: string) =>
  Object.fromEntries(
    (
      JSON.parse(readFileSync(join(server.root, '.hub', 'tasks', `${graph}.json`), 'utf8')).nodes as Array<{
        node_id: string;
        status: string;
      }>
    ).map((n) => [n.node_id, n.status]),
  );

/** A client whose state is the server (http backend): operations go to the server's routes. */
const httpCtx = () =>
  createContext({
    cwd: client.root,
    env: { HUB_CACHE_DIR: 'off', HUB_STATE_BACKEND: 'http', HUB_STATE_URL: srv.base },
    definition: client.manifestPath,
  });

describe('concurrent writers of one graph on a server', () => {
  it('through its routes: four completes and two expands at once lose nothing', async () => {
    await post('/v3/ops/tasks', { title: 'R', graph_id: 'routes', outline: 'a\nb\nc\nd\n' });
    await Promise.all([
      ...['a', 'b', 'c', 'd'].map((n) => post('/v3/ops/tasks/complete', { graph_id: 'routes', node_id: n })),
      ...['x', 'y'].map((t) => post('/v3/ops/tasks/expand', { graph_id: 'routes', outline: t })),
    ]);
    expect(statuses('routes')).toEqual({
      a: 'completed',
      b: 'completed',
      c: 'completed',
      d: 'completed',
      x: 'ready',
      y: 'ready',
    });
  });

  it('through the http backend: the same, each write applied where the graph is kept', async () => {
    await invoke(taskCreate, httpCtx(), { title: 'B', graph_id: 'backend', outline: 'a\nb\nc\nd\n' });
    await Promise.all([
      ...['a', 'b', 'c', 'd'].map((n) =>
        invoke(taskComplete, httpCtx(), { graph_id: 'backend', node_id: n }),
      ),
      ...['x', 'y'].map((t) => invoke(taskExpand, httpCtx(), { graph_id: 'backend', outline: t })),
    ]);
    expect(statuses('backend')).toEqual({
      a: 'completed',
      b: 'completed',
      c: 'completed',
      d: 'completed',
      x: 'ready',
      y: 'ready',
    });
  });

  it('five agents asking schedule next at once through the http backend get five distinct nodes', async () => {
    await invoke(taskCreate, httpCtx(), { title: 'S', graph_id: 'sched', outline: 'a\nb\nc\nd\ne\nf\ng\n' });
    const results = (await Promise.all(
      [0, 1, 2, 3, 4].map((i) => invoke(scheduleNextOp, httpCtx(), { agent_id: `h${i}`, graph_id: 'sched' })),
    )) as Array<{ decisions: Array<{ node_id: string }> }>;
    const picked = results.map((r) => r.decisions[0]!.node_id);
    expect(new Set(picked).size).toBe(5);
    expect(Object.values(statuses('sched')).filter((s) => s === 'running')).toHaveLength(5);
  });
});

describe('bind-acl through the http backend', () => {
  const branches = (root: string) => git(join(root, 'platform', 'identity'), ['branch', '--list', 'agent/*']);

  it('makes the branch and worktree in the client checkout and records lease, claim and binding on the server', async () => {
    await invoke(taskCreate, httpCtx(), {
      title: 'Bind',
      graph_id: 'bind',
      outline: JSON.stringify([
        { title: 'api', repository: 'platform/identity', patterns: ['services/**'] },
        { title: 'sdk', repository: 'platform/identity', patterns: ['packages/**'] },
      ]),
    });
    const r = (await invoke(taskBindAcl, httpCtx(), {
      graph_id: 'bind',
      node_id: 'api',
      agent_id: 'hb',
    })) as {
      bound: boolean;
      acl: { branch: string; lease_id: string; worktree_path: string; claim_ids: string[] };
    };
    expect(r.bound).toBe(true);
    expect(branches(client.root)).toContain('agent/bind.api');
    expect(branches(server.root)).toBe('');
    expect(r.acl.worktree_path.startsWith(client.root)).toBe(true);
    const node = JSON.parse(readFileSync(join(server.root, '.hub', 'tasks', 'bind.json'), 'utf8')).nodes[0];
    expect(node.acl).toMatchObject({ lease_id: r.acl.lease_id, claim_ids: r.acl.claim_ids });
    const leases = (await call(srv.base, 'GET', '/v3/ops/leases?agent_id=hb')).json.leases;
    expect(leases.map((l: { lease_id: string }) => l.lease_id)).toEqual([r.acl.lease_id]);
  });

  it('gives back lease, worktree and branch when the claim is refused on the server', async () => {
    await post('/v3/ops/claims', {
      repository: 'platform/identity',
      agent_id: 'other',
      patterns: ['packages/**'],
    });
    const e = await invoke(taskBindAcl, httpCtx(), {
      graph_id: 'bind',
      node_id: 'sdk',
      agent_id: 'hb2',
    }).catch((x: unknown) => x as { code: string; details: { step: string; released: string[] } });
    expect(e).toMatchObject({ code: 'refused', details: { step: 'claim' } });
    expect((e as { details: { released: string[] } }).details.released).toHaveLength(3);
    expect(branches(client.root)).not.toContain('agent/bind.sdk');
    const leases = (await call(srv.base, 'GET', '/v3/ops/leases?agent_id=hb2')).json.leases;
    expect(leases).toEqual([]);
    const node = JSON.parse(readFileSync(join(server.root, '.hub', 'tasks', 'bind.json'), 'utf8')).nodes[1];
    expect(node.acl).toBeUndefined();
  });
});

describe('outline files named over HTTP and MCP', () => {
  it('a symlink out of the workspace and a FIFO are refused; a file inside is read', async () => {
    const outside = createTempDir('hub-outline-out-');
    writeFileSync(join(outside, 'secret.txt'), 'secret line\n');
    mkdirSync(join(server.root, 'plans'), { recursive: true });
    symlinkSync(join(outside, 'secret.txt'), join(server.root, 'plans', 'link.txt'));
    execFileSync('mkfifo', [join(server.root, 'plans', 'pipe')]);
    writeFileSync(join(server.root, 'plans', 'ok.txt'), 'inside\n');
    await post('/v3/ops/tasks', { title: 'F', graph_id: 'files' });
    const link = await call(srv.base, 'POST', '/v3/ops/tasks/expand', {
      body: { graph_id: 'files', from_outline: 'plans/link.txt' },
    });
    expect(link.status).toBe(400);
    expect(link.json.error.details).toMatchObject({ field: 'from_outline', rule: 'inside_workspace' });
    const fifo = await call(srv.base, 'POST', '/v3/ops/tasks/expand', {
      body: { graph_id: 'files', from_outline: 'plans/pipe' },
    });
    expect(fifo.json.error.details).toMatchObject({ field: 'from_outline', rule: 'regular_file' });
    await expect(
      mcp.callTool({
        name: 'hub_task_expand',
        arguments: { graph_id: 'files', from_outline: 'plans/link.txt' },
      }),
    ).rejects.toMatchObject({ code: -32602 });
    const good = await post('/v3/ops/tasks/expand', { graph_id: 'files', from_outline: 'plans/ok.txt' });
    expect(good.created).toEqual(['inside']);
    expect(JSON.stringify(statuses('files'))).not.toContain('secret');
    removeTempDir(outside);
  });

  it('- (standard input) is for the CLI only', async () => {
    const r = await call(srv.base, 'POST', '/v3/ops/tasks/expand', {
      body: { graph_id: 'files', from_outline: '-' },
    });
    expect(r.json.error.details).toMatchObject({ field: 'from_outline', rule: 'cli_only' });
  });

  it('GET routes of tasks and the scheduler never write', async () => {
    const before = readFileSync(join(server.root, '.hub', 'tasks', 'files.json'), 'utf8');
    for (const path of [
      '/v3/ops/tasks',
      '/v3/ops/tasks/ready',
      '/v3/ops/tasks/status?graph_id=files',
      '/v3/ops/schedule/status',
      '/v3/ops/schedule/policy',
    ])
      expect((await call(srv.base, 'GET', path)).status, path).toBe(200);
    expect(readFileSync(join(server.root, '.hub', 'tasks', 'files.json'), 'utf8')).toBe(before);
  });
});
