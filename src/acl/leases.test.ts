import { describe, expect, it } from 'vitest';
import { readRecordedEvents } from '../coord/index.js';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { createMemoryStore } from '../state/index.js';
import { agentHeartbeat } from './agents-heartbeat.js';
import { agentsWithHoldings } from './agents-holdings.js';
import { recordAllocation } from './branches.js';
import { acquireLease, heartbeatLease, readLeases, releaseLease } from './leases.js';
import type { RepoTarget } from './repository-ref.js';

const repo: RepoTarget = { id: 'platform/identity', key: 'platform~identity', root: undefined, self: false };
const web: RepoTarget = { id: 'platform/web', key: 'platform~web', root: undefined, self: false };

function setup() {
  let now = new Date('2026-01-01T00:00:00Z');
  const store = createMemoryStore();
  const deps = { store, retries: 1, now: () => now };
  const tick = (minutes: number) => {
    now = new Date(now.getTime() + minutes * 60_000);
  };
  const events = async () => await readRecordedEvents(store);
  return { store, deps, tick, events };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as RefusedError,
  );

describe('leases', () => {
  it('holds one live lease per repository and task, refusing another agent with the holder', async () => {
    const { deps, events } = setup();
    const a = await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 'T-1', ttl: '10m' });
    expect(a).toMatchObject({
      acquired: true,
      lease: {
        status: 'active',
        ttl: '10m',
        expires_at: '2026-01-01T00:10:00.000Z',
        branch: null,
        agent_id: 'a1',
      },
    });
    const e = await failure(acquireLease(deps, { repository: repo, agent_id: 'a2', task_id: 'T-1' }));
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.httpStatus).toBe(409);
    expect(e.details).toMatchObject({
      field: 'task_id',
      rule: 'one_live_lease_per_repository_task',
      holder: { agent_id: 'a1', lease_id: a.lease.lease_id, expires_at: '2026-01-01T00:10:00.000Z' },
    });
    // Another task, or the same task in another repository, is another lease.
    expect((await acquireLease(deps, { repository: repo, agent_id: 'a2', task_id: 'T-2' })).acquired).toBe(
      true,
    );
    expect((await acquireLease(deps, { repository: web, agent_id: 'a2', task_id: 'T-1' })).acquired).toBe(
      true,
    );
    expect((await events()).map((x) => [x.source, x.kind])).toEqual([
      ['acl', 'LeaseAcquired'],
      ['acl', 'LeaseAcquired'],
      ['acl', 'LeaseAcquired'],
    ]);
  });

  it('renews for the same agent, heartbeats for the holder only, and lapses at read time', async () => {
    const { deps, tick, store } = setup();
    const first = await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 't', ttl: '10m' });
    tick(5);
    const renewed = await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 't', ttl: '20m' });
    expect(renewed).toMatchObject({ acquired: false, lease: { lease_id: first.lease.lease_id, ttl: '20m' } });
    expect(renewed.lease.expires_at).toBe('2026-01-01T00:25:00.000Z');
    tick(5);
    const hb = await heartbeatLease(deps, { repository: repo, agent_id: 'a1', task_id: 't' });
    expect(hb.lease.expires_at).toBe('2026-01-01T00:30:00.000Z');
    const notHolder = await failure(
      heartbeatLease(deps, { repository: repo, agent_id: 'a2', lease_id: first.lease.lease_id }),
    );
    expect(notHolder.details).toMatchObject({ rule: 'holder_only', holder: { agent_id: 'a1' } });
    tick(31);
    const before = JSON.stringify((await store.read('leases/platform~identity')).value);
    expect((await readLeases(deps, repo.key)).map((l) => l.status)).toEqual(['expired']);
    // Reading wrote nothing.
    expect(JSON.stringify((await store.read('leases/platform~identity')).value)).toBe(before);
    const late = await failure(heartbeatLease(deps, { repository: repo, agent_id: 'a1', task_id: 't' }));
    expect(late.details).toMatchObject({ field: 'lease_id', rule: 'lease_live', status: 'expired' });
  });

  it('takes over an expired lease, recording LeaseExpired for it in the same update', async () => {
    const { deps, tick, events, store } = setup();
    const old = await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 't', ttl: '1m' });
    tick(2);
    const taken = await acquireLease(deps, { repository: repo, agent_id: 'a2', task_id: 't' });
    expect(taken).toMatchObject({ acquired: true, took_over: old.lease.lease_id, lease: { agent_id: 'a2' } });
    const stored = (
      await store.read<{ leases: Array<{ lease_id: string; status: string; expired_at?: string }> }>(
        'leases/platform~identity',
      )
    ).value!.leases;
    expect(stored.map((l) => [l.lease_id, l.status])).toEqual([
      [old.lease.lease_id, 'expired'],
      [taken.lease.lease_id, 'active'],
    ]);
    expect(stored[0]!.expired_at).toBe('2026-01-01T00:01:00.000Z');
    const kinds = (await events()).map((e) => e.kind);
    expect(kinds).toEqual(['LeaseAcquired', 'LeaseExpired', 'LeaseAcquired']);
    expect((await events())[2]!.data).toMatchObject({
      took_over: old.lease.lease_id,
      repository: 'platform/identity',
    });
  });

  it('releases by the holder or with force; an ended lease is returned unchanged', async () => {
    const { deps, events } = setup();
    const l = await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 't' });
    const e = await failure(releaseLease(deps, { repository: repo, agent_id: 'a2', task_id: 't' }));
    expect(e.details).toMatchObject({ rule: 'holder_or_force' });
    const r = await releaseLease(deps, { repository: repo, agent_id: 'a2', task_id: 't', force: true });
    expect(r).toMatchObject({ released: true, lease: { status: 'released', released_by: 'a2' } });
    expect(
      (await releaseLease(deps, { repository: repo, agent_id: 'a1', lease_id: l.lease.lease_id })).released,
    ).toBe(false);
    expect((await events()).at(-1)).toMatchObject({
      kind: 'LeaseReleased',
      data: { forced: true, released_by: 'a2' },
    });
    expect(
      await failure(releaseLease(deps, { repository: repo, agent_id: 'a1', lease_id: 'ls-none' })),
    ).toBeInstanceOf(NotFoundError);
    expect(await failure(releaseLease(deps, { repository: repo, agent_id: 'a1' }))).toBeInstanceOf(
      ValidationError,
    );
  });

  it('leases a branch only when it is allocated to the agent', async () => {
    const { deps } = setup();
    const e = await failure(
      acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 't', branch: 'agent/t' }),
    );
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.details).toMatchObject({ field: 'branch', rule: 'allocated' });
    const base = { repository: repo, task_id: 't', name: 'agent/t', base_ref: null, base_sha: null };
    const { allocation } = await recordAllocation(deps, { ...base, agent_id: 'a1' });
    const other = await failure(
      acquireLease(deps, { repository: repo, agent_id: 'a2', task_id: 'u', branch: 'agent/t' }),
    );
    expect(other.details).toMatchObject({
      field: 'branch',
      rule: 'allocated_to_agent',
      holder: { agent_id: 'a1' },
    });
    const ok = await acquireLease(deps, {
      repository: repo,
      agent_id: 'a1',
      task_id: 't',
      branch: 'agent/t',
    });
    expect(ok.lease).toMatchObject({ branch: 'agent/t', branch_id: allocation.branch_id });
  });
});

