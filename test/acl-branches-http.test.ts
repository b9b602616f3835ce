// Branches, leases and agents through the http state backend: a hub server keeps the records (and applies each
// write atomically on its own store), the client creates branches in its own checkout. A git failure on the client
// releases the record on the server again.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentHeartbeatOp, agentRegistry } from '../src/ops/agent-ops.js';
import { branchAllocate, branchList } from '../src/ops/branch-ops.js';
import { type AnyOperation, createContext, invoke } from '../src/ops/index.js';
import { leaseAcquire, leaseRelease } from '../src/ops/lease-ops.js';
import { buildWorkspace, git, removeTempDir } from './fixtures/index.js';
import { loggedEvents } from './fixtures/logged-events.js';
import { type RunningServer, startTestServer } from './http-server.js';

const spec = {
  projects: [{ name: 'platform', repos: [{ name: 'identity', files: { 'README.md': '# identity\n' } }] }],
};
let server: ReturnType<typeof buildWorkspace>;
let client: ReturnType<typeof buildWorkspace>;
let srv: RunningServer;
const R = 'platform/identity';

beforeAll(async () => {
  server = buildWorkspace(spec);
  client = buildWorkspace(spec);
  writeFileSync(join(server.root, 'hub.config.yaml'), 'state:\n  backend: local\n');
  // No compare-and-swap retries on the client: a write the server applies never needs one.
  writeFileSync(join(client.root, 'hub.config.yaml'), 'state:\n  conflict_retries: 0\n');
  srv = await startTestServer({ root: server.root });
});
afterAll(async () => {
  await srv?.close();
  removeTempDir(server.root);
  removeTempDir(client.root);
});

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever result the operation returned.
const run = (op: AnyOperation, input: Record<string, unknown>): Promise<any> => {
  const env = { HUB_CACHE_DIR: 'off', HUB_STATE_BACKEND: 'http', HUB_STATE_URL: srv.base };
  return invoke(op, createContext({ cwd: client.root, env, definition: client.manifestPath }), input);
};
const onServer = <T>(name: string): T =>
  JSON.parse(readFileSync(join(server.root, '.hub', `${name}.json`), 'utf8'));
const clientRepo = () => client.repoDirs[R]!;
const serverRepo = () => server.repoDirs[R]!;

describe('through a hub server', () => {
  it('acquires with --allocate: records on the server, the branch in the client checkout', async () => {
    const r = await run(leaseAcquire, { repository: R, agent_id: 'a1', task_id: 'T-1', allocate: true });
    expect(r).toMatchObject({ acquired: true, head: 'created', lease: { branch: 'agent/T-1' } });
    expect(onServer<{ allocations: unknown[] }>('branches/platform~identity').allocations).toHaveLength(1);
    expect(onServer<{ leases: unknown[] }>('leases/platform~identity').leases).toHaveLength(1);
    expect(onServer<{ agent: { agent_id: string } }>('agents/a1').agent.agent_id).toBe('a1');
    expect(git(clientRepo(), ['rev-parse', 'agent/T-1'])).toBe(git(clientRepo(), ['rev-parse', 'HEAD']));
    expect(git(serverRepo(), ['branch', '--list', 'agent/T-1'])).toBe('');
  });

  it('lists the registry and renews the agent through the server', async () => {
    const hb = await run(agentHeartbeatOp, { agent_id: 'a1' });
    expect(hb.renewed.leases).toHaveLength(1);
    const { agents } = await run(agentRegistry, {});
    expect(agents).toHaveLength(1);
    expect(agents[0]).toMatchObject({ agent_id: 'a1', live: true });
    expect(agents[0].holds.leases).toHaveLength(1);
    expect(agents[0].holds.branches).toHaveLength(1);
  });

  it('releases the record on the server again when git refuses the branch on the client', async () => {
    git(clientRepo(), ['branch', 'agent/dir']);
    const e = await run(branchAllocate, {
      repository: R,
      agent_id: 'a2',
      task_id: 'T-2',
      name: 'agent/dir/x',
    }).then(
      () => undefined,
      (err: unknown) => err as { code: string; details: Record<string, unknown> },
    );
    expect(e).toMatchObject({ code: 'refused', details: { rule: 'git_branch' } });
    const stored = onServer<{
      allocations: Array<{ name: string; status: string; release_reason?: string }>;
    }>('branches/platform~identity').allocations.find((a) => a.name === 'agent/dir/x');
    expect(stored).toMatchObject({
      status: 'released',
      release_reason: expect.stringMatching(/^git_failed: /),
    });
    const active = await run(branchList, {});
    expect(active.branches.map((b: { name: string }) => b.name)).toEqual(['agent/T-1']);
  });

  it('releases the lease and its branch, with the events on the server', async () => {
    const r = await run(leaseRelease, {
      repository: R,
      agent_id: 'a1',
      task_id: 'T-1',
      release_branch: true,
    });
    expect(r).toMatchObject({ released: true, branch: { released: true } });
    const kinds = loggedEvents(join(server.root, '.hub')).map((e) => `${e.source}:${e.kind}`);
    expect(kinds).toEqual([
      'acl:BranchAllocated',
      'acl:LeaseAcquired',
      'acl:BranchAllocated',
      'acl:BranchReleased',
      'acl:LeaseReleased',
      'acl:BranchReleased',
    ]);
  });
});
