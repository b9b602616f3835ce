import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { isUnlisted, loadOperations } from '../src/ops/index.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { callJson, connectHub, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';

const OPERATIONS = await loadOperations();

const INVALID_PARAMS = -32602;
const SERVER_ERROR = -32000;

let dir: string;
let root: string;
let manifest: string;
let client: Client;
let tools: Tool[];

beforeAll(async () => {
  dir = createTempDir('hub-mcp-tools-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
  mkdirSync(join(root, 'platform/identity/tools/cli'), { recursive: true });
  client = await connectHub(root);
  tools = (await client.listTools()).tools;
});
afterAll(async () => {
  await client?.close();
  removeTempDir(dir);
});

const mcpOps = OPERATIONS.filter((op) => op.mcp);

describe('tools/list', () => {
  it('serves every registry operation with an MCP binding, under its spec name', () => {
    expect(tools.map((t) => t.name)).toEqual(mcpOps.map((op) => op.mcp!.tool));
    for (const name of [
      'hub_component_list',
      'hub_component_show',
      'hub_component_resolve',
      'hub_component_graph',
      'hub_component_detect',
      'hub_component_init',
      'hub_objective_list',
      'hub_objective_upsert',
      'hub_objective_edit',
      'hub_approval_request',
      'hub_approval_list',
      'hub_approval_resolve',
      'hub_handoff_list',
      'hub_handoff_create',
      'hub_handoff_claim',
      'hub_handoff_complete',
      'hub_events',
      'hub_session_begin',
      'hub_session_digest',
      'hub_session_update',
      'hub_context_resume',
      'hub_version_check',
      'hub_version_upgrade',
    ])
      expect(tools.map((t) => t.name)).toContain(name);
  });

  it('turns attributes into hints and the zod input into a JSON Schema object', () => {
    for (const op of mcpOps) {
      const t = tools.find((x) => x.name === op.mcp!.tool)!;
      // As the MCP specification reads hints: readOnlyHint defaults to false, destructiveHint to true,
      // idempotentHint to false, and the last two mean something only for a tool that writes.
      const a = t.annotations ?? {};
      expect(a.readOnlyHint ?? false, t.name).toBe(op.attributes.readOnly);
      if (op.attributes.readOnly) expect(a, t.name).toEqual({ readOnlyHint: true });
      else {
        expect(a.destructiveHint, t.name).toBe(op.attributes.destructive);
        expect(a.idempotentHint ?? false, t.name).toBe(op.attributes.idempotent);
      }
      expect(t.inputSchema.type).toBe('object');
      const listed = Object.entries(op.input.shape as Record<string, Parameters<typeof isUnlisted>[0]>)
        .filter(([, field]) => !isUnlisted(field))
        .map(([key]) => key);
      expect(Object.keys(t.inputSchema.properties ?? {}).sort()).toEqual(listed.sort());
      expect(JSON.stringify(t.inputSchema)).not.toContain('$schema');
      expect(t.description!.length, t.name).toBeLessThan(220);
      expect(t.description).toContain(op.summary);
    }
    const graph = tools.find((t) => t.name === 'hub_component_graph')!;
    expect(graph.inputSchema.required).toEqual(['component']);
  });

  it('leaves out unlisted fields and hostile-input guards, and a call may still send them', async () => {
    const props = (name: string) =>
      Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {});
    expect(props('hub_workspace_search')).not.toContain('q');
    expect(props('hub_org_search')).not.toContain('query');
    expect(props('hub_workspace_discover')).not.toContain('project_name');
    expect(props('hub_handoff_create')).not.toEqual(
      expect.arrayContaining(['status', 'created_at', 'events']),
    );
    expect(props('hub_agent_create')).not.toContain('prompt');
    for (const t of tools) {
      const json = JSON.stringify(t.inputSchema);
      for (const m of json.matchAll(/"(maxLength|maxItems|maximum)":(\d+)/g))
        expect(Number(m[2]), `${t.name} ${m[1]}`).toBeLessThan(
          { maxLength: 100, maxItems: 50, maximum: 1000 }[m[1]!]!,
        );
    }
    // The alias still works, and the ceiling a page no longer shows is still held.
    const viaQuery = await callJson(client, 'hub_workspace_search', { query: 'identity' });
    expect(await callJson(client, 'hub_workspace_search', { q: 'identity' })).toEqual(viaQuery);
    await rpcError(
      client.callTool({ name: 'hub_component_list', arguments: { limit: 5000 } }),
      INVALID_PARAMS,
    );
  });

  it('matches the snapshot (names, hints, input properties)', () => {
    const shape = tools.map((t) => ({
      name: t.name,
      hints: (t.annotations?.readOnlyHint
        ? ['readOnly']
        : [
            'writes',
            t.annotations?.idempotentHint ? 'idempotent' : '',
            t.annotations?.destructiveHint ? 'destructive' : '',
          ]
      )
        .filter(Boolean)
        .join(','),
      properties: Object.keys(t.inputSchema.properties ?? {}),
      required: t.inputSchema.required ?? [],
    }));
    expect(shape).toMatchSnapshot();
  });
});

