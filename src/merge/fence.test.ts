// Fenced leases against the merge queue: a stalled agent whose lease lapsed and was taken over must not land its
// stale work over the new holder's (integrate, promote, rollup), and the new holder's work lands.
import { afterAll, describe, expect, it } from 'vitest';
import { branchWith, git, headOfBranch } from '../../test/fixtures/index.js';
import { acquireLease } from '../acl/index.js';
import { integrateMerge } from './integrate.js';
import { events, fail, removeTemps, type Setup, setup } from './merge-test-kit.js';
import { promoteMerge } from './promote.js';
import { findMerge } from './queue.js';
import { checkEnqueue, recordEnqueue } from './requests.js';
import { rollupBranches } from './rollup.js';

afterAll(removeTemps);

/** A merge setup whose clock the test moves. */
function clocked() {
  const s = setup();
  let now = new Date('2026-03-01T09:00:00Z');
  s.deps.now = () => now;
  const tick = (minutes: number) => {
    now = new Date(now.getTime() + minutes * 60_000);
  };
  const lease = (agent: string, ttl = '10m', task = 'T-1') =>
    acquireLease(s.deps, { repository: { ...s.target, self: false }, agent_id: agent, task_id: task, ttl });
  return { s, tick, lease };
}

async function enqueueAs(s: Setup, branch: string, agent: string, task?: string, into = 'integration') {
  const req = {
    source_branch: branch,
    target_branch: into,
    agent_id: agent,
    ...(task ? { task_id: task } : {}),
  };
  return (await recordEnqueue(s.deps, s.target, { ...req, ...(await checkEnqueue(s.target, req)) })).merge;
}

