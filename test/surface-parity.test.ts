import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, git, makeGitRepo, removeTempDir, writeOrgIndex } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';

/**
 * One operation, every surface: the same input gives the same result on the CLI (`--json`), the MCP tool and
 * the HTTP route, against one workspace.
 */
interface Case {
  name: string;
  cli: string[];
  tool: string;
  args: Record<string, unknown>;
  http: { method: string; path: string; body?: unknown };
}

const CASES: Case[] = [
  {
    name: 'component list',
    cli: ['component', 'list', '--project', 'platform'],
    tool: 'hub_component_list',
    args: { project: 'platform' },
    http: { method: 'GET', path: '/v3/ops/components?project=platform' },
  },
  {
    name: 'component list (one page)',
    cli: ['component', 'list', '--limit', '3', '--offset', '2'],
    tool: 'hub_component_list',
    args: { limit: 3, offset: 2 },
    http: { method: 'GET', path: '/v3/ops/components?limit=3&offset=2' },
  },
  {
    name: 'workspace repo list (one page)',
    cli: ['workspace', 'repo', 'list', '--project', 'platform', '--limit', '2', '--offset', '1'],
    tool: 'hub_workspace_repos_list',
    args: { project: 'platform', limit: 2, offset: 1 },
    http: { method: 'GET', path: '/v2/workspace/repos?project=platform&limit=2&offset=1' },
  },
  {
    name: 'component resolve',
    cli: [
      'component',
      'resolve',
      'services/api/plugins/auth/x.go',
      '--project',
      'platform',
      '--repo',
      'identity',
    ],
    tool: 'hub_component_resolve',
    args: { path: 'services/api/plugins/auth/x.go', project: 'platform', repo: 'identity' },
    http: {
      method: 'GET',
      path: '/v3/ops/components/resolve?path=services/api/plugins/auth/x.go&project=platform&repo=identity',
    },
  },
  {
    name: 'component resolve (miss)',
    cli: ['component', 'resolve', 'docs/none.md', '--project', 'platform', '--repo', 'identity'],
    tool: 'hub_component_resolve',
    args: { path: 'docs/none.md', project: 'platform', repo: 'identity' },
    http: {
      method: 'GET',
      path: '/v3/ops/components/resolve?path=docs/none.md&project=platform&repo=identity',
    },
  },
  {
    name: 'component graph',
    cli: ['component', 'graph', 'storefront', '--depth', '2', '--direction', 'out'],
    tool: 'hub_component_graph',
    args: { component: 'storefront', depth: 2, direction: 'out' },
    http: { method: 'GET', path: '/v3/ops/components/graph?component=storefront&depth=2&direction=out' },
  },
  {
    name: 'component detect',
    cli: ['component', 'detect', '--project', 'storefront'],
    tool: 'hub_component_detect',
    args: { project: 'storefront' },
    http: { method: 'GET', path: '/v3/ops/components/detect?project=storefront' },
  },
  {
    name: 'search',
    cli: ['search', 'gateway'],
    tool: 'hub_repo_search',
    args: { query: 'gateway' },
    http: { method: 'GET', path: '/v1/repos/search?query=gateway' },
  },
  {
    name: 'workspace grep info',
    cli: ['workspace', 'grep', 'info'],
    tool: 'hub_workspace_grep_info',
    args: {},
    http: { method: 'GET', path: '/v2/workspace/grep/info' },
  },
];

let dir: string;
let root: string;
let server: RunningServer;
/** `hub api serve` serves /v1 (and /v2); `hub web serve` serves /v2 and /v3. */
let api: RunningServer;
let mcp: Client;

beforeAll(async () => {
  dir = createTempDir('hub-parity-');
  root = createDemo(join(dir, 'demo')).root;
  // The servers see the same environment as the CLI processes (PATH decides the grep backend, for one).
  const env = { ...process.env, HUB_CACHE_DIR: 'off' } as Record<string, string>;
  server = await startTestServer({ root, env });
  api = await startTestServer({ root, env, mode: 'api' });
  mcp = await connectHub(root);
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
  await api?.close();
  removeTempDir(dir);
});