type Args = Record<string, unknown>;
interface Case {
  tool: string;
  valid: Args | (() => Args);
  invalid: Args;
  check?: (result: Record<string, unknown>) => void;
}

let approvalId = '';

/** One valid and one invalid call per ACTIVE tool, in an order that lets stateful tools build on each other. */
const CASES: Case[] = [
  {
    tool: 'hub_component_list',
    valid: { project: 'platform' },
    invalid: { project: 7 },
    check: (r) => expect((r.components as unknown[]).length).toBe(9),
  },
  {
    tool: 'hub_component_show',
    valid: { component: 'gateway' },
    invalid: { component: 'no-such-component' },
    check: (r) => expect((r.component as { id: string }).id).toBe('platform/gateway/gateway'),
  },
  {
    tool: 'hub_component_resolve',
    valid: { path: 'platform/identity/services/api/plugins/auth/oauth.go' },
    invalid: {},
    check: (r) => expect(r.id).toBe('platform/identity/auth-plugin'),
  },
  {
    tool: 'hub_component_graph',
    valid: { component: 'storefront', depth: 2 },
    invalid: { component: 'storefront', depth: 'deep' },
    check: (r) => expect(r.depth).toBe(2),
  },
  {
    tool: 'hub_component_detect',
    valid: { project: 'platform', repo: 'identity' },
    invalid: { project: 'no-such-project' },
    check: (r) => expect(r.applied).toBe(false),
  },
  {
    tool: 'hub_component_init',
    valid: { path: 'platform/identity/tools/cli', repo: 'identity', project: 'platform' },
    invalid: { name: 'cli' },
    check: (r) => expect(r.id).toBe('platform/identity/cli'),
  },
  {
    tool: 'hub_repo_search',
    valid: { query: 'gateway' },
    invalid: { query: '' },
    check: (r) => expect(r.total).toBeGreaterThan(0),
  },
  {
    tool: 'hub_workspace_repos_list',
    valid: { limit: 2 },
    invalid: { limit: 0 },
    check: (r) => expect((r.repos as unknown[]).length).toBe(2),
  },
  {
    tool: 'hub_session_begin',
    valid: {},
    invalid: { project_name: 'no-such-project' },
    check: (r) => expect(r.session).toBeTruthy(),
  },
  { tool: 'hub_session_digest', valid: { project: 'platform' }, invalid: { advance: 'yes' } },
  {
    tool: 'hub_objective_upsert',
    valid: { id: 'mcp-obj', title: 'MCP objective', status: 'in_progress', next: 'write tests' },
    invalid: { title: 42 },
    check: (r) => expect(r.created).toBe(true),
  },
  {
    tool: 'hub_objective_edit',
    valid: { id: 'mcp-obj', field: 'acceptance', value: 'tests pass' },
    invalid: { field: 'acceptance', value: 'no id' },
    check: (r) => expect((r.objective as { acceptance: string }).acceptance).toBe('tests pass'),
  },
  {
    tool: 'hub_objective_list',
    valid: { status: 'in_progress' },
    invalid: { status: 'someday' },
    check: (r) => expect((r.objectives as Array<{ id: string }>).map((o) => o.id)).toContain('mcp-obj'),
  },
  {
    tool: 'hub_session_update',
    valid: { active_objective_id: 'mcp-obj', notes: 'from MCP' },
    invalid: { notes: 3 },
  },
  {
    tool: 'hub_context_resume',
    valid: { query: 'mcp' },
    invalid: { format: 'long' },
    check: (r) => expect(r.found).toBe(true),
  },
  {
    tool: 'hub_handoff_create',
    valid: { id: 'h-mcp', title: 'Take over the MCP work', created_by: 'agent-a' },
    invalid: { title: 'x', payload: 'not an object' },
    check: (r) => expect(r.status).toBe('open'),
  },
  {
    tool: 'hub_handoff_list',
    valid: { status: 'open' },
    invalid: { status: 'lost' },
    check: (r) => expect((r.handoffs as Array<{ id: string }>).map((h) => h.id)).toContain('h-mcp'),
  },
  {
    tool: 'hub_handoff_claim',
    valid: { id: 'h-mcp', by: 'agent-b', ttl: '30m' },
    invalid: { id: 'no-such-handoff', by: 'agent-b' },
    check: (r) => expect((r.handoff as { claimed_by: string }).claimed_by).toBe('agent-b'),
  },
  {
    tool: 'hub_handoff_complete',
    valid: { id: 'h-mcp', by: 'agent-b', note: 'done' },
    invalid: { id: 'h-mcp' },
    check: (r) => expect((r.handoff as { status: string }).status).toBe('completed'),
  },
  {
    tool: 'hub_approval_request',
    valid: { action: 'deploy gateway', idempotency_key: 'mcp-1' },
    invalid: { payload: [1, 2] },
    check: (r) => {
      approvalId = (r.request as { id: string }).id;
    },
  },
  {
    tool: 'hub_approval_list',
    valid: {},
    invalid: { status: 'decided' },
    check: (r) => expect((r.requests as Array<{ id: string }>).map((q) => q.id)).toContain(approvalId),
  },
  {
    tool: 'hub_approval_resolve',
    valid: () => ({ id: approvalId, decision: 'approved', by: 'a person' }),
    invalid: { id: 'x', decision: 'maybe' },
    check: (r) => expect((r.request as { status: string }).status).toBe('approved'),
  },
  {
    tool: 'hub_events',
    valid: {},
    invalid: { since: 'yesterday' },
    check: (r) => expect((r.events as unknown[]).length).toBeGreaterThan(0),
  },
];

