// A queue whose head cannot proceed (its target is checked out) never wedges the requests behind it: integrate
// without an id passes it over, naming why and the command that frees it; cancel withdraws it, keeping the record.
import { afterAll, describe, expect, it } from 'vitest';
import { branchWith, git, headOfBranch } from '../../test/fixtures/index.js';
import { blockOf } from './blocked.js';
import { integrateMerge, integrateNext } from './integrate.js';
import { enqueue, events, fail, removeTemps, setup } from './merge-test-kit.js';
import { enqueueMerge, listMerges, MAX_FINISHED_MERGES, transitionMerge } from './queue.js';
import { cancelMerge, retryMerge } from './requests.js';
import { rollupBranches } from './rollup.js';

afterAll(removeTemps);

describe('merge integrate without an id', () => {
  it('lands the request behind a blocked head and names the one it passed over, with the command that frees it', async () => {
    const s = setup();
    branchWith(s.root, 'agent/a', 'main', { 'a.txt': 'a\n' });
    branchWith(s.root, 'agent/b', 'main', { 'b.txt': 'b\n' });
    // main is checked out in the main checkout: the head of the queue cannot land here.
    const head = await enqueue(s, 'agent/a', 'main');
    const behind = await enqueue(s, 'agent/b', 'integration');

    const r = await integrateNext(s.deps, s.target);
    expect(r.merge).toMatchObject({ merge_id: behind.merge_id, status: 'succeeded' });
    expect(headOfBranch(s.root, 'integration')).toBe(r.merge.commit_sha);
    expect(r.passed_over).toEqual([
      {
        merge_id: head.merge_id,
        repository: 'p/r',
        source_branch: 'agent/a',
        target_branch: 'main',
        reason: 'target_checked_out',
        message: expect.stringContaining(`checked out in ${s.root}`),
        worktrees: [s.root],
        command: `git -C ${s.root} switch --detach`,
        cancel_command: `hub merge cancel --merge-id ${head.merge_id}`,
      },
    ]);
    const list = await listMerges(s.deps, { key: 'p~r' });
    expect(list.merges.map((m) => [m.merge_id, m.status])).toEqual([
      [head.merge_id, 'queued'],
      [behind.merge_id, 'succeeded'],
    ]);
  });

  it('refuses when every queued request is blocked, naming each; lands the head once its checkout lets go', async () => {
    const s = setup();
    branchWith(s.root, 'agent/a', 'main', { 'a.txt': 'a\n' });
    const head = await enqueue(s, 'agent/a', 'main');
    const e = await fail(integrateNext(s.deps, s.target));
    expect(e.code).toBe('refused');
    expect(e.httpStatus).toBe(409);
    expect(e.message).toContain(head.merge_id);
    expect(e.details).toMatchObject({
      rule: 'not_checked_out',
      passed_over: [{ merge_id: head.merge_id, command: `git -C ${s.root} switch --detach` }],
    });
    git(s.root, ['switch', '-q', '--detach']);
    expect(await blockOf(s.root, head)).toBeUndefined();
    const r = await integrateNext(s.deps, s.target);
    expect(r).toMatchObject({ merge: { merge_id: head.merge_id, status: 'succeeded' }, passed_over: [] });
  });

  it('is a not-found error when nothing is queued', async () => {
    const s = setup();
    const e = await fail(integrateNext(s.deps, s.target));
    expect(e.code).toBe('not_found');
    expect(e.details).toMatchObject({ rule: 'a queued merge request' });
  });
});

