import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorkspace, git, removeTempDir } from '../../test/fixtures/index.js';
import { loggedEvents } from '../../test/fixtures/logged-events.js';
import { HubError } from '../infra/index.js';
import { agentHeartbeatOp, agentRegistry } from './agent-ops.js';
import { branchList } from './branch-ops.js';
import { createContext } from './create-context.js';
import { invoke } from './invoke.js';
import { leaseAcquire, leaseHeartbeat, leaseList, leaseRelease } from './lease-ops.js';
import type { AnyOperation } from './registry.js';

const ws = buildWorkspace({
  projects: [{ name: 'platform', repos: [{ name: 'identity', files: { 'README.md': '# identity\n' } }] }],
});
writeFileSync(join(ws.root, 'hub.config.yaml'), 'state:\n  backend: local\n');
const repo = ws.repoDirs['platform/identity']!;
afterAll(() => removeTempDir(ws.root));

let clock = new Date('2026-01-01T00:00:00Z');
const minutes = (n: number) => {
  clock = new Date(clock.getTime() + n * 60_000);
};
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever result the operation returned.
const run = (op: AnyOperation, input: Record<string, unknown>): Promise<any> =>
  invoke(
    op,
    createContext({
      cwd: ws.root,
      env: { HUB_CACHE_DIR: 'off' },
      definition: ws.manifestPath,
      now: () => clock,
    }),
    input,
  );
const fail = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, 'expected a failure').toBeInstanceOf(HubError);
  return e as HubError;
};
const R = 'platform/identity';

describe('lease acquire, heartbeat, release, list', () => {
  it('acquires with --allocate: the branch is allocated and created, the lease is on it', async () => {
    const r = await run(leaseAcquire, {
      repository: R,
      agent_id: 'a1',
      task_id: 'T-1',
      allocate: true,
      ttl: '10m',
    });
    expect(r).toMatchObject({
      acquired: true,
      head: 'created',
      allocation: { name: 'agent/T-1', agent_id: 'a1' },
      lease: { branch: 'agent/T-1', task_id: 'T-1', expires_at: '2026-01-01T00:10:00.000Z' },
    });
    expect(r.lease.branch_id).toBe(r.allocation.branch_id);
    expect(git(repo, ['branch', '--list', 'agent/T-1'])).toContain('agent/T-1');
  });

  it('refuses another agent with the holder, before making any branch', async () => {
    const e = await fail(
      run(leaseAcquire, {
        repository: R,
        agent_id: 'a2',
        task_id: 'T-1',
        allocate: true,
        branch: 'agent/other',
      }),
    );
    expect(e.httpStatus).toBe(409);
    expect(e.details).toMatchObject({ field: 'task_id', holder: { agent_id: 'a1', branch: 'agent/T-1' } });
    expect(git(repo, ['branch', '--list', 'agent/other'])).toBe('');
  });

  it('heartbeats for the holder, and an expired lease is taken over', async () => {
    minutes(8);
    const hb = await run(leaseHeartbeat, { repository: R, agent_id: 'a1', task_id: 'T-1' });
    expect(hb.lease.expires_at).toBe('2026-01-01T00:18:00.000Z');
    minutes(11);
    const listed = await run(leaseList, { repository: R, status: 'all' });
    expect(listed.leases.map((l: { status: string }) => l.status)).toEqual(['expired']);
    const taken = await run(leaseAcquire, { repository: R, agent_id: 'a2', task_id: 'T-1' });
    expect(taken).toMatchObject({
      acquired: true,
      took_over: hb.lease.lease_id,
      allocation: null,
      head: null,
    });
  });

  it('releases with --release-branch, and an agent heartbeat renews what is left', async () => {
    await run(leaseAcquire, {
      repository: R,
      agent_id: 'a3',
      task_id: 'T-3',
      allocate: true,
      description: 'Do it',
    });
    const r = await run(leaseRelease, {
      repository: R,
      agent_id: 'a3',
      task_id: 'T-3',
      release_branch: true,
    });
    expect(r).toMatchObject({
      released: true,
      lease: { status: 'released' },
      branch: { released: true, allocation: { name: 'agent/T-3-do-it', status: 'released' } },
    });
    await run(leaseAcquire, { repository: R, agent_id: 'a3', task_id: 'T-4', ttl: '5m' });
    minutes(4);
    const hb = await run(agentHeartbeatOp, { agent_id: 'a3' });
    expect(hb.renewed.leases.map((l: { task_id: string }) => l.task_id)).toEqual(['T-4']);
    minutes(4);
    const live = await run(leaseList, { agent_id: 'a3' });
    expect(live.leases.map((l: { task_id: string }) => l.task_id)).toEqual(['T-4']);
  });

  it('lists in the registry what each agent holds', async () => {
    const { agents } = await run(agentRegistry, {});
    const byId = Object.fromEntries(agents.map((a: { agent_id: string }) => [a.agent_id, a]));
    expect(byId.a1.holds.branches.map((b: { name: string }) => b.name)).toEqual(['agent/T-1']);
    expect(byId.a1.holds.leases).toEqual([]);
    expect(byId.a2.holds.leases.map((l: { task_id: string }) => l.task_id)).toEqual(['T-1']);
    expect(byId.a3.holds.leases.map((l: { task_id: string }) => l.task_id)).toEqual(['T-4']);
    expect(byId.a3.holds.branches).toEqual([]);
  });

  it('records the lifecycle as acl events of the documented kinds', () => {
    const events = loggedEvents(join(ws.root, '.hub')) as Array<{
      source: string;
      kind: string;
    }>;
    expect(events.every((e) => e.source === 'acl')).toBe(true);
    expect(events.map((e) => e.kind)).toEqual([
      'BranchAllocated',
      'LeaseAcquired',
      'LeaseExpired',
      'LeaseAcquired',
      'BranchAllocated',
      'LeaseAcquired',
      'LeaseReleased',
      'BranchReleased',
      'LeaseAcquired',
    ]);
  });

  it('gives clear errors for bad input', async () => {
    const ttl = await fail(
      run(leaseAcquire, { repository: R, agent_id: 'a1', task_id: 'x', ttl: '5 minutes' }),
    );
    expect(ttl.details).toMatchObject({ field: 'ttl', value: '5 minutes' });
    const agent = await fail(run(leaseAcquire, { repository: R, agent_id: '../a', task_id: 'x' }));
    expect(agent.details).toMatchObject({ field: 'agent_id' });
    const unknown = await fail(run(leaseAcquire, { repository: 'nope/x', agent_id: 'a1', task_id: 'x' }));
    expect(unknown.code).toBe('not_found');
    const noBranch = await fail(
      run(leaseAcquire, { repository: R, agent_id: 'a1', task_id: 'x', branch: 'agent/none' }),
    );
    expect(noBranch.details).toMatchObject({ field: 'branch', rule: 'allocated' });
    expect((await run(branchList, { agent_id: 'a1' })).branches).toHaveLength(1);
  });
});