describe('every ACTIVE tool, valid and invalid input', () => {
  for (const c of CASES) {
    it(c.tool, async () => {
      const args = typeof c.valid === 'function' ? c.valid() : c.valid;
      const r = await callJson(client, c.tool, args);
      c.check?.(r);
      const err = await rpcError(client.callTool({ name: c.tool, arguments: c.invalid }), INVALID_PARAMS);
      expect(['validation', 'not_found', 'ambiguous']).toContain((err.data as { code: string }).code);
    });
  }

  it('has a case for every ACTIVE tool; tools of later issues get a generic pair of calls', async () => {
    const active = mcpOps.filter((op) => op.gate === 'active').map((op) => op.mcp!.tool);
    const covered = new Set(CASES.map((c) => c.tool));
    for (const name of active.filter((n) => !covered.has(n))) {
      const op = mcpOps.find((o) => o.mcp!.tool === name)!;
      await rpcError(client.callTool({ name, arguments: { __not_a_field__: true } }), INVALID_PARAMS);
      const required = tools.find((t) => t.name === name)!.inputSchema.required ?? [];
      if (required.length === 0 && !op.attributes.destructive) {
        // Whatever {} gives, it is a result or a hub error, never an internal one.
        await client.callTool({ name, arguments: {} }).catch((err: { code: number }) => {
          expect(err.code, name).not.toBe(-32603);
        });
      }
    }
    expect(covered.size).toBe(CASES.length);
  });

  it('answers an unknown tool, a missing component and a bad graph request with -32602', async () => {
    await rpcError(client.callTool({ name: 'hub_no_such_tool', arguments: {} }), INVALID_PARAMS);
    const notFound = await rpcError(
      client.callTool({ name: 'hub_component_show', arguments: { component: 'ghost' } }),
      INVALID_PARAMS,
    );
    expect(notFound.message).toContain('ghost');
    expect(notFound.data).toMatchObject({ code: 'not_found' });
    const missing = await rpcError(
      client.callTool({ name: 'hub_component_graph', arguments: { direction: 'out' } }),
      INVALID_PARAMS,
    );
    expect(missing.message).toContain('component');
    await rpcError(
      client.callTool({
        name: 'hub_component_graph',
        arguments: { component: 'storefront', direction: 'up' },
      }),
      INVALID_PARAMS,
    );
  });

  it('maps refusals and conflicts through the one error table (-32000), not -32602', async () => {
    await callJson(client, 'hub_handoff_create', { id: 'h-held', title: 'held' });
    await callJson(client, 'hub_handoff_claim', { id: 'h-held', by: 'agent-a', ttl: '1h' });
    const refused = await rpcError(
      client.callTool({ name: 'hub_handoff_claim', arguments: { id: 'h-held', by: 'agent-b' } }),
      SERVER_ERROR,
    );
    expect(refused.message).toContain('agent-a');
    expect(refused.data).toMatchObject({ code: 'refused' });
  });
});