describe('fenced merges', () => {
  it('integrate refuses a request whose lease was taken over, naming both agents and fences; the new holder lands', async () => {
    const { s, tick, lease } = clocked();
    branchWith(s.root, 'agent/a', 'main', { 'a.txt': 'from a\n' });
    branchWith(s.root, 'agent/b', 'main', { 'b.txt': 'from b\n' });
    const a = await lease('agent-a');
    const stale = await enqueueAs(s, 'agent/a', 'agent-a', 'T-1');
    expect(stale).toMatchObject({ task_id: 'T-1', fence: a.lease.fence, agent_id: 'agent-a' });
    // agent-a stalls past its TTL; agent-b takes the task over.
    tick(11);
    const b = await lease('agent-b');
    expect(b.lease.fence).toBeGreaterThan(a.lease.fence!);
    const fresh = await enqueueAs(s, 'agent/b', 'agent-b', 'T-1');
    expect(fresh.fence).toBe(b.lease.fence);

    const before = headOfBranch(s.root, 'integration');
    const e = await fail(integrateMerge(s.deps, s.target, { merge_id: stale.merge_id }));
    expect(e.code).toBe('refused');
    expect(e.httpStatus).toBe(409);
    expect(e.details).toMatchObject({
      rule: 'stale_fence',
      task_id: 'T-1',
      agent_id: 'agent-a',
      fence: a.lease.fence,
      current: { agent_id: 'agent-b', fence: b.lease.fence, lease_id: b.lease.lease_id },
    });
    expect(e.message).toContain("agent 'agent-a' carries fence 1");
    expect(e.message).toContain("leased to agent 'agent-b' with fence 2");
    // Nothing moved; the request ended failed (it can never become current), saying why.
    expect(headOfBranch(s.root, 'integration')).toBe(before);
    const refused = (await findMerge(s.deps, stale.merge_id))!.merge;
    expect(refused).toMatchObject({
      status: 'failed',
      retryable: false,
      stale_fence: { task_id: 'T-1', fence: 1, current: { agent_id: 'agent-b', fence: 2 } },
    });
    expect((await events(s.store)).find((x) => x.kind === 'MergeFailed')!.data).toMatchObject({
      rule: 'stale_fence',
      merge_id: stale.merge_id,
    });

    const landed = await integrateMerge(s.deps, s.target, { merge_id: fresh.merge_id });
    expect(landed.status).toBe('succeeded');
    expect(headOfBranch(s.root, 'integration')).toBe(landed.commit_sha);
  });

  it('a stalled agent that enqueues after losing its lease carries its old fence, and is refused', async () => {
    const { s, tick, lease } = clocked();
    branchWith(s.root, 'agent/a', 'main', { 'a.txt': 'from a\n' });
    await lease('agent-a', '5m');
    tick(6);
    await lease('agent-b');
    // Its lease is gone, so no task is named: the old lease's fence is still found by the agent and task.
    const late = await enqueueAs(s, 'agent/a', 'agent-a', 'T-1');
    expect(late).toMatchObject({ task_id: 'T-1', fence: 1 });
    const e = await fail(integrateMerge(s.deps, s.target, { merge_id: late.merge_id }));
    expect(e.details).toMatchObject({
      rule: 'stale_fence',
      fence: 1,
      current: { agent_id: 'agent-b', fence: 2 },
    });
  });

  it('a lapsed lease nobody took still lands; an unfenced request is not judged', async () => {
    const { s, tick, lease } = clocked();
    branchWith(s.root, 'agent/a', 'main', { 'a.txt': 'from a\n' });
    branchWith(s.root, 'agent/c', 'main', { 'c.txt': 'from c\n' });
    await lease('agent-a', '5m');
    const m = await enqueueAs(s, 'agent/a', 'agent-a', 'T-1');
    tick(60);
    expect((await integrateMerge(s.deps, s.target, { merge_id: m.merge_id })).status).toBe('succeeded');
    // agent-c holds no lease of the task: its request carries no fence.
    const unfenced = await enqueueAs(s, 'agent/c', 'agent-c', 'T-1');
    expect(unfenced.fence).toBeUndefined();
    expect((await integrateMerge(s.deps, s.target, { merge_id: unfenced.merge_id })).status).toBe(
      'succeeded',
    );
  });

  it('the new holder enqueuing the same branch takes the queued request over with its fence', async () => {
    const { s, tick, lease } = clocked();
    branchWith(s.root, 'agent/a', 'main', { 'a.txt': 'from a\n' });
    await lease('agent-a');
    const old = await enqueueAs(s, 'agent/a', 'agent-a', 'T-1');
    tick(11);
    await lease('agent-b');
    const req = {
      source_branch: 'agent/a',
      target_branch: 'integration',
      agent_id: 'agent-b',
      task_id: 'T-1',
    };
    const again = await recordEnqueue(s.deps, s.target, { ...req, ...(await checkEnqueue(s.target, req)) });
    expect(again).toMatchObject({
      created: false,
      refenced: true,
      merge: { merge_id: old.merge_id, agent_id: 'agent-b', fence: 2 },
    });
    expect((await integrateMerge(s.deps, s.target, { merge_id: old.merge_id })).status).toBe('succeeded');
  });

  it('promote refuses a succeeded request whose task was leased again since; nothing moves', async () => {
    const { s, tick, lease } = clocked();
    branchWith(s.root, 'agent/a', 'main', { 'a.txt': 'from a\n' });
    await lease('agent-a');
    const m = await enqueueAs(s, 'agent/a', 'agent-a', 'T-1');
    expect((await integrateMerge(s.deps, s.target, { merge_id: m.merge_id })).status).toBe('succeeded');
    tick(11);
    await lease('agent-b');
    git(s.root, ['branch', 'release', 'main']);
    const releaseBefore = headOfBranch(s.root, 'release');
    const e = await fail(promoteMerge(s.deps, s.target, { merge_id: m.merge_id, into: 'release' }));
    expect(e.details).toMatchObject({
      rule: 'stale_fence',
      agent_id: 'agent-a',
      fence: 1,
      current: { agent_id: 'agent-b', fence: 2 },
    });
    expect(headOfBranch(s.root, 'release')).toBe(releaseBefore);
  });

  it('rollup refuses before merging anything when a branch carries a stale fence', async () => {
    const { s, tick, lease } = clocked();
    branchWith(s.root, 'agent/a', 'main', { 'a.txt': 'from a\n' });
    branchWith(s.root, 'agent/b', 'main', { 'b.txt': 'from b\n' });
    await lease('agent-a');
    await enqueueAs(s, 'agent/a', 'agent-a', 'T-1');
    tick(11);
    await lease('agent-b');
    await enqueueAs(s, 'agent/b', 'agent-b', 'T-1');
    const e = await fail(
      rollupBranches(s.deps, s.target, { into: 'rollup', base: 'main', branches: ['agent/b', 'agent/a'] }),
    );
    expect(e.details).toMatchObject({
      rule: 'stale_fence',
      agent_id: 'agent-a',
      fence: 1,
      current: { agent_id: 'agent-b', fence: 2 },
    });
    expect(e.message).toContain("merge request '");
    expect(headOfBranch(s.root, 'rollup')).toBeUndefined();
    const ok = await rollupBranches(s.deps, s.target, {
      into: 'rollup',
      base: 'main',
      branches: ['agent/b'],
    });
    expect(ok.merged.map((x) => x.branch)).toEqual(['agent/b']);
  });
});