describe('the same operation on every surface', () => {
  it.each(CASES.map((c) => [c.name, c]))('%s', async (_name, c) => {
    const cli = runHub(['-c', join(root, '.hub.yml'), ...c.cli, '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    const viaCli = cli.json();
    const viaMcp = await callJson(mcp, c.tool, c.args);
    const base = c.http.path.startsWith('/v1/') ? api.base : server.base;
    const viaHttp = await call(base, c.http.method, c.http.path, { body: c.http.body });
    expect(viaHttp.status, viaHttp.text).toBe(200);
    expect(viaMcp).toEqual(viaCli);
    expect(viaHttp.json).toEqual(viaCli);
    // A page case must really be a middle page: cut before and after, so the same page is a real claim.
    if (c.name.endsWith('(one page)'))
      expect(viaCli).toMatchObject({ truncated: true, offset: c.args.offset });
  });

  it('gives the same error on every surface for an unknown component', async () => {
    const cli = runHub([
      '-c',
      join(root, '.hub.yml'),
      'component',
      'graph',
      'platform/identity/nope',
      '--json',
    ]);
    expect(cli.code).toBe(1);
    const http = await call(server.base, 'GET', '/v3/ops/components/graph?component=platform/identity/nope');
    expect(http.status).toBe(404);
    expect(http.json).toEqual(cli.json());
    await expect(
      mcp.callTool({ name: 'hub_component_graph', arguments: { component: 'platform/identity/nope' } }),
    ).rejects.toMatchObject({
      code: -32602,
      data: cli.json().error,
    });
  });
});

/** What differs between two runs of the same write: record ids (`ho-…`, `ap-…`) and ISO timestamps. */
function stable(value: unknown, ids: readonly string[]): unknown {
  let text = JSON.stringify(value);
  for (const id of ids) text = text.split(id).join('<id>');
  // Lease fences count the grants of a repository, so each surface's grant has its own (as ids are its own).
  text = text.replace(/"fence":\d+/g, '"fence":"<fence>"');
  return JSON.parse(text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>'));
}

describe('the same write on every surface', () => {
  const manifest = () => join(root, '.hub.yml');
  const create = (id: string) => {
    const r = runHub([
      '-c',
      manifest(),
      'context',
      'handoff',
      'create',
      '--id',
      id,
      '--title',
      'Hand over',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
  };

  it('claims and completes a handoff alike (the routes the http backend sends them to)', async () => {
    for (const id of ['par-cli', 'par-mcp', 'par-http']) create(id);
    const claim = {
      cli: runHub([
        '-c',
        manifest(),
        'context',
        'handoff',
        'claim',
        '--id',
        'par-cli',
        '--by',
        'a1',
        '--ttl',
        '30m',
        '--json',
      ]).json(),
      mcp: await callJson(mcp, 'hub_handoff_claim', { id: 'par-mcp', by: 'a1', ttl: '30m' }),
      http: (
        await call(server.base, 'POST', '/v3/ops/handoffs/par-http/claim', { body: { by: 'a1', ttl: '30m' } })
      ).json,
    };
    const ids = ['par-cli', 'par-mcp', 'par-http'];
    expect(claim.cli.handoff.status).toBe('claimed');
    expect(stable(claim.mcp, ids)).toEqual(stable(claim.cli, ids));
    expect(stable(claim.http, ids)).toEqual(stable(claim.cli, ids));
    const done = {
      cli: runHub([
        '-c',
        manifest(),
        'context',
        'handoff',
        'complete',
        '--id',
        'par-cli',
        '--by',
        'a1',
        '--json',
      ]).json(),
      mcp: await callJson(mcp, 'hub_handoff_complete', { id: 'par-mcp', by: 'a1' }),
      http: (await call(server.base, 'POST', '/v3/ops/handoffs/par-http/complete', { body: { by: 'a1' } }))
        .json,
    };
    expect(done.cli.handoff.status).toBe('completed');
    expect(stable(done.mcp, ids)).toEqual(stable(done.cli, ids));
    expect(stable(done.http, ids)).toEqual(stable(done.cli, ids));
  });

  it('requests an approval alike', async () => {
    const item = { action: 'deploy', requested_by: 'a1', payload: { env: 'prod' } };
    const cli = runHub(['-c', manifest(), 'context', 'approval', 'request', '--json'], {
      input: JSON.stringify(item),
    });
    expect(cli.code, cli.stderr).toBe(0);
    const viaMcp = (await callJson(mcp, 'hub_approval_request', item)) as { request: { id: string } };
    const viaHttp = await call(server.base, 'POST', '/v3/ops/approvals', { body: item });
    expect(viaHttp.status, viaHttp.text).toBe(200);
    const ids = [cli.json().request.id, viaMcp.request.id, viaHttp.json.request.id];
    expect(new Set(ids).size).toBe(3);
    expect(stable(viaMcp, ids)).toEqual(stable(cli.json(), ids));
    expect(stable(viaHttp.json, ids)).toEqual(stable(cli.json(), ids));
  });

  it('creates, lists and destroys a worktree alike', async () => {
    const repo = join(root, 'platform/identity');
    const tasks = { cli: 'par-wt-cli', mcp: 'par-wt-mcp', http: 'par-wt-http' };
    for (const t of Object.values(tasks)) git(repo, ['branch', `agent/${t}`]);
    const args = (t: string) => ({
      repository: 'platform/identity',
      agent_id: 'par-agent',
      task_id: t,
      branch: `agent/${t}`,
    });
    const cli = runHub([
      '-c',
      manifest(),
      'worktree',
      'create',
      ...Object.entries(args(tasks.cli)).flatMap(([k, v]) => [`--${k.replace('_', '-')}`, v]),
      '--json',
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    const viaMcp = await callJson(mcp, 'hub_worktree_create', args(tasks.mcp));
    const viaHttp = await call(server.base, 'POST', '/v3/ops/worktrees', { body: args(tasks.http) });
    expect(viaHttp.status, viaHttp.text).toBe(200);
    const made = [cli.json(), viaMcp, viaHttp.json];
    // What differs: the ids, the task (and so the path, branch and git admin folder) and the times.
    const ids = [...made.map((m) => m.worktree.id), ...Object.values(tasks)];
    expect(stable(viaMcp, ids)).toEqual(stable(cli.json(), ids));
    expect(stable(viaHttp.json, ids)).toEqual(stable(cli.json(), ids));
    const list = runHub(['-c', manifest(), 'worktree', 'list', '--agent-id', 'par-agent', '--json']).json();
    expect(list.worktrees).toHaveLength(3);
    expect(await callJson(mcp, 'hub_worktree_list', { agent_id: 'par-agent' })).toEqual(list);
    expect((await call(server.base, 'GET', '/v3/ops/worktrees?agent_id=par-agent')).json).toEqual(list);
    const gone = {
      cli: runHub(['-c', manifest(), 'worktree', 'destroy', '--id', made[0].worktree.id, '--json']).json(),
      mcp: await callJson(mcp, 'hub_worktree_destroy', { id: made[1].worktree.id }),
      http: (
        await call(server.base, 'POST', '/v3/ops/worktrees/destroy', { body: { id: made[2].worktree.id } })
      ).json,
    };
    expect(gone.cli).toMatchObject({ action: 'removed', forced: false });
    expect(stable(gone.mcp, ids)).toEqual(stable(gone.cli, ids));
    expect(stable(gone.http, ids)).toEqual(stable(gone.cli, ids));
  });

  it('updates the session alike', async () => {
    const cli = runHub(['-c', manifest(), 'session', 'update', '--notes', 'same', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    const viaMcp = await callJson(mcp, 'hub_session_update', { notes: 'same' });
    const viaHttp = await call(server.base, 'POST', '/v3/ops/session', { body: { notes: 'same' } });
    expect(viaHttp.status, viaHttp.text).toBe(200);
    expect(stable(viaMcp, [])).toEqual(stable(cli.json(), []));
    expect(stable(viaHttp.json, [])).toEqual(stable(cli.json(), []));
  });
});

describe('branches, leases and agents alike on every surface', () => {
  const R = 'platform/identity';
  const cli = (...args: string[]) => {
    const r = runHub(['-c', join(root, '.hub.yml'), ...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    return r.json();
  };
  const post = async (path: string, body: Record<string, unknown>) => {
    const r = await call(server.base, 'POST', path, { body });
    expect(r.status, r.text).toBe(200);
    return r.json;
  };
  const tasks = ['par-b-cli', 'par-b-mcp', 'par-b-http'];

  it('allocates, refuses a taken name, leases, heartbeats and releases alike', async () => {
    const alloc = {
      cli: cli('branch', 'allocate', '--repository', R, '--agent-id', 'par-a', '--task-id', tasks[0]!),
      mcp: await callJson(mcp, 'hub_branch_allocate', {
        repository: R,
        agent_id: 'par-a',
        task_id: tasks[1],
      }),
      http: await post('/v3/ops/branches', { repository: R, agent_id: 'par-a', task_id: tasks[2] }),
    };
    expect(alloc.cli).toMatchObject({
      created: true,
      head: 'created',
      allocation: { name: 'agent/par-b-cli' },
    });
    const ids = [...tasks, ...Object.values(alloc).map((r) => r.allocation.branch_id as string)];
    expect(stable(alloc.mcp, ids)).toEqual(stable(alloc.cli, ids));
    expect(stable(alloc.http, ids)).toEqual(stable(alloc.cli, ids));

    // The same refusal (409, naming the holder) everywhere.
    const taken = { repository: R, agent_id: 'par-z', task_id: 'par-z', name: 'agent/par-b-cli' };
    const viaCli = runHub([
      '-c',
      join(root, '.hub.yml'),
      'branch',
      'allocate',
      '--repository',
      R,
      '--agent-id',
      'par-z',
      '--task-id',
      'par-z',
      '--name',
      'agent/par-b-cli',
      '--json',
    ]);
    expect(viaCli.code).toBe(1);
    const error = viaCli.json().error;
    expect(error).toMatchObject({
      code: 'refused',
      details: { holder: { agent_id: 'par-a', task_id: 'par-b-cli' } },
    });
    const viaHttp = await call(server.base, 'POST', '/v3/ops/branches', { body: taken });
    expect(viaHttp.status).toBe(409);
    expect(viaHttp.json).toEqual({ error });
    const viaMcp = await rpcError(mcp.callTool({ name: 'hub_branch_allocate', arguments: taken }), -32000);
    expect(viaMcp.data).toEqual(error);

    const lt = ['par-l-cli', 'par-l-mcp', 'par-l-http'];
    const lease = {
      cli: cli(
        'lease',
        'acquire',
        '--repository',
        R,
        '--agent-id',
        'par-a',
        '--task-id',
        lt[0]!,
        '--allocate',
        '--ttl',
        '1h',
      ),
      mcp: await callJson(mcp, 'hub_lease_acquire', {
        repository: R,
        agent_id: 'par-a',
        task_id: lt[1],
        allocate: true,
        ttl: '1h',
      }),
      http: await post('/v3/ops/leases', {
        repository: R,
        agent_id: 'par-a',
        task_id: lt[2],
        allocate: true,
        ttl: '1h',
      }),
    };
    const lids = [
      ...lt,
      ...Object.values(lease).flatMap((r) => [r.lease.lease_id as string, r.allocation.branch_id as string]),
    ];
    expect(lease.cli).toMatchObject({ acquired: true, lease: { branch: 'agent/par-l-cli' } });
    const fences = Object.values(lease).map((r) => r.lease.fence as number);
    expect(new Set(fences).size).toBe(3);
    expect(stable(lease.mcp, lids)).toEqual(stable(lease.cli, lids));
    expect(stable(lease.http, lids)).toEqual(stable(lease.cli, lids));

    const beat = {
      cli: cli('lease', 'heartbeat', '--repository', R, '--agent-id', 'par-a', '--task-id', lt[0]!),
      mcp: await callJson(mcp, 'hub_lease_heartbeat', { repository: R, agent_id: 'par-a', task_id: lt[1] }),
      http: await post('/v3/ops/leases/heartbeat', { repository: R, agent_id: 'par-a', task_id: lt[2] }),
    };
    expect(stable(beat.mcp, lids)).toEqual(stable(beat.cli, lids));
    expect(stable(beat.http, lids)).toEqual(stable(beat.cli, lids));

    const rel = {
      cli: cli(
        'lease',
        'release',
        '--repository',
        R,
        '--agent-id',
        'par-a',
        '--task-id',
        lt[0]!,
        '--release-branch',
      ),
      mcp: await callJson(mcp, 'hub_lease_release', {
        repository: R,
        agent_id: 'par-a',
        task_id: lt[1],
        release_branch: true,
      }),
      http: await post('/v3/ops/leases/release', {
        repository: R,
        agent_id: 'par-a',
        task_id: lt[2],
        release_branch: true,
      }),
    };
    expect(rel.cli).toMatchObject({ released: true, branch: { released: true } });
    expect(stable(rel.mcp, lids)).toEqual(stable(rel.cli, lids));
    expect(stable(rel.http, lids)).toEqual(stable(rel.cli, lids));

    const brel = {
      cli: cli('branch', 'release', '--repository', R, '--agent-id', 'par-a', '--name', 'agent/par-b-cli'),
      mcp: await callJson(mcp, 'hub_branch_release', {
        repository: R,
        agent_id: 'par-a',
        name: 'agent/par-b-mcp',
      }),
      http: await post('/v3/ops/branches/release', {
        repository: R,
        agent_id: 'par-a',
        name: 'agent/par-b-http',
      }),
    };
    expect(stable(brel.mcp, ids)).toEqual(stable(brel.cli, ids));
    expect(stable(brel.http, ids)).toEqual(stable(brel.cli, ids));

    const hb = {
      cli: cli('agent', 'heartbeat', '--agent-id', 'par-h', '--ttl', '10m'),
      mcp: await callJson(mcp, 'hub_agent_heartbeat', { agent_id: 'par-h', ttl: '10m' }),
      http: await post('/v3/ops/agents/heartbeat', { agent_id: 'par-h', ttl: '10m' }),
    };
    expect(stable(hb.mcp, [])).toEqual(stable(hb.cli, []));
    expect(stable(hb.http, [])).toEqual(stable(hb.cli, []));
  });

  it('lists branches, leases and the agents registry alike', async () => {
    const reads: Array<[string[], string, Record<string, unknown>, string]> = [
      [
        ['branch', 'list', '--agent-id', 'par-a', '--status', 'all'],
        'hub_branch_list',
        { agent_id: 'par-a', status: 'all' },
        '/v3/ops/branches?agent_id=par-a&status=all',
      ],
      [
        ['lease', 'list', '--repository', R, '--status', 'all'],
        'hub_lease_list',
        { repository: R, status: 'all' },
        `/v3/ops/leases?repository=${encodeURIComponent(R)}&status=all`,
      ],
      [
        ['agent', 'registry', '--agent-id', 'par-a'],
        'hub_agent_registry',
        { agent_id: 'par-a' },
        '/v3/ops/agents?agent_id=par-a',
      ],
    ];
    for (const [args, tool, input, path] of reads) {
      const viaCli = cli(...args);
      expect(await callJson(mcp, tool, input), tool).toEqual(viaCli);
      const viaHttp = await call(server.base, 'GET', path);
      expect(viaHttp.status, viaHttp.text).toBe(200);
      expect(viaHttp.json, path).toEqual(viaCli);
    }
    const listed = cli('branch', 'list', '--agent-id', 'par-a', '--status', 'all');
    expect(listed.branches).toHaveLength(6);
  });
});

describe('claims and concepts on every surface', () => {
  const manifest = () => join(root, '.hub.yml');
  /** `code`: the exit status expected (claim check exits 1 when it finds conflicts, JSON still printed). */
  const cliJson = (args: string[], code = 0) => {
    const r = runHub(['-c', manifest(), ...args, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(code);
    return r.json();
  };
  /** Claim ids (cl-…) and ISO times differ between runs; task ids name the surface. */
  const claimIds = (v: unknown) => [...new Set(JSON.stringify(v).match(/cl-[0-9a-f]{12}/g) ?? [])];
  const same = (a: unknown, b: unknown, tasks: string[]) => {
    const norm = (v: unknown) => {
      let text = JSON.stringify(stable(v, claimIds(v)));
      for (const t of tasks) text = text.split(t).join('<task>');
      return JSON.parse(text);
    };
    expect(norm(a)).toEqual(norm(b));
  };

  it('declares, checks, lists, renews and releases claims alike', async () => {
    const base = { repository: 'platform/identity', agent_id: 'par-agent', component: 'sdk', ttl: '1h' };
    const declared = {
      cli: cliJson([
        'claim',
        'declare',
        '--repository',
        'platform/identity',
        '--agent-id',
        'par-agent',
        '--component',
        'sdk',
        '--ttl',
        '1h',
        '--task-id',
        'par-cli',
      ]),
      mcp: await callJson(mcp, 'hub_claim_declare', { ...base, task_id: 'par-mcp' }),
      http: (await call(server.base, 'POST', '/v3/ops/claims', { body: { ...base, task_id: 'par-http' } }))
        .json,
    };
    const tasks = ['par-cli', 'par-mcp', 'par-http'];
    expect(declared.cli).toMatchObject({ created: true, claim: { patterns: ['packages/sdk/**'] } });
    same(declared.mcp, declared.cli, tasks);
    same(declared.http, declared.cli, tasks);

    const checkArgs = { repository: 'platform/identity', patterns: ['packages/**'], agent_id: 'par-other' };
    const check = {
      cli: cliJson(
        [
          'claim',
          'check',
          '--repository',
          'platform/identity',
          '--pattern',
          'packages/**',
          '--agent-id',
          'par-other',
        ],
        1,
      ),
      mcp: await callJson(mcp, 'hub_claim_check', checkArgs),
      http: (
        await call(
          server.base,
          'GET',
          '/v3/ops/claims/check?repository=platform/identity&patterns=packages/**&agent_id=par-other',
        )
      ).json,
    };
    expect(check.cli.conflicts).toHaveLength(3);
    expect(check.mcp).toEqual(check.cli);
    expect(check.http).toEqual(check.cli);

    const list = {
      cli: cliJson(['claim', 'list', '--agent-id', 'par-agent']),
      mcp: await callJson(mcp, 'hub_claim_list', { agent_id: 'par-agent' }),
      http: (await call(server.base, 'GET', '/v3/ops/claims?agent_id=par-agent')).json,
    };
    expect(list.cli.claims).toHaveLength(3);
    expect(list.mcp).toEqual(list.cli);
    expect(list.http).toEqual(list.cli);

    const ids = Object.fromEntries(
      Object.entries(declared).map(([k, v]) => [k, (v as { claim: { claim_id: string } }).claim.claim_id]),
    );
    const beat = {
      cli: cliJson(['claim', 'heartbeat', '--agent-id', 'par-agent', '--claim-id', ids.cli!]),
      mcp: await callJson(mcp, 'hub_claim_heartbeat', { agent_id: 'par-agent', claim_id: ids.mcp }),
      http: (
        await call(server.base, 'POST', '/v3/ops/claims/heartbeat', {
          body: { agent_id: 'par-agent', claim_id: ids.http },
        })
      ).json,
    };
    expect(beat.cli.renewed).toHaveLength(1);
    same(beat.mcp, beat.cli, tasks);
    same(beat.http, beat.cli, tasks);

    const released = {
      cli: cliJson(['claim', 'release', '--agent-id', 'par-agent', '--claim-id', ids.cli!]),
      mcp: await callJson(mcp, 'hub_claim_release', { agent_id: 'par-agent', claim_id: ids.mcp }),
      http: (
        await call(server.base, 'POST', '/v3/ops/claims/release', {
          body: { agent_id: 'par-agent', claim_id: ids.http },
        })
      ).json,
    };
    expect(released.cli.released).toHaveLength(1);
    same(released.mcp, released.cli, tasks);
    same(released.http, released.cli, tasks);
  });

  it('gives the same refusal for an overlapping claim on every surface', async () => {
    const holder = cliJson([
      'claim',
      'declare',
      '--repository',
      'platform/gateway',
      '--agent-id',
      'par-h',
      '--pattern',
      'helm/**',
    ]);
    const input = {
      repository: 'platform/gateway',
      agent_id: 'par-x',
      patterns: ['helm/gateway/values.yaml'],
    };
    const cli = runHub([
      '-c',
      manifest(),
      'claim',
      'declare',
      '--repository',
      'platform/gateway',
      '--agent-id',
      'par-x',
      '--pattern',
      'helm/gateway/values.yaml',
      '--json',
    ]);
    expect(cli.code).toBe(1);
    const http = await call(server.base, 'POST', '/v3/ops/claims', { body: input });
    expect(http.status).toBe(409);
    expect(http.json).toEqual(cli.json());
    await expect(mcp.callTool({ name: 'hub_claim_declare', arguments: input })).rejects.toMatchObject({
      code: -32000,
      data: cli.json().error,
    });
    expect(cli.json().error.details.conflicts[0]).toMatchObject({
      claim_id: holder.claim.claim_id,
      witness: 'helm/gateway/values.yaml',
    });
  });

  it('declares and reads concepts alike, and returns the same errors as data', async () => {
    const bad = { concept: 'x', repository: 'platform/nope', patterns: [] };
    const badCli = runHub([
      '-c',
      manifest(),
      'semantic',
      'declare',
      '--concept',
      'x',
      '--repository',
      'platform/nope',
      '--json',
    ]);
    expect(badCli.code).toBe(1);
    expect(await callJson(mcp, 'hub_semantic_declare', bad)).toEqual(badCli.json());
    expect((await call(server.base, 'POST', '/v3/ops/semantic/concepts', { body: bad })).json).toEqual(
      badCli.json(),
    );
    cliJson([
      'semantic',
      'declare',
      '--concept',
      'Charts',
      '--repository',
      'platform/gateway',
      '--pattern',
      'helm/**',
    ]);
    const reads: Array<[string[], string, Record<string, unknown>, string]> = [
      [
        ['semantic', 'query', '--concept', 'charts'],
        'hub_semantic_query',
        { concept: 'charts' },
        '/v3/ops/semantic/concepts?concept=charts',
      ],
      [
        ['semantic', 'owners', '--repository', 'platform/gateway', '--path', 'helm/gateway/Chart.yaml'],
        'hub_semantic_owners',
        { repository: 'platform/gateway', path: 'helm/gateway/Chart.yaml' },
        '/v3/ops/semantic/owners?repository=platform/gateway&path=helm/gateway/Chart.yaml',
      ],
      [
        ['semantic', 'conflicts', '--repository', 'platform/gateway'],
        'hub_semantic_conflicts',
        { repository: 'platform/gateway' },
        '/v3/ops/semantic/conflicts?repository=platform/gateway',
      ],
    ];
    for (const [args, tool, toolArgs, path] of reads) {
      const viaCli = cliJson(args);
      expect(await callJson(mcp, tool, toolArgs), tool).toEqual(viaCli);
      expect((await call(server.base, 'GET', path)).json, path).toEqual(viaCli);
    }
  });
});

describe('run ledger, routing, lanes and policies on every surface', () => {
  const manifest = () => join(root, '.hub.yml');
  const cliJson = (args: string[], input?: string) => {
    const r = runHub(['-c', manifest(), ...args, '--json'], { input });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    return r.json();
  };
  const post = async (path: string, body: Record<string, unknown>) => {
    const r = await call(server.base, 'POST', path, { body });
    expect(r.status, r.text).toBe(200);
    return r.json;
  };
  const get = async (path: string) => {
    const r = await call(server.base, 'GET', path);
    expect(r.status, r.text).toBe(200);
    return r.json;
  };
  /** Run ids (run-<time>-<hex>) and ISO times differ between runs of the same write. */
  const runIds = (v: unknown) => [
    ...new Set(JSON.stringify(v).match(/run-\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{8}/g) ?? []),
  ];
  const same = (a: unknown, b: unknown, names: string[] = []) => {
    const norm = (v: unknown) => {
      let text = JSON.stringify(stable(v, runIds(v)));
      for (const n of names) text = text.split(n).join('<name>');
      return JSON.parse(text);
    };
    expect(norm(a)).toEqual(norm(b));
  };

  it('adds request classes and routes asks alike', async () => {
    const cli = cliJson([
      'route',
      'add',
      '--id',
      'REQ-par-cli',
      '--title',
      'Parity',
      '--trigger',
      'parity check surfaces',
      '--lane',
      'ci',
      '--mutates',
      'false',
    ]);
    const args = (id: string) => ({
      id,
      title: 'Parity',
      trigger: ['parity check surfaces'],
      lane: 'ci',
      mutates: false,
    });
    const viaMcp = await callJson(mcp, 'hub_route_add', args('REQ-par-mcp'));
    const viaHttp = await post('/v3/ops/routing/classes', args('REQ-par-http'));
    const names = ['REQ-par-cli', 'REQ-par-mcp', 'REQ-par-http'];
    expect(cli).toMatchObject({ created: true, class: { mutates: false, tier: 'novel' } });
    same(viaMcp, cli, names);
    same(viaHttp, cli, names);

    const query = {
      cli: cliJson(['route', 'query', 'check parity of the surfaces', '--limit', '2']),
      mcp: await callJson(mcp, 'hub_route_query', { ask: 'check parity of the surfaces', limit: 2 }),
      http: await get(
        `/v3/ops/routing/query?ask=${encodeURIComponent('check parity of the surfaces')}&limit=2`,
      ),
    };
    expect(query.cli.matches.map((m: { id: string }) => m.id)).toEqual(['REQ-par-cli', 'REQ-par-http']);
    expect(query.mcp).toEqual(query.cli);
    expect(query.http).toEqual(query.cli);
    // No match: a result with ok false (CLI exit 1), not an error.
    const miss = runHub(['-c', manifest(), 'route', 'query', 'zebra xylophone', '--json']);
    expect(miss.code).toBe(1);
    expect(await callJson(mcp, 'hub_route_query', { ask: 'zebra xylophone' })).toEqual(miss.json());
    expect(await get('/v3/ops/routing/query?ask=zebra%20xylophone')).toEqual(miss.json());

    const list = cliJson(['route', 'list']);
    expect(await callJson(mcp, 'hub_route_list', {})).toEqual(list);
    expect(await get('/v3/ops/routing/classes')).toEqual(list);
    const show = cliJson(['route', 'show', '--id', 'REQ-par-cli']);
    expect(await callJson(mcp, 'hub_route_show', { id: 'REQ-par-cli' })).toEqual(show);
    expect(await get('/v3/ops/routing/classes/REQ-par-cli')).toEqual(show);
  });

  it('opens, closes, replays, lists, shows and exports runs alike', async () => {
    const openArgs = {
      actor: 'par-agent',
      class: 'REQ-par-cli',
      repository: 'platform/identity',
      task_id: 'par-t',
    };
    const opened = {
      cli: cliJson([
        'run',
        'open',
        '--actor',
        'par-agent',
        '--class',
        'REQ-par-cli',
        '--repository',
        'platform/identity',
        '--task-id',
        'par-t',
      ]),
      mcp: await callJson(mcp, 'hub_run_open', openArgs),
      http: await post('/v3/ops/runs', openArgs),
    };
    expect(opened.cli.run).toMatchObject({ status: 'open', lane: 'ci', repository: 'platform/identity' });
    same(opened.mcp, opened.cli);
    same(opened.http, opened.cli);
    const ids = [opened.cli.run.run_id, opened.mcp.run.run_id, opened.http.run.run_id] as string[];

    const closeArgs = {
      outcome: 'landed',
      gate: ['lint=pass'],
      note: 'API_TOKEN=abcd1234efgh',
      by: 'par-agent',
    };
    const closed = {
      cli: cliJson([
        'run',
        'close',
        '--id',
        ids[0]!,
        '--outcome',
        'landed',
        '--gate',
        'lint=pass',
        '--note',
        'API_TOKEN=abcd1234efgh',
        '--by',
        'par-agent',
      ]),
      mcp: await callJson(mcp, 'hub_run_close', { id: ids[1], ...closeArgs }),
      http: await post(`/v3/ops/runs/${ids[2]}/close`, closeArgs),
    };
    expect(closed.cli.run).toMatchObject({ status: 'closed', note: 'API_TOKEN=***efgh' });
    same(closed.mcp, closed.cli);
    same(closed.http, closed.cli);

    const again = runHub(['-c', manifest(), 'run', 'close', '--id', ids[0]!, '--outcome', 'noop', '--json']);
    expect(again.code).toBe(1);
    const httpAgain = await call(server.base, 'POST', `/v3/ops/runs/${ids[0]}/close`, {
      body: { outcome: 'noop' },
    });
    expect(httpAgain.status).toBe(409);
    expect(httpAgain.json).toEqual(again.json());
    await expect(
      mcp.callTool({ name: 'hub_run_close', arguments: { id: ids[0], outcome: 'noop' } }),
    ).rejects.toMatchObject({ code: -32000, data: again.json().error });

    const replayed = {
      cli: cliJson(['run', 'replay', '--id', ids[0]!, '--actor', 'par-b']),
      mcp: await callJson(mcp, 'hub_run_replay', { id: ids[1], actor: 'par-b' }),
      http: await post(`/v3/ops/runs/${ids[2]}/replay`, { actor: 'par-b' }),
    };
    expect(replayed.cli.run).toMatchObject({ actor: 'par-b', replay_of: ids[0], task_id: 'par-t' });
    same(replayed.mcp, replayed.cli);
    same(replayed.http, replayed.cli);

    const reads: Array<[string[], string, Record<string, unknown>, string]> = [
      [
        ['run', 'list', '--actor', 'par-agent'],
        'hub_run_list',
        { actor: 'par-agent' },
        '/v3/ops/runs?actor=par-agent',
      ],
      [
        ['run', 'list', '--open', '--limit', '2'],
        'hub_run_list',
        { open: true, limit: 2 },
        '/v3/ops/runs?open=true&limit=2',
      ],
      [['run', 'show', '--id', ids[1]!], 'hub_run_show', { id: ids[1] }, `/v3/ops/runs/${ids[1]}`],
      [
        ['run', 'export', '--class', 'REQ-par-cli', '--format', 'jsonl'],
        'hub_run_export',
        { class: 'REQ-par-cli', format: 'jsonl' },
        '/v3/ops/runs/export?class=REQ-par-cli&format=jsonl',
      ],
    ];
    for (const [args, tool, toolArgs, path] of reads) {
      const viaCli = cliJson(args);
      expect(await callJson(mcp, tool, toolArgs), tool).toEqual(viaCli);
      expect(await get(path), path).toEqual(viaCli);
    }

    // An unknown run id: the same not-found error, with the same suggestion, everywhere.
    const typo = `${ids[1]!.slice(0, -1)}${ids[1]!.endsWith('0') ? '1' : '0'}`;
    const miss = runHub(['-c', manifest(), 'run', 'show', '--id', typo, '--json']);
    expect(miss.code).toBe(1);
    expect(miss.json().error.details.suggestions[0]).toBe(ids[1]);
    const httpMiss = await call(server.base, 'GET', `/v3/ops/runs/${typo}`);
    expect(httpMiss.status).toBe(404);
    expect(httpMiss.json).toEqual(miss.json());
    await rpcError(mcp.callTool({ name: 'hub_run_show', arguments: { id: typo } }), -32602);
  });

  it('evaluates lanes and policies alike', async () => {
    const lane = cliJson(['lane', 'eval', '--dry-run']);
    expect(await callJson(mcp, 'hub_lane_eval', { dry_run: true })).toEqual(lane);
    expect(await post('/v3/ops/routing/lanes/eval', { dry_run: true })).toEqual(lane);

    const body = {
      rules: [{ when: { tier: { in: ['skilled'] } }, effect: 'allow', reason: 'ok' }],
      default: 'deny',
    };
    const set = {
      cli: cliJson(['policy', 'set', '--name', 'par-cli'], JSON.stringify(body)),
      mcp: await callJson(mcp, 'hub_policy_set', { name: 'par-mcp', ...body }),
      http: await post('/v3/ops/policies', { name: 'par-http', ...body }),
    };
    same(set.mcp, set.cli, ['par-cli', 'par-mcp', 'par-http']);
    same(set.http, set.cli, ['par-cli', 'par-mcp', 'par-http']);
    const input = { tier: 'skilled' };
    const decided = cliJson(['policy', 'eval', '--policy', 'par-cli', '--input', JSON.stringify(input)]);
    expect(decided).toEqual({ policy: 'par-cli', decision: 'allow', rule_index: 0, reason: 'ok' });
    expect(await callJson(mcp, 'hub_policy_eval', { policy: 'par-cli', input })).toEqual(decided);
    expect(
      await get(`/v3/ops/policies/par-cli/eval?input=${encodeURIComponent(JSON.stringify(input))}`),
    ).toEqual(decided);
    expect(await post('/v3/ops/policies/par-cli/eval', { input })).toEqual(decided);
    const list = cliJson(['policy', 'list']);
    expect(await callJson(mcp, 'hub_policy_list', {})).toEqual(list);
    expect(await get('/v3/ops/policies')).toEqual(list);
    const show = cliJson(['policy', 'show', '--name', 'par-http']);
    expect(await callJson(mcp, 'hub_policy_show', { name: 'par-http' })).toEqual(show);
    expect(await get('/v3/ops/policies/par-http')).toEqual(show);
  });

  it('reads an evidence file over MCP and HTTP only inside the workspace', async () => {
    const outside = join(dir, 'outside-evidence.log');
    writeFileSync(outside, 'secret outside\n');
    symlinkSync(outside, join(root, 'evidence-out.log'));
    const id = (await post('/v3/ops/runs', { actor: 'par-ev' })).run.run_id as string;
    for (const path of [outside, 'evidence-out.log']) {
      const r = await call(server.base, 'POST', `/v3/ops/runs/${id}/close`, {
        body: { outcome: 'noop', evidence_file: path },
      });
      expect(r.status, r.text).toBe(400);
      expect(r.json.error.details).toMatchObject({ field: 'evidence_file', rule: 'inside_workspace' });
      await rpcError(
        mcp.callTool({ name: 'hub_run_close', arguments: { id, outcome: 'noop', evidence_file: path } }),
        -32602,
      );
    }
    writeFileSync(join(root, 'evidence-in.log'), 'inside\n');
    expect(
      (await post(`/v3/ops/runs/${id}/close`, { outcome: 'noop', evidence_file: 'evidence-in.log' })).run
        .evidence.text,
    ).toBe('inside\n');
  });
});

describe('the merge queue on every surface', () => {
  const manifest = () => join(root, '.hub.yml');
  const R = 'platform/gateway';
  const repo = () => join(root, 'platform/gateway');
  const cliJson = (args: string[], code = 0) => {
    const r = runHub(['-c', manifest(), ...args, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(code);
    return r.json();
  };
  const surfaces = ['cli', 'mcp', 'http'] as const;
  /** Ids, commit ids and the surface names in branch names differ; nothing else may. */
  const norm = (v: unknown) => {
    let text = JSON.stringify(stable(v, []));
    text = text
      .replace(/[0-9a-f]{40}/g, '<sha>')
      .replace(/par-m-(cli|mcp|http)-into-[a-z-]+-[0-9a-f]{8}/g, '<id>');
    for (const s of surfaces) text = text.split(`-${s}`).join('-<s>');
    return JSON.parse(text);
  };

  it('enqueues, integrates, lists, promotes and rolls up alike', async () => {
    git(repo(), ['branch', 'release-base']);
    for (const s of surfaces) {
      git(repo(), ['branch', `int-${s}`, 'main']);
      git(repo(), ['branch', `rel-${s}`, 'main']);
      git(repo(), ['checkout', '-q', '-b', `agent/par-m-${s}`, 'main']);
      git(repo(), ['commit', '-q', '--allow-empty', '-m', 'work']);
      git(repo(), ['checkout', '-q', 'main']);
    }
    const enq = (s: string) => ({ repository: R, branch: `agent/par-m-${s}`, into: `int-${s}` });
    const queued = {
      cli: cliJson([
        'merge',
        'enqueue',
        '--repository',
        R,
        '--branch',
        'agent/par-m-cli',
        '--into',
        'int-cli',
      ]),
      mcp: await callJson(mcp, 'hub_merge_enqueue', enq('mcp')),
      http: (await call(server.base, 'POST', '/v3/ops/merges', { body: enq('http') })).json,
    };
    expect(queued.cli).toMatchObject({ created: true, merge: { status: 'queued' } });
    expect(norm(queued.mcp)).toEqual(norm(queued.cli));
    expect(norm(queued.http)).toEqual(norm(queued.cli));

    const id = (s: keyof typeof queued) => queued[s].merge.merge_id as string;
    const done = {
      cli: cliJson(['merge', 'integrate', '--merge-id', id('cli')]),
      mcp: await callJson(mcp, 'hub_merge_integrate', { merge_id: id('mcp') }),
      http: (await call(server.base, 'POST', '/v3/ops/merges/integrate', { body: { merge_id: id('http') } }))
        .json,
    };
    expect(done.cli.merge).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(norm(done.mcp)).toEqual(norm(done.cli));
    expect(norm(done.http)).toEqual(norm(done.cli));

    const list = {
      cli: cliJson(['merge', 'status', '--repository', R, '--status', 'succeeded', '--limit', '2']),
      mcp: await callJson(mcp, 'hub_merge_status', { repository: R, status: 'succeeded', limit: 2 }),
      http: (await call(server.base, 'GET', `/v3/ops/merges?repository=${R}&status=succeeded&limit=2`)).json,
    };
    expect(list.cli).toMatchObject({ total: 3, offset: 0, next_offset: 2 });
    expect(list.mcp).toEqual(list.cli);
    expect(list.http).toEqual(list.cli);

    const promoted = {
      cli: cliJson(['merge', 'promote', '--merge-id', id('cli'), '--into', 'rel-cli']),
      mcp: await callJson(mcp, 'hub_merge_promote', { merge_id: id('mcp'), into: 'rel-mcp' }),
      http: (
        await call(server.base, 'POST', '/v3/ops/merges/promote', {
          body: { merge_id: id('http'), into: 'rel-http' },
        })
      ).json,
    };
    expect(promoted.cli).toMatchObject({ into: 'rel-cli', up_to_date: false });
    expect(norm(promoted.mcp)).toEqual(norm(promoted.cli));
    expect(norm(promoted.http)).toEqual(norm(promoted.cli));

    const roll = (s: string) => ({
      repository: R,
      into: `roll-${s}`,
      base: 'main',
      branches: `agent/par-m-${s}`,
    });
    const rolled = {
      cli: cliJson([
        'merge',
        'rollup',
        '--repository',
        R,
        '--into',
        'roll-cli',
        '--base',
        'main',
        '--branch',
        'agent/par-m-cli',
      ]),
      mcp: await callJson(mcp, 'hub_merge_rollup', roll('mcp')),
      http: (await call(server.base, 'POST', '/v3/ops/merges/rollup', { body: roll('http') })).json,
    };
    expect(rolled.cli).toMatchObject({ created: true, merged: [{ branch: 'agent/par-m-cli' }] });
    expect(norm(rolled.mcp)).toEqual(norm(rolled.cli));
    expect(norm(rolled.http)).toEqual(norm(rolled.cli));
  });

  it('refuses a checked-out target alike, naming the checkout', async () => {
    git(repo(), ['checkout', '-q', '-b', 'agent/par-m-main', 'main']);
    git(repo(), ['commit', '-q', '--allow-empty', '-m', 'work']);
    git(repo(), ['checkout', '-q', 'main']);
    const q = cliJson([
      'merge',
      'enqueue',
      '--repository',
      R,
      '--branch',
      'agent/par-m-main',
      '--into',
      'main',
    ]);
    const body = { merge_id: q.merge.merge_id };
    const cli = cliJson(['merge', 'integrate', '--merge-id', body.merge_id], 1);
    const viaHttp = await call(server.base, 'POST', '/v3/ops/merges/integrate', { body });
    expect(viaHttp.status).toBe(409);
    expect(cli.error).toMatchObject({
      code: 'refused',
      details: { rule: 'not_checked_out', worktrees: [repo()] },
    });
    expect(viaHttp.json).toEqual(cli);
    const viaMcp = await rpcError(mcp.callTool({ name: 'hub_merge_integrate', arguments: body }), -32000);
    expect(viaMcp.data).toEqual(cli.error);
  });

  it('lands a train alike, and a dry run that would stop exits 1 on the CLI', async () => {
    for (const s of surfaces)
      for (const t of ['a', 'b']) {
        git(repo(), ['branch', `train-${t}-${s}`, 'main']);
        git(repo(), ['checkout', '-q', '-b', `agent/par-t${t}-${s}`, 'main']);
        git(repo(), ['commit', '-q', '--allow-empty', '-m', `train ${t}`]);
        git(repo(), ['checkout', '-q', 'main']);
      }
    const rows = (s: string) => [
      `${R}:agent/par-ta-${s}:train-a-${s}`,
      `${R}:agent/par-tb-${s}:train-b-${s}`,
    ];
    const landed = {
      cli: cliJson(['merge', 'train', '--row', ...rows('cli')]),
      mcp: await callJson(mcp, 'hub_merge_train', { row: rows('mcp') }),
      http: (await call(server.base, 'POST', '/v3/ops/merges/train', { body: { row: rows('http') } })).json,
    };
    expect(landed.cli).toMatchObject({ landed: true, moved: 2, stopped_by: [] });
    expect(landed.cli.rows.map((r: { outcome: string }) => r.outcome)).toEqual(['landed', 'landed']);
    expect(norm(landed.mcp)).toEqual(norm(landed.cli));
    expect(norm(landed.http)).toEqual(norm(landed.cli));
    // The branches are in now: a second dry run is up to date; main is checked out here, so landing on it would stop.
    const dry = cliJson(
      ['merge', 'train', '--repository', R, '--branch', 'agent/par-ta-cli', '--into', 'main', '--dry-run'],
      1,
    );
    expect(dry).toMatchObject({ dry_run: true, stopped_by: [R] });
    expect(dry.rows[0].cause).toMatchObject({ code: 'target_checked_out', worktrees: [repo()] });
  });

  it('cancels alike: a request that cannot land is withdrawn and kept with who and why; a second cancel is refused', async () => {
    const ids = {} as Record<(typeof surfaces)[number], string>;
    for (const s of surfaces) {
      const q = cliJson([
        'merge',
        'enqueue',
        '--repository',
        R,
        '--branch',
        `agent/par-m-${s}`,
        '--into',
        'main',
      ]);
      // Accepted, with a warning: main is checked out in the main checkout, so integrate would pass it over.
      expect(q.warnings).toMatchObject([
        { code: 'target_checked_out', worktrees: [repo()], command: `git -C ${repo()} switch --detach` },
      ]);
      ids[s] = q.merge.merge_id;
    }
    const args = (s: (typeof surfaces)[number]) => ({
      merge_id: ids[s],
      agent_id: 'par-agent',
      reason: 'not for main',
    });
    const cancelled = {
      cli: cliJson([
        'merge',
        'cancel',
        '--merge-id',
        ids.cli,
        '--agent-id',
        'par-agent',
        '--reason',
        'not for main',
      ]),
      mcp: await callJson(mcp, 'hub_merge_cancel', args('mcp')),
      http: (await call(server.base, 'POST', '/v3/ops/merges/cancel', { body: args('http') })).json,
    };
    expect(cancelled.cli.merge).toMatchObject({
      status: 'cancelled',
      cancelled_by: 'par-agent',
      cancelled_from: 'queued',
      cancel_reason: 'not for main',
    });
    expect(norm(cancelled.mcp)).toEqual(norm(cancelled.cli));
    expect(norm(cancelled.http)).toEqual(norm(cancelled.cli));

    const body = { merge_id: ids.cli };
    const again = cliJson(['merge', 'cancel', '--merge-id', ids.cli], 1);
    expect(again.error).toMatchObject({
      code: 'refused',
      details: { field: 'merge_id', status: 'cancelled' },
    });
    expect(again.error.message).toContain('cancelled already by par-agent');
    const viaHttp = await call(server.base, 'POST', '/v3/ops/merges/cancel', { body });
    expect(viaHttp.status).toBe(409);
    expect(viaHttp.json).toEqual(again);
    const viaMcp = await rpcError(mcp.callTool({ name: 'hub_merge_cancel', arguments: body }), -32000);
    expect(viaMcp.data).toEqual(again.error);
  });
});

describe('task graphs and the scheduler on every surface', () => {
  const manifest = () => join(root, '.hub.yml');
  const graphs = { cli: 'par-t-cli', mcp: 'par-t-mcp', http: 'par-t-http' };
  const cliJson = (args: string[]) => {
    const r = runHub(['-c', manifest(), ...args, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    return r.json();
  };
  /** Graph ids name the surface; decision ids (sd-…) and ISO times differ between runs. */
  const same = (a: unknown, b: unknown) => {
    const norm = (v: unknown) => {
      let text = JSON.stringify(stable(v, [...new Set(JSON.stringify(v).match(/sd-[0-9a-f]{12}/g) ?? [])]));
      for (const g of Object.values(graphs)) text = text.split(g).join('<graph>');
      return JSON.parse(text);
    };
    expect(norm(a)).toEqual(norm(b));
  };
  const post = async (path: string, body: Record<string, unknown>) => {
    const r = await call(server.base, 'POST', path, { body });
    expect(r.status, r.text).toBe(200);
    return r.json;
  };
  const get = async (path: string) => {
    const r = await call(server.base, 'GET', path);
    expect(r.status, r.text).toBe(200);
    return r.json;
  };
  const OUTLINE = JSON.stringify([
    { title: 'Design', repository: 'platform/identity', component: 'api', priority: 2 },
    { title: 'Build', depends_on: ['design'], repository: 'platform/identity', patterns: ['services/**'] },
    { title: 'Docs', depends_on: ['design'] },
  ]);

  it('creates, expands, reads, moves and schedules alike', async () => {
    const created = {
      cli: cliJson(['task', 'create', '--title', 'Parity', '--graph-id', graphs.cli, '--outline', OUTLINE]),
      mcp: await callJson(mcp, 'hub_task_create', {
        title: 'Parity',
        graph_id: graphs.mcp,
        outline: OUTLINE,
      }),
      http: await post('/v3/ops/tasks', { title: 'Parity', graph_id: graphs.http, outline: OUTLINE }),
    };
    expect(created.cli.ready).toEqual(['design']);
    same(created.mcp, created.cli);
    same(created.http, created.cli);

    const expanded = {
      cli: cliJson(['task', 'expand', '--graph-id', graphs.cli, '--outline', 'Release']),
      mcp: await callJson(mcp, 'hub_task_expand', { graph_id: graphs.mcp, outline: 'Release' }),
      http: await post('/v3/ops/tasks/expand', { graph_id: graphs.http, outline: 'Release' }),
    };
    same(expanded.mcp, expanded.cli);
    same(expanded.http, expanded.cli);

    const reads: Array<
      [(g: string) => string[], string, (g: string) => Record<string, unknown>, (g: string) => string]
    > = [
      [
        (g) => ['task', 'ready', '--graph-id', g],
        'hub_task_ready',
        (g) => ({ graph_id: g }),
        (g) => `/v3/ops/tasks/ready?graph_id=${g}`,
      ],
      [
        (g) => ['task', 'list', '--graph-id', g],
        'hub_task_list',
        (g) => ({ graph_id: g }),
        (g) => `/v3/ops/tasks?graph_id=${g}`,
      ],
      [
        (g) => ['task', 'status', '--graph-id', g, '--node-id', 'build'],
        'hub_task_status',
        (g) => ({ graph_id: g, node_id: 'build' }),
        (g) => `/v3/ops/tasks/status?graph_id=${g}&node_id=build`,
      ],
      [
        (g) => [
          'task',
          'bind-acl',
          '--graph-id',
          g,
          '--node-id',
          'design',
          '--agent-id',
          'par-a',
          '--dry-run',
        ],
        'hub_task_bind_acl',
        (g) => ({ graph_id: g, node_id: 'design', agent_id: 'par-a', dry_run: true }),
        () => '',
      ],
      [
        (g) => ['schedule', 'next', '--agent-id', 'par-a', '--graph-id', g, '--dry-run'],
        'hub_schedule_next',
        (g) => ({ agent_id: 'par-a', graph_id: g, dry_run: true }),
        () => '',
      ],
    ];
    for (const [cliArgs, tool, toolArgs, path] of reads) {
      const viaCli = cliJson(cliArgs(graphs.cli));
      same(await callJson(mcp, tool, toolArgs(graphs.mcp)), viaCli);
      const viaHttp = path(graphs.http)
        ? await get(path(graphs.http))
        : await post(
            tool === 'hub_task_bind_acl' ? '/v3/ops/tasks/bind-acl' : '/v3/ops/schedule/next',
            toolArgs(graphs.http),
          );
      same(viaHttp, viaCli);
    }

    const moves: Array<[string, string[], Record<string, unknown>]> = [
      ['start', ['--node-id', 'design', '--agent-id', 'par-a'], { node_id: 'design', agent_id: 'par-a' }],
      ['complete', ['--node-id', 'design', '--agent-id', 'par-a'], { node_id: 'design', agent_id: 'par-a' }],
      ['block', ['--node-id', 'build', '--reason', 'waiting'], { node_id: 'build', reason: 'waiting' }],
      ['requeue', ['--node-id', 'build', '--reason', 'unblocked'], { node_id: 'build', reason: 'unblocked' }],
      ['cancel', ['--node-id', 'docs', '--reason', 'later'], { node_id: 'docs', reason: 'later' }],
    ];
    for (const [verb, flags, body] of moves) {
      const viaCli = cliJson(['task', verb, '--graph-id', graphs.cli, ...flags]);
      expect(viaCli.changed, verb).toBe(true);
      same(await callJson(mcp, `hub_task_${verb}`, { graph_id: graphs.mcp, ...body }), viaCli);
      same(await post(`/v3/ops/tasks/${verb}`, { graph_id: graphs.http, ...body }), viaCli);
    }

    const policy = cliJson(['schedule', 'policy', 'show']);
    expect(await callJson(mcp, 'hub_schedule_policy_show', {})).toEqual(policy);
    expect(await get('/v3/ops/schedule/policy')).toEqual(policy);
    const status = cliJson(['schedule', 'status']);
    expect(await callJson(mcp, 'hub_schedule_status', {})).toEqual(status);
    expect(await get('/v3/ops/schedule/status')).toEqual(status);
  });

  it('gives the same refusals on every surface', async () => {
    const bad = runHub([
      '-c',
      manifest(),
      'task',
      'expand',
      '--graph-id',
      'par-t-nope',
      '--outline',
      'x',
      '--json',
    ]);
    expect(bad.code).toBe(1);
    const input = { graph_id: 'par-t-nope', outline: 'x' };
    expect((await call(server.base, 'POST', '/v3/ops/tasks/expand', { body: input })).json).toEqual(
      bad.json(),
    );
    await expect(mcp.callTool({ name: 'hub_task_expand', arguments: input })).rejects.toMatchObject({
      code: -32602,
      data: bad.json().error,
    });
    const policy = runHub(['-c', manifest(), 'schedule', 'policy', 'set', '--cost', '-1', '--json']);
    expect(policy.code).toBe(1);
    // The flag arrives as text; sent as text over HTTP, the refusal is the same to the letter.
    const viaHttp = await call(server.base, 'POST', '/v3/ops/schedule/policy', { body: { cost: '-1' } });
    expect(viaHttp.status).toBe(400);
    expect(viaHttp.json).toEqual(policy.json());
    expect(policy.json().error.details.issues[0]).toMatchObject({
      field: 'cost',
      value: '-1',
      rule: 'too_small',
    });
  });
});

describe('installs on every surface', () => {
  // The CLI processes get a temporary home; the calls below never use user scope, and apply only plans.
  const cli = (args: string[]) =>
    runHub(['-c', join(root, '.hub.yml'), ...args, '--json'], {
      cwd: root,
      env: { HOME: join(dir, 'home-installs'), XDG_CONFIG_HOME: join(dir, 'xdg-installs') },
    });

  it('plans agent apply alike (dry run)', async () => {
    const input = { vendor: 'codex', project: 'platform', repo: 'identity', dry_run: true };
    const viaCli = cli([
      'agent',
      'apply',
      '--vendor',
      'codex',
      '-p',
      'platform',
      '-n',
      'identity',
      '--dry-run',
    ]);
    expect(viaCli.code, viaCli.stderr).toBe(0);
    expect(viaCli.json().repos[0].not_installed.map((n: { id: string }) => n.id)).toContain('code-review');
    expect(await callJson(mcp, 'hub_agent_apply', input)).toEqual(viaCli.json());
    const viaHttp = await call(server.base, 'POST', '/v3/agents/apply', { body: input });
    expect(viaHttp.json).toEqual(viaCli.json());
  });

  it('refuses a project scope outside any git repository alike', async () => {
    const input = { scope: 'project', target: 'cursor', dry_run: true };
    const viaCli = cli(['skills', 'install', '--scope', 'project', '--target', 'cursor', '--dry-run']);
    expect(viaCli.code).toBe(1);
    expect(viaCli.json().error.details.rule).toBe('inside_git_repository');
    const viaHttp = await call(server.base, 'POST', '/v3/agents/skills/install', { body: input });
    expect(viaHttp.status).toBe(400);
    expect(viaHttp.json).toEqual(viaCli.json());
    await expect(mcp.callTool({ name: 'hub_skills_install', arguments: input })).rejects.toMatchObject({
      code: -32602,
      data: viaCli.json().error,
    });
  });
});

describe('agent profiles, dispatch plans and prompts on every surface', () => {
  // Dispatch plans read the home folder (user-scope installs): every surface gets a temporary one.
  let own: { dir: string; root: string; env: Record<string, string>; web: RunningServer; mcp: Client };
  beforeAll(async () => {
    const d = createTempDir('hub-parity-agents-');
    const r = createDemo(join(d, 'demo')).root;
    const env = { HOME: join(d, 'home'), XDG_CONFIG_HOME: join(d, 'xdg'), HUB_CACHE_DIR: 'off' };
    const web = await startTestServer({ root: r, env: { ...process.env, ...env } as Record<string, string> });
    own = { dir: d, root: r, env, web, mcp: await connectHub(r, [], env) };
  });
  afterAll(async () => {
    await own?.mcp.close();
    await own?.web.close();
    removeTempDir(own.dir);
  });
  const cases: Array<[string, string[], string, Record<string, unknown>, string]> = [
    [
      'agent profile show',
      ['agent', 'profile', 'show', '-p', 'platform', '-n', 'identity', '--component', 'auth-plugin'],
      'hub_agent_profile_show',
      { project: 'platform', repo: 'identity', component: 'auth-plugin' },
      '/v3/agents/profile?project=platform&repo=identity&component=auth-plugin',
    ],
    [
      'agent dispatch-plan',
      [
        'agent',
        'dispatch-plan',
        'repo-implementer',
        '--vendor',
        'codex',
        '-p',
        'platform',
        '-n',
        'identity',
        '--task',
        'Rotate keys',
      ],
      'hub_agent_dispatch_plan',
      { id: 'repo-implementer', vendor: 'codex', project: 'platform', repo: 'identity', task: 'Rotate keys' },
      '/v3/agents/templates/repo-implementer/dispatch-plan?vendor=codex&project=platform&repo=identity&task=Rotate%20keys',
    ],
    ['prompt list', ['prompt', 'list'], 'hub_prompt_list', {}, '/v3/agents/prompts'],
    [
      'prompt show repo-handoff',
      ['prompt', 'show', 'repo-handoff', '-p', 'storefront', '-n', 'web', '--template', 'repo-implementer'],
      'hub_prompt_show',
      { name: 'repo-handoff', project: 'storefront', repo: 'web', template: 'repo-implementer' },
      '/v3/agents/prompts/repo-handoff?project=storefront&repo=web&template=repo-implementer',
    ],
    [
      'prompt show session-start',
      ['prompt', 'show', 'session-start'],
      'hub_prompt_show',
      { name: 'session-start' },
      '/v3/agents/prompts/session-start',
    ],
  ];

  it.each(cases)('%s', async (_name, cli, tool, args, path) => {
    const r = runHub(['-c', join(own.root, '.hub.yml'), ...cli, '--json'], { env: own.env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const viaCli = r.json();
    const viaHttp = await call(own.web.base, 'GET', path);
    expect(viaHttp.status, viaHttp.text).toBe(200);
    expect(await callJson(own.mcp, tool, args)).toEqual(viaCli);
    expect(viaHttp.json).toEqual(viaCli);
  });

  it('names an unknown template and vendor alike everywhere', async () => {
    const cli = runHub(
      [
        '-c',
        join(own.root, '.hub.yml'),
        'agent',
        'dispatch-plan',
        'repo-implementr',
        '--vendor',
        'codex',
        '--json',
      ],
      { env: own.env },
    );
    expect(cli.code).toBe(1);
    expect(cli.json().error).toMatchObject({
      code: 'not_found',
      details: { field: 'id', value: 'repo-implementr' },
    });
    expect(cli.json().error.message).toContain("did you mean 'repo-implementer'");
    const http = await call(
      own.web.base,
      'GET',
      '/v3/agents/templates/repo-implementr/dispatch-plan?vendor=codex',
    );
    expect(http.status).toBe(404);
    expect(http.json).toEqual(cli.json());
    const err = await rpcError(
      own.mcp.callTool({
        name: 'hub_agent_dispatch_plan',
        arguments: { id: 'repo-implementr', vendor: 'codex' },
      }),
      -32602,
    );
    expect(err.data).toEqual(cli.json().error);
    const vendor = await call(
      own.web.base,
      'GET',
      '/v3/agents/templates/repo-implementer/dispatch-plan?vendor=claude',
    );
    expect(vendor.status).toBe(400);
    expect(vendor.json.error).toMatchObject({
      details: { field: 'vendor', value: 'claude', rule: 'known_vendor' },
    });
  });
});

describe('agent templates on every surface', () => {
  const manifest = () => join(root, '.hub.yml');
  const cliJson = (args: string[]) => {
    const r = runHub(['-c', manifest(), ...args, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    return r.json();
  };
  const get = async (path: string) => {
    const r = await call(server.base, 'GET', path);
    expect(r.status, r.text).toBe(200);
    return r.json;
  };

  it('lists the catalog alike: CLI agent list, hub_agent_catalog, GET /v3/agents/catalog', async () => {
    const cli = cliJson(['agent', 'list']);
    expect(cli.templates).toHaveLength(10);
    expect(await callJson(mcp, 'hub_agent_catalog', {})).toEqual(cli);
    expect(await get('/v3/agents/catalog')).toEqual(cli);
  });

  it('previews alike, with an answers file inside the workspace', async () => {
    writeFileSync(join(root, 'agent-answers.yml'), 'agent_id: par-impl\nmerge_target: integration\n');
    const cli = cliJson([
      'agent',
      'preview',
      'repo-implementer',
      '--vendor',
      'opencode',
      '--answers-file',
      join(root, 'agent-answers.yml'),
    ]);
    expect(cli.content).toContain('--agent-id par-impl');
    const args = {
      id: 'repo-implementer',
      vendor: 'opencode',
      answers_file: join(root, 'agent-answers.yml'),
    };
    expect(await callJson(mcp, 'hub_agent_preview', args)).toEqual(cli);
    expect(
      await get(
        `/v3/agents/templates/repo-implementer/preview?vendor=opencode&answers_file=${encodeURIComponent(args.answers_file)}`,
      ),
    ).toEqual(cli);
  });

  it('reads an answers file outside the workspace only on the CLI', async () => {
    const outside = join(dir, 'outside-answers.yml');
    writeFileSync(outside, 'agent_id: far\n');
    expect(
      cliJson(['agent', 'preview', 'repo-implementer', '--answers-file', outside]).answers.agent_id,
    ).toBe('far');
    const viaHttp = await call(
      server.base,
      'GET',
      `/v3/agents/templates/repo-implementer/preview?answers_file=${encodeURIComponent(outside)}`,
    );
    expect(viaHttp.status).toBe(400);
    expect(viaHttp.json.error.details).toMatchObject({ field: 'answers_file', rule: 'inside_workspace' });
    const err = await rpcError(
      mcp.callTool({
        name: 'hub_agent_preview',
        arguments: { id: 'repo-implementer', answers_file: outside },
      }),
      -32602,
    );
    expect(err.data).toEqual(viaHttp.json.error);
  });

  it('scaffolds a team overlay alike on the CLI and over HTTP, and HTTP never writes a personal one', async () => {
    const cli = cliJson(['agent', 'overlay', 'init', 'graph-curator', '--mode', 'minimal']);
    const viaHttp = await call(server.base, 'POST', '/v3/agents/templates/repo-enricher/overlay/init', {
      body: { mode: 'minimal' },
    });
    expect(viaHttp.status, viaHttp.text).toBe(200);
    const norm = (v: Record<string, unknown>, id: string) =>
      JSON.parse(JSON.stringify(v).split(id).join('<id>'));
    expect(norm(viaHttp.json, 'repo-enricher')).toEqual(norm(cli, 'graph-curator'));
    const local = await call(server.base, 'POST', '/v3/agents/templates/release-auditor/overlay/init', {
      body: { local: true },
    });
    expect(local.status).toBe(400);
    expect(local.json.error.details).toMatchObject({ field: 'local', rule: 'fixed_by_route' });
    const again = await call(server.base, 'POST', '/v3/agents/templates/repo-enricher/overlay/init', {
      body: {},
    });
    expect(again.status).toBe(409);
    const cliAgain = runHub(['-c', manifest(), 'agent', 'overlay', 'init', 'graph-curator', '--json']);
    expect(norm(again.json, 'repo-enricher')).toEqual(norm(cliAgain.json(), 'graph-curator'));
    const catalog = await get('/v3/agents/catalog');
    const source = (id: string) => catalog.templates.find((t: { id: string }) => t.id === id).source;
    expect([source('graph-curator'), source('repo-enricher'), source('release-auditor')]).toEqual([
      'merged',
      'merged',
      'bundled',
    ]);
  });

  it('refuses an unknown template alike', async () => {
    const bad = runHub(['-c', manifest(), 'agent', 'preview', 'repo-implementor', '--json']);
    expect(bad.code).toBe(1);
    const viaHttp = await call(server.base, 'GET', '/v3/agents/templates/repo-implementor/preview');
    expect(viaHttp.status).toBe(404);
    expect(viaHttp.json).toEqual(bad.json());
    const err = await rpcError(
      mcp.callTool({ name: 'hub_agent_preview', arguments: { id: 'repo-implementor' } }),
      -32602,
    );
    expect(err.data).toEqual(bad.json().error);
  });
});

describe('workspace operations: sync, sources, prune and org on every surface', () => {
  const cli = (args: string[]) => runHub(['-c', join(root, '.hub.yml'), ...args, '--json'], { cwd: root });

  it('plans project sync alike (dry run: nothing cloned or fetched)', async () => {
    const viaCli = cli(['project', 'sync', '--dry-run', '--project', 'platform']);
    expect(viaCli.code, viaCli.stderr).toBe(0);
    expect(viaCli.json()).toMatchObject({ dry_run: true, project: 'platform', counts: { would_clone: 1 } });
    const input = { project_name: 'platform', dry_run: true };
    expect(await callJson(mcp, 'hub_workspace_sync', input)).toEqual(viaCli.json());
    const viaHttp = await call(server.base, 'POST', '/v3/ops/sync', { body: input });
    expect(viaHttp.status, viaHttp.text).toBe(200);
    expect(viaHttp.json).toEqual(viaCli.json());
  });

  it('previews source sync, discovers, and previews prune alike', async () => {
    const sources = cli(['project', 'source', 'sync']);
    expect(sources.code, sources.stderr).toBe(0);
    const viaHttp = await call(server.base, 'POST', '/v3/ops/source-sync', {
      body: { from_manifest: true, apply: false },
    });
    expect(viaHttp.json).toEqual(sources.json());
    const discover = cli([
      'project',
      'source',
      'discover',
      '--provider',
      'local',
      '--path',
      'platform',
      '--project',
      'platform',
    ]);
    expect(discover.code, discover.stderr).toBe(0);
    expect(discover.json().repos.map((r: { identity: string }) => r.identity)).toContain(
      'local://platform/gateway',
    );
    const args = { provider: 'local', path: 'platform', project: 'platform' };
    expect(await callJson(mcp, 'hub_workspace_discover', args)).toEqual(discover.json());
    const viaGet = await call(
      server.base,
      'GET',
      '/v3/ops/discover?provider=local&path=platform&project=platform',
    );
    expect(viaGet.json).toEqual(discover.json());
    // An unmanaged clone under a project's folder: what prune is for (removed again below).
    const stray = join(root, 'platform', 'stray-clone');
    makeGitRepo(stray, { 'README.md': 'stray\n' });
    try {
      const prune = cli(['project', 'repo', 'prune', '--dry-run']);
      expect(prune.code, prune.stderr).toBe(0);
      expect(prune.json().counts.would_remove + prune.json().counts.skipped).toBeGreaterThan(0);
      const viaPrune = await call(server.base, 'POST', '/v3/ops/prune', { body: { dry_run: true } });
      expect(viaPrune.json).toEqual(prune.json());
    } finally {
      rmSync(stray, { recursive: true, force: true });
    }
  });

  it('searches the org index alike, and refuses to materialize what is not indexed alike', async () => {
    writeOrgIndex(root, 'github', 'acme', [
      { name: 'api', description: 'Public API', language: 'Go', topics: ['backend'] },
      { name: 'api-docs', language: 'TypeScript' },
      { name: 'web', language: 'TypeScript' },
    ]);
    const search = cli(['org', 'search', 'api', '--limit', '1']);
    expect(search.code, search.stderr).toBe(0);
    expect(search.json()).toMatchObject({ total: 2, count: 1, next_offset: 1 });
    expect(search.json().repos[0]).toMatchObject({ identity: 'github://acme/api', presence: 'indexed' });
    expect(await callJson(mcp, 'hub_org_search', { q: 'api', limit: 1 })).toEqual(search.json());
    expect((await call(server.base, 'GET', '/v3/ops/org/search?query=api&limit=1')).json).toEqual(
      search.json(),
    );
    const page2 = cli(['org', 'search', 'api', '--limit', '1', '--offset', '1']);
    expect(page2.json()).toMatchObject({
      offset: 1,
      next_offset: null,
      repos: [{ identity: 'github://acme/api-docs' }],
    });
    expect((await call(server.base, 'GET', '/v3/ops/org/search?q=api&limit=1&offset=1')).json).toEqual(
      page2.json(),
    );
    const miss = cli(['repo', 'materialize', 'github://acme/nope']);
    expect(miss.code).toBe(1);
    const viaHttp = await call(server.base, 'POST', '/v3/ops/org/materialize', {
      body: { repo: 'github://acme/nope' },
    });
    expect(viaHttp.status).toBe(404);
    expect(viaHttp.json).toEqual(miss.json());
    const err = await rpcError(
      mcp.callTool({ name: 'hub_org_materialize', arguments: { repo: 'github://acme/nope' } }),
      -32602,
    );
    expect(err.data).toEqual(miss.json().error);
  });
});

describe('the workspace graph on every surface', () => {
  const cases: Array<{
    name: string;
    cli: string[];
    tool: string;
    args: Record<string, unknown>;
    path: string;
  }> = [
    { name: 'graph', cli: ['graph'], tool: 'hub_graph_show', args: {}, path: '/v3/ops/graph' },
    {
      name: 'graph without inference',
      cli: ['graph', '--no-include-inferred'],
      tool: 'hub_graph_show',
      args: { include_inferred: false },
      path: '/v3/ops/graph?include_inferred=false',
    },
    {
      name: 'graph neighbors',
      cli: ['graph', 'neighbors', 'platform/gateway', '--depth', '2'],
      tool: 'hub_graph_neighbors',
      args: { node: 'platform/gateway', depth: 2 },
      path: '/v3/ops/graph/neighbors?node=platform/gateway&depth=2',
    },
    {
      name: 'config graph suggest',
      cli: ['config', 'graph', 'suggest', '--verbose'],
      tool: 'hub_graph_suggest',
      args: { verbose: true },
      path: '/v3/ops/graph/suggest?verbose=true',
    },
    {
      name: 'config graph export',
      cli: ['config', 'graph', 'export', '--format', 'dot'],
      tool: 'hub_graph_export',
      args: { format: 'dot' },
      path: '/v3/ops/graph/export?format=dot',
    },
  ];
  it.each(cases.map((c) => [c.name, c]))('%s', async (_name, c) => {
    const cli = runHub(['-c', join(root, '.hub.yml'), ...c.cli, '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(await callJson(mcp, c.tool, c.args)).toEqual(cli.json());
    const viaHttp = await call(server.base, 'GET', c.path);
    expect(viaHttp.status, viaHttp.text).toBe(200);
    expect(viaHttp.json).toEqual(cli.json());
  });

  it('refuses an unknown node alike', async () => {
    const cli = runHub(['-c', join(root, '.hub.yml'), 'graph', 'neighbors', 'nope', '--json']);
    expect(cli.code).toBe(1);
    const http = await call(server.base, 'GET', '/v3/ops/graph/neighbors?node=nope');
    expect(http.status).toBe(404);
    expect(http.json).toEqual(cli.json());
    await expect(
      mcp.callTool({ name: 'hub_graph_neighbors', arguments: { node: 'nope' } }),
    ).rejects.toMatchObject({
      code: -32602,
      data: cli.json().error,
    });
  });
});

describe('terrain and repository CI on every surface', () => {
  let own: { dir: string; root: string; web: RunningServer; mcp: Client };
  beforeAll(async () => {
    const d = createTempDir('hub-parity-terrain-');
    const r = createDemo(join(d, 'demo')).root;
    const web = await startTestServer({ root: r });
    own = { dir: d, root: r, web, mcp: await connectHub(r) };
  });
  afterAll(async () => {
    await own?.mcp.close();
    await own?.web.close();
    removeTempDir(own.dir);
  });
  /** fetched_at is the moment of each call. */
  const settled = (v: Record<string, unknown>) => ({ ...v, fetched_at: '<time>' });
  const cases: Array<[string, string[], string, Record<string, unknown>, string]> = [
    [
      'workspace terrain (manifest)',
      ['workspace', 'terrain', '--detail', 'manifest', '--limit', '4'],
      'hub_workspace_terrain',
      { detail: 'manifest', limit: 4 },
      '/v3/ops/terrain?detail=manifest&limit=4',
    ],
    [
      'workspace terrain (enriched, pipelines)',
      ['workspace', 'terrain', '--project', 'platform', '--include-pipelines'],
      'hub_workspace_terrain',
      { project: 'platform', include_pipelines: true },
      '/v3/ops/terrain?project=platform&include_pipelines=true',
    ],
    [
      'project repo ci show',
      ['project', 'repo', 'ci', 'show', '-p', 'platform', '-n', 'identity'],
      'hub_repo_ci_show',
      { project: 'platform', repo: 'identity' },
      '/v3/ops/repos/ci?project=platform&repo=identity',
    ],
    [
      'project repo ci detect',
      ['project', 'repo', 'ci', 'detect', '--project', 'storefront'],
      'hub_repo_ci_detect',
      { project: 'storefront' },
      '/v3/ops/repos/ci/detect?project=storefront',
    ],
  ];

  it.each(cases)('%s', async (_name, cli, tool, args, path) => {
    const r = runHub(['-c', join(own.root, '.hub.yml'), ...cli, '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const viaCli = settled(r.json());
    const viaHttp = await call(own.web.base, 'GET', path);
    expect(viaHttp.status, viaHttp.text).toBe(200);
    expect(settled(await callJson(own.mcp, tool, args))).toEqual(viaCli);
    expect(settled(viaHttp.json)).toEqual(viaCli);
  });

  it('records ci alike from the CLI and over HTTP, and names an unknown repository alike', async () => {
    const manifest = join(own.root, '.hub.yml');
    const set = runHub([
      '-c',
      manifest,
      'project',
      'repo',
      'ci',
      'set',
      '-p',
      'platform',
      '-n',
      'gateway',
      '--provider',
      'buildkite',
      '--json',
    ]);
    expect(set.code, set.stdout).toBe(0);
    expect(set.json()).toMatchObject({
      changed: true,
      ci: { provider: 'buildkite' },
      previous: { provider: 'github_actions' },
    });
    const again = await call(own.web.base, 'POST', '/v3/ops/repos/ci', {
      body: { project: 'platform', repo: 'gateway', provider: 'buildkite' },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.json).toEqual({ ...set.json(), changed: false, previous: { provider: 'buildkite' } });
    const miss = runHub([
      '-c',
      manifest,
      'project',
      'repo',
      'ci',
      'show',
      '-p',
      'platform',
      '-n',
      'gatewy',
      '--json',
    ]);
    expect(miss.code).toBe(1);
    const http = await call(own.web.base, 'GET', '/v3/ops/repos/ci?project=platform&repo=gatewy');
    expect(http.status).toBe(404);
    expect(http.json).toEqual(miss.json());
    const err = await rpcError(
      own.mcp.callTool({ name: 'hub_repo_ci_show', arguments: { project: 'platform', repo: 'gatewy' } }),
      -32602,
    );
    expect(err.data).toEqual(miss.json().error);
  });
});

describe('Config Studio previews on every surface', () => {
  // The demo's manifest, and a draft that is valid and one that is not; the CLI takes the same list as JSON.
  const ok = [
    { op: 'set', path: '/workspace/projects/platform/description', value: 'from a draft' },
    { op: 'append', path: '/workspace/projects/platform/tags', value: 'x' },
  ];
  const bad = [{ op: 'remove', path: '/workspace/projects/platform/repos', value: 'ghost' }];
  const cli = (args: string[]) => runHub(['-c', join(root, '.hub.yml'), ...args, '--json']);

  it('previews the manifest alike on the CLI and over HTTP, in every style', async () => {
    for (const operations of [ok, bad])
      for (const style of ['normalized', 'minimal', 'on-disk']) {
        const viaCli = cli([
          'config',
          'preview',
          '--style',
          style,
          '--operations',
          JSON.stringify(operations),
        ]);
        const viaHttp = await call(server.base, 'POST', '/v3/config/hub/preview', {
          body: { style, operations },
        });
        expect(viaHttp.status, viaHttp.text).toBe(200);
        expect(viaHttp.json, style).toEqual(viaCli.json());
      }
  });

  it('previews the application config alike on the CLI and over HTTP', async () => {
    const operations = [{ op: 'set', path: 'state.conflict_retries', value: 2 }];
    const viaCli = cli([
      'appconfig',
      'preview',
      '--style',
      'minimal',
      '--operations',
      JSON.stringify(operations),
    ]);
    const viaHttp = await call(server.base, 'POST', '/v3/config/appconfig/preview', {
      body: { style: 'minimal', operations },
    });
    expect(viaHttp.status, viaHttp.text).toBe(200);
    expect(viaHttp.json).toEqual(viaCli.json());
  });
});

describe('derived working sets on every surface', () => {
  it('creates a derived set alike on the CLI, the MCP tool and the HTTP route', async () => {
    const norm = (v: unknown, name: string) => JSON.parse(JSON.stringify(v).split(name).join('<name>'));
    const viaCli = runHub([
      '-c',
      join(root, '.hub.yml'),
      'project',
      'derived',
      'create',
      '-n',
      'par-cli',
      '--from',
      'platform/identity/api',
      '--include-dependencies',
      '--json',
    ]);
    expect(viaCli.code, viaCli.stdout + viaCli.stderr).toBe(0);
    const viaMcp = await callJson(mcp, 'hub_project_derived_create', {
      name: 'par-mcp',
      project: 'platform',
      repo: 'identity',
      component: 'api',
      include_dependencies: true,
    });
    const viaHttp = await call(server.base, 'POST', '/v3/ops/derived', {
      body: { name: 'par-http', from: 'platform/identity/api', include_dependencies: true },
    });
    expect(viaHttp.status, viaHttp.text).toBe(200);
    expect(norm(viaMcp, 'par-mcp')).toEqual(norm(viaCli.json(), 'par-cli'));
    expect(norm(viaHttp.json, 'par-http')).toEqual(norm(viaCli.json(), 'par-cli'));
    // The same refusal everywhere for a name that is taken.
    const again = await call(server.base, 'POST', '/v3/ops/derived', {
      body: { name: 'par-cli', from: 'platform/identity' },
    });
    expect(again.status).toBe(409);
    const err = await rpcError(
      mcp.callTool({
        name: 'hub_project_derived_create',
        arguments: { name: 'par-cli', project: 'platform', repo: 'identity' },
      }),
      -32000,
    );
    expect(err.data).toEqual(again.json.error);
  });
});
