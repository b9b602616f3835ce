import { describe, expect, it } from 'vitest';
import { NotFoundError, RefusedError } from '../infra/index.js';
import { createMemoryStore } from '../state/index.js';
import { pruneEnded, readAllocations, recordAllocation, releaseAllocation } from './branches.js';
import type { RepoTarget } from './repository-ref.js';

const repo: RepoTarget = { id: 'platform/identity', key: 'platform~identity', root: undefined, self: false };
const other: RepoTarget = { id: 'platform/web', key: 'platform~web', root: undefined, self: false };

function setup() {
  let now = new Date('2026-01-01T00:00:00Z');
  const store = createMemoryStore();
  const deps = { store, retries: 1, now: () => now };
  const tick = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  const req = (agent: string, task: string, name: string, target = repo) => ({
    repository: target,
    agent_id: agent,
    task_id: task,
    name,
    base_ref: 'HEAD',
    base_sha: 'a'.repeat(40),
  });
  return { store, deps, tick, req };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as RefusedError,
  );

describe('branch allocations', () => {
  it('records an allocation once per name, refusing another agent with the holder', async () => {
    const { deps, req, store } = setup();
    const first = await recordAllocation(deps, req('a1', 'T-1', 'agent/T-1'));
    expect(first).toMatchObject({
      created: true,
      allocation: { name: 'agent/T-1', status: 'active', agent_id: 'a1', task_id: 'T-1', expires_at: null },
    });
    expect(first.allocation.branch_id).toMatch(/^br-[0-9a-f]{12}$/);
    const e = await failure(recordAllocation(deps, req('a2', 'T-2', 'agent/T-1')));
    expect(e).toBeInstanceOf(RefusedError);
    expect(e.httpStatus).toBe(409);
    expect(e.details).toMatchObject({
      field: 'name',
      value: 'agent/T-1',
      rule: 'one_allocation_per_name',
      holder: {
        agent_id: 'a1',
        task_id: 'T-1',
        branch_id: first.allocation.branch_id,
        since: first.allocation.created_at,
      },
    });
    expect(e.message).toContain("agent 'a1'");
    // The same agent for another task is refused too; for the same task it gets its allocation back.
    await expect(recordAllocation(deps, req('a1', 'T-9', 'agent/T-1'))).rejects.toBeInstanceOf(RefusedError);
    const again = await recordAllocation(deps, req('a1', 'T-1', 'agent/T-1'));
    expect(again).toEqual({ created: false, allocation: first.allocation });
    // Another repository is another document.
    expect((await recordAllocation(deps, req('a2', 'T-2', 'agent/T-1', other))).created).toBe(true);
    expect((await store.list!('branches')).sort()).toEqual([
      'branches/platform~identity',
      'branches/platform~web',
    ]);
  });

  it('refuses a name git could not hold beside a held one (agent/x and agent/x/y)', async () => {
    const { deps, req } = setup();
    await recordAllocation(deps, req('a1', 't', 'agent/x'));
    const e = await failure(recordAllocation(deps, req('a2', 'u', 'agent/x/y')));
    expect(e.details).toMatchObject({ rule: 'no_nested_branch_names', held_name: 'agent/x' });
    expect((await recordAllocation(deps, req('a2', 'u', 'agent/xy'))).created).toBe(true);
  });

  it('releases by the owner, or by another with force, and frees the name', async () => {
    const { deps, req, tick } = setup();
    const { allocation } = await recordAllocation(deps, req('a1', 't', 'agent/t'));
    const e = await failure(releaseAllocation(deps, { repository: repo, agent_id: 'a2', name: 'agent/t' }));
    expect(e.details).toMatchObject({
      field: 'agent_id',
      rule: 'holder_or_force',
      holder: { agent_id: 'a1' },
    });
    tick(1000);
    const forced = await releaseAllocation(deps, {
      repository: repo,
      agent_id: 'a2',
      name: 'agent/t',
      force: true,
      reason: 'gone',
    });
    expect(forced).toMatchObject({
      released: true,
      allocation: {
        status: 'released',
        released_by: 'a2',
        release_reason: 'gone',
        released_at: '2026-01-01T00:00:01.000Z',
      },
    });
    const twice = await releaseAllocation(deps, {
      repository: repo,
      agent_id: 'a1',
      branch_id: allocation.branch_id,
    });
    expect(twice.released).toBe(false);
    expect((await recordAllocation(deps, req('a2', 'u', 'agent/t'))).created).toBe(true);
    expect((await readAllocations(deps, repo.key)).map((a) => a.status)).toEqual(['released', 'active']);
  });

  it('answers an unknown allocation naming the field', async () => {
    const { deps } = setup();
    const e = (await failure(
      releaseAllocation(deps, { repository: repo, agent_id: 'a1', branch_id: 'br-x' }),
    )) as unknown;
    expect(e).toBeInstanceOf(NotFoundError);
    expect((e as NotFoundError).details).toMatchObject({ field: 'branch_id', value: 'br-x' });
  });

  it('keeps every active record and only the newest ended ones', () => {
    const list = [
      { id: 1, status: 'released', updated_at: '1' },
      { id: 2, status: 'active', updated_at: '0' },
      { id: 3, status: 'released', updated_at: '3' },
      { id: 4, status: 'expired', updated_at: '2' },
    ];
    expect(pruneEnded(list, 2).map((x) => x.id)).toEqual([2, 3, 4]);
    expect(pruneEnded(list, 5)).toBe(list);
  });
});