describe('the agents registry with holdings, and agent heartbeat', () => {
  it('lists what each agent holds live, and lets a silent agent lapse', async () => {
    const { deps, tick, store } = setup();
    await recordAllocation(deps, {
      repository: repo,
      agent_id: 'a1',
      task_id: 't',
      name: 'agent/t',
      base_ref: null,
      base_sha: null,
    });
    await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 't', ttl: '1h' });
    await acquireLease(deps, { repository: web, agent_id: 'a2', task_id: 'u', ttl: '5m' });
    // A claim written by the claims room, read generically: live, and one released.
    await store.write(
      'claims/platform~web',
      {
        claims: [
          {
            claim_id: 'c1',
            agent_id: 'a2',
            status: 'active',
            expires_at: '2026-01-01T01:00:00.000Z',
            patterns: ['src/**'],
          },
          { claim_id: 'c2', agent_id: 'a2', status: 'released', patterns: ['x'] },
        ],
      },
      '""',
    );
    const list = await agentsWithHoldings(deps);
    expect(
      list.map((a) => [
        a.agent_id,
        a.live,
        a.holds.branches.length,
        a.holds.leases.length,
        a.holds.claims.length,
      ]),
    ).toEqual([
      ['a1', true, 1, 1, 0],
      ['a2', true, 0, 1, 1],
    ]);
    tick(10);
    const later = await agentsWithHoldings(deps);
    expect(later.find((a) => a.agent_id === 'a2')!.holds.leases).toEqual([]);
    tick(30);
    expect((await agentsWithHoldings(deps)).map((a) => a.live)).toEqual([false, false]);
  });

  it('renews every live lease of the agent across repositories, each for its own TTL', async () => {
    const { deps, tick } = setup();
    await acquireLease(deps, { repository: repo, agent_id: 'a1', task_id: 't', ttl: '10m' });
    await acquireLease(deps, { repository: web, agent_id: 'a1', task_id: 'u', ttl: '1h' });
    await acquireLease(deps, { repository: web, agent_id: 'a2', task_id: 'v', ttl: '10m' });
    tick(8);
    const hb = await agentHeartbeat(deps, 'a1', { ttl: '15m', note: 'working' });
    expect(hb.agent).toMatchObject({
      agent_id: 'a1',
      ttl: '15m',
      note: 'working',
      expires_at: '2026-01-01T00:23:00.000Z',
    });
    expect(hb.renewed.leases!.map((l) => [l.task_id, l.expires_at])).toEqual([
      ['t', '2026-01-01T00:18:00.000Z'],
      ['u', '2026-01-01T01:08:00.000Z'],
    ]);
    tick(5);
    const live = (await readLeases(deps)).filter((l) => l.status === 'active').map((l) => l.task_id);
    expect(live.sort()).toEqual(['t', 'u']);
  });
});
