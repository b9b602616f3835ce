// Branches, leases and agents on the surfaces: the bindings the spec names, the routes in the OpenAPI document,
// GET (and the CLI's listings) never writing even with a lapsed lease and a silent agent in the store, and the
// acl events in `context events` and GET /v3/ops/events.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOperations } from '../src/ops/index.js';
import { buildWorkspace, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';

const OPERATIONS = await loadOperations();
let ws: ReturnType<typeof buildWorkspace>;
let web: RunningServer;

const hub = (...args: string[]) => {
  const r = runHub(['-c', ws.manifestPath, ...args, '--json']);
  expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
  return r.json();
};

/** Every file under `.hub/` as path -> SHA-256. */
function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  const stack = [join(ws.root, '.hub')];
  while (stack.length) {
    const d = stack.pop()!;
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) stack.push(p);
      else out[relative(ws.root, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  }
  return out;
}

beforeAll(async () => {
  ws = buildWorkspace({
    projects: [{ name: 'platform', repos: [{ name: 'identity', files: { 'README.md': '# identity\n' } }] }],
  });
  writeFileSync(join(ws.root, 'hub.config.yaml'), 'state:\n  backend: local\n');
  hub(
    'lease',
    'acquire',
    '--repository',
    'platform/identity',
    '--agent-id',
    'a1',
    '--task-id',
    'T-1',
    '--allocate',
  );
  hub(
    'lease',
    'acquire',
    '--repository',
    'platform/identity',
    '--agent-id',
    'a2',
    '--task-id',
    'T-2',
    '--ttl',
    '1h',
  );
  // A lapsed lease and a silent agent: what a listing must show as expired without writing it.
  const leases = join(ws.root, '.hub/leases/platform~identity.json');
  const doc = JSON.parse(readFileSync(leases, 'utf8'));
  doc.leases[0].expires_at = '2000-01-01T00:00:00.000Z';
  writeFileSync(leases, JSON.stringify(doc));
  const agent = join(ws.root, '.hub/agents/a1.json');
  const a = JSON.parse(readFileSync(agent, 'utf8'));
  a.agent.expires_at = '2000-01-01T00:00:00.000Z';
  writeFileSync(agent, JSON.stringify(a));
  web = await startTestServer({ root: ws.root });
});
afterAll(async () => {
  await web?.close();
  removeTempDir(ws.root);
});

describe('bindings', () => {
  it('has the commands the spec names, and tools and routes for branch, lease and agent', () => {
    const byId = new Map(OPERATIONS.map((op) => [op.id, op]));
    const want: Record<string, [string, string, string]> = {
      'branch.allocate': ['branch allocate', 'hub_branch_allocate', 'POST /v3/ops/branches'],
      'branch.list': ['branch list', 'hub_branch_list', 'GET /v3/ops/branches'],
      'branch.release': ['branch release', 'hub_branch_release', 'POST /v3/ops/branches/release'],
      'branch.cleanup': ['branch cleanup', 'hub_branch_cleanup', 'POST /v3/ops/branches/cleanup'],
      'lease.acquire': ['lease acquire', 'hub_lease_acquire', 'POST /v3/ops/leases'],
      'lease.heartbeat': ['lease heartbeat', 'hub_lease_heartbeat', 'POST /v3/ops/leases/heartbeat'],
      'lease.release': ['lease release', 'hub_lease_release', 'POST /v3/ops/leases/release'],
      'lease.list': ['lease list', 'hub_lease_list', 'GET /v3/ops/leases'],
      'agent.registry': ['agent registry', 'hub_agent_registry', 'GET /v3/ops/agents'],
      'agent.heartbeat': ['agent heartbeat', 'hub_agent_heartbeat', 'POST /v3/ops/agents/heartbeat'],
    };
    for (const [id, [cli, tool, route]] of Object.entries(want)) {
      const op = byId.get(id);
      expect(op, id).toBeDefined();
      expect(op!.cli?.command).toBe(cli);
      expect(op!.mcp?.tool).toBe(tool);
      expect(op!.http?.map((h) => `${h.method} ${h.route}`)).toEqual([route]);
      expect(op!.attributes.readOnly, id).toBe(route.startsWith('GET '));
    }
  });

  it('lists the routes in the OpenAPI document', async () => {
    const doc = (await call(web.base, 'GET', '/v3/openapi.json')).json;
    for (const [path, method] of [
      ['/v3/ops/branches', 'post'],
      ['/v3/ops/branches', 'get'],
      ['/v3/ops/branches/release', 'post'],
      ['/v3/ops/branches/cleanup', 'post'],
      ['/v3/ops/leases', 'post'],
      ['/v3/ops/leases', 'get'],
      ['/v3/ops/leases/heartbeat', 'post'],
      ['/v3/ops/leases/release', 'post'],
      ['/v3/ops/agents', 'get'],
      ['/v3/ops/agents/heartbeat', 'post'],
    ] as const)
      expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });
});

describe('listings never write', () => {
  it('GET routes and CLI listings leave .hub/ byte-identical, showing the lapsed lease expired', async () => {
    const before = snapshot();
    const gets = [
      '/v3/ops/branches',
      '/v3/ops/branches?status=all&repository=platform/identity',
      '/v3/ops/branches?agent_id=a1',
      '/v3/ops/leases',
      '/v3/ops/leases?status=all',
      '/v3/ops/leases?status=expired&repository=.',
      '/v3/ops/agents',
      '/v3/ops/agents?live=true',
      '/v3/ops/events',
    ];
    for (const path of gets) {
      const r = await call(web.base, 'GET', path, { headers: { origin: 'https://evil.example' } });
      expect(r.status, `${path}: ${r.text.slice(0, 200)}`).toBeLessThan(500);
      expect(snapshot(), `GET ${path} changed state`).toEqual(before);
    }
    const expired = (await call(web.base, 'GET', '/v3/ops/leases?status=expired')).json.leases;
    expect(expired.map((l: { task_id: string; status: string }) => [l.task_id, l.status])).toEqual([
      ['T-1', 'expired'],
    ]);
    const agents = (await call(web.base, 'GET', '/v3/ops/agents')).json.agents;
    expect(agents.map((x: { agent_id: string; live: boolean }) => [x.agent_id, x.live])).toEqual([
      ['a1', false],
      ['a2', true],
    ]);
    // a1 is silent and its lease lapsed: it still holds its branch (allocations do not expire).
    expect(agents[0].holds.leases).toEqual([]);
    expect(agents[0].holds.branches.map((b: { name: string }) => b.name)).toEqual(['agent/T-1']);
    hub('lease', 'list', '--status', 'all');
    hub('branch', 'list');
    hub('agent', 'registry');
    expect(snapshot()).toEqual(before);
  });

  it('records the lapse at the next write of the document, and events show the acl kinds', async () => {
    hub('lease', 'acquire', '--repository', 'platform/identity', '--agent-id', 'a3', '--task-id', 'T-1');
    const events = (await call(web.base, 'GET', '/v3/ops/events')).json.events as Array<{
      source: string;
      kind: string;
    }>;
    const acl = events.filter((e) => e.source === 'acl').map((e) => e.kind);
    expect(acl).toEqual([
      'BranchAllocated',
      'LeaseAcquired',
      'LeaseAcquired',
      'LeaseExpired',
      'LeaseAcquired',
    ]);
    expect(
      hub('context', 'events').events.filter((e: { source: string }) => e.source === 'acl'),
    ).toHaveLength(5);
  });
});