describe('same input, same result as the CLI --json', () => {
  const cli = (args: string[]) => {
    const r = runHub(['-c', manifest, ...args, '--json']);
    expect(r.code, r.stderr).toBe(0);
    return r.json();
  };
  const stamps = (v: unknown) =>
    JSON.parse(JSON.stringify(v).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>'));

  it('component list, show, resolve and graph', async () => {
    expect(await callJson(client, 'hub_component_list', { project: 'storefront' })).toEqual(
      cli(['component', 'list', '--project', 'storefront']),
    );
    expect(await callJson(client, 'hub_component_show', { component: 'api' })).toEqual(
      cli(['component', 'show', 'api']),
    );
    const path = 'platform/identity/services/api/plugins/auth/main.go';
    expect(await callJson(client, 'hub_component_resolve', { path })).toEqual(
      cli(['component', 'resolve', path]),
    );
    expect(await callJson(client, 'hub_component_graph', { component: 'storefront', depth: 2 })).toEqual(
      cli(['component', 'graph', 'storefront', '--depth', '2']),
    );
  });

  it('objective upsert and list', async () => {
    const viaMcp = await callJson(client, 'hub_objective_upsert', {
      id: 'parity',
      title: 'Parity',
      status: 'pending',
      repos: ['platform/identity'],
      left_off: 'the tests',
    });
    const viaCli = cli([
      'context',
      'objective',
      'set',
      '--id',
      'parity-cli',
      '--title',
      'Parity',
      '--status',
      'pending',
      '--repos',
      'platform/identity',
      '--left-off',
      'the tests',
    ]);
    expect(stamps({ ...viaCli, objective: { ...viaCli.objective, id: 'parity' } })).toEqual(stamps(viaMcp));
    expect(await callJson(client, 'hub_objective_list', {})).toEqual(cli(['context', 'objective', 'list']));
  });

  it('events', async () => {
    expect(await callJson(client, 'hub_events', {})).toEqual(cli(['context', 'events']));
  });

  it('errors: the same code and message as the CLI error body', async () => {
    const err = await rpcError(
      client.callTool({ name: 'hub_component_show', arguments: { component: 'ghost' } }),
      INVALID_PARAMS,
    );
    const r = runHub(['-c', manifest, 'component', 'show', 'ghost', '--json']);
    expect(r.code).toBe(1);
    expect(err.data).toEqual(r.json().error);
  });
});