describe('merge cancel', () => {
  it('withdraws a queued request that cannot proceed, keeping it with who, when and why', async () => {
    const s = setup();
    branchWith(s.root, 'agent/a', 'main', { 'a.txt': 'a\n' });
    const head = await enqueue(s, 'agent/a', 'main');
    const done = await cancelMerge(s.deps, s.target, {
      merge_id: head.merge_id,
      by: 'a1',
      reason: 'main is mine',
    });
    expect(done).toMatchObject({
      merge_id: head.merge_id,
      status: 'cancelled',
      cancelled_by: 'a1',
      cancelled_from: 'queued',
      cancel_reason: 'main is mine',
      cancelled_at: expect.any(String),
    });
    expect((await listMerges(s.deps, { key: 'p~r' })).merges).toEqual([done]);
    expect((await events(s.store)).at(-1)).toMatchObject({
      kind: 'MergeCancelled',
      subject: 'p/r',
      data: { merge_id: head.merge_id, status: 'cancelled', cancelled_by: 'a1', cancelled_from: 'queued' },
    });
    // Nothing queued is left to integrate; enqueueing the same branch again is a new request.
    expect((await fail(integrateNext(s.deps, s.target))).code).toBe('not_found');
    const again = await enqueue(s, 'agent/a', 'main');
    expect(again.merge_id).not.toBe(head.merge_id);
  });

  it('withdraws a conflicted or failed request; the default canceller is hub', async () => {
    const s = setup();
    branchWith(s.root, 'integration', 'integration', { 'shared.txt': 'integration\n' });
    branchWith(s.root, 'agent/c', 'main', { 'shared.txt': 'source\n' });
    const m = await enqueue(s, 'agent/c');
    expect((await integrateMerge(s.deps, s.target, { merge_id: m.merge_id })).status).toBe('conflict');
    const done = await cancelMerge(s.deps, s.target, { merge_id: m.merge_id });
    expect(done).toMatchObject({ status: 'cancelled', cancelled_from: 'conflict', cancelled_by: 'hub' });
    expect(done.conflict?.files).toEqual(['shared.txt']);
    const retry = await fail(retryMerge(s.deps, s.target, m.merge_id));
    expect(retry.details).toMatchObject({ status: 'cancelled' });
  });

  it('refuses a merged, an already cancelled and a running request, saying why', async () => {
    const s = setup();
    branchWith(s.root, 'agent/ok', 'main', { 'ok.txt': 'ok\n' });
    const ok = await enqueue(s, 'agent/ok');
    const landed = await integrateMerge(s.deps, s.target, { merge_id: ok.merge_id });
    const merged = await fail(cancelMerge(s.deps, s.target, { merge_id: ok.merge_id }));
    expect(merged.code).toBe('refused');
    expect(merged.httpStatus).toBe(409);
    expect(merged.message).toContain('has landed');
    expect(merged.message).toContain(landed.commit_sha!.slice(0, 12));
    expect(merged.details).toMatchObject({ field: 'merge_id', status: 'succeeded' });

    branchWith(s.root, 'agent/x', 'main', { 'x.txt': 'x\n' });
    const x = await enqueue(s, 'agent/x');
    await cancelMerge(s.deps, s.target, { merge_id: x.merge_id, by: 'a1' });
    const twice = await fail(cancelMerge(s.deps, s.target, { merge_id: x.merge_id, by: 'a2' }));
    expect(twice.message).toContain('cancelled already by a1');
    expect(twice.details).toMatchObject({ status: 'cancelled' });

    branchWith(s.root, 'agent/r', 'main', { 'r.txt': 'r\n' });
    const r = await enqueue(s, 'agent/r');
    await transitionMerge(s.deps, s.target, { action: 'claim', merge_id: r.merge_id, integrator: 'h:1' });
    const running = await fail(cancelMerge(s.deps, s.target, { merge_id: r.merge_id }));
    expect(running.message).toContain('wait for the integration to end');
    expect(running.details).toMatchObject({ status: 'running', integrator: 'h:1' });

    const unknown = await fail(cancelMerge(s.deps, s.target, { merge_id: 'nope' }));
    expect(unknown.code).toBe('not_found');
  });

  it('keeps only the newest cancelled requests, as it does succeeded ones', async () => {
    const s = setup();
    const at = new Date().toISOString();
    const cancelled = Array.from({ length: MAX_FINISHED_MERGES + 2 }, (_, i) => ({
      merge_id: `m${i}`,
      repository: 'p/r',
      source_branch: `b${i}`,
      target_branch: 't',
      status: 'cancelled',
      created_at: at,
      updated_at: at,
    }));
    await s.store.write('merges/p~r', { merges: cancelled }, '""');
    await enqueueMerge(s.deps, { repository: 'p/r', key: 'p~r', source_branch: 'last', target_branch: 't' });
    const all = (await listMerges(s.deps, { key: 'p~r', limit: 1000 })).merges;
    expect(all.filter((m) => m.status === 'cancelled').map((m) => m.merge_id)).toEqual(
      cancelled.slice(2).map((m) => m.merge_id),
    );
    expect(all.at(-1)).toMatchObject({ source_branch: 'last', status: 'queued' });
  });
});

describe('merge rollup without a base', () => {
  it('starts a new integration branch at the checkout HEAD and says so', async () => {
    const s = setup();
    branchWith(s.root, 'agent/a', 'main', { 'a.txt': 'a\n' });
    const head = git(s.root, ['rev-parse', 'HEAD']);
    const r = await rollupBranches(s.deps, s.target, { into: 'agent/rollup-1', branches: ['agent/a'] });
    expect(r).toMatchObject({ created: true, base: 'HEAD', base_sha: head, previous_sha: null });
    expect(r.merged.map((m) => m.branch)).toEqual(['agent/a']);
    expect(headOfBranch(s.root, 'agent/rollup-1')).toBe(r.commit_sha);
    // An existing one is extended from its own head, as before.
    branchWith(s.root, 'agent/b', 'main', { 'b.txt': 'b\n' });
    const next = await rollupBranches(s.deps, s.target, { into: 'agent/rollup-1', branches: ['agent/b'] });
    expect(next).toMatchObject({ created: false, base: 'agent/rollup-1', base_sha: r.commit_sha });
  });
});
