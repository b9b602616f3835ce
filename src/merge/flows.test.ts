import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { branchWith, checkoutSnapshot, git, headOfBranch, showFile } from '../../test/fixtures/index.js';
import { integrateMerge } from './integrate.js';
import { enqueue, events, fail, noTempLeft, removeTemps, setup } from './merge-test-kit.js';
import { promoteMerge } from './promote.js';
import { rollupBranches } from './rollup.js';

afterAll(removeTemps);

describe('merge promote', () => {
  it('merges the integration branch into --into in a temporary worktree and records the promotion', async () => {
    const s = setup();
    git(s.root, ['branch', 'release']);
    branchWith(s.root, 'agent/p', 'main', { 'p.txt': 'p\n' });
    const m = await enqueue(s, 'agent/p');
    const before = checkoutSnapshot(s.root);
    const early = await fail(promoteMerge(s.deps, s.target, { merge_id: m.merge_id, into: 'release' }));
    expect(early.details).toMatchObject({ rule: 'status succeeded', status: 'queued' });
    await integrateMerge(s.deps, s.target, { merge_id: m.merge_id });
    const releaseBefore = headOfBranch(s.root, 'release');

    const r = await promoteMerge(s.deps, s.target, { merge_id: m.merge_id, into: 'release' });
    expect(r).toMatchObject({ into: 'release', previous_sha: releaseBefore, up_to_date: false });
    expect(headOfBranch(s.root, 'release')).toBe(r.commit_sha);
    expect(showFile(s.root, 'release', 'p.txt')).toBe('p');
    expect(r.from_sha).toBe(headOfBranch(s.root, 'integration'));
    expect(r.merge.status).toBe('succeeded');
    expect(r.merge.promotions).toEqual([
      expect.objectContaining({ into: 'release', commit_sha: r.commit_sha, from_sha: r.from_sha }),
    ]);
    expect(checkoutSnapshot(s.root)).toEqual(before);
    noTempLeft(s);
    expect((await events(s.store)).at(-1)).toMatchObject({
      kind: 'MergePromoted',
      data: { promoted_into: 'release', merge_id: m.merge_id },
    });
  });

  it('is refused while --into is checked out anywhere, naming the worktree', async () => {
    const s = setup();
    branchWith(s.root, 'agent/q', 'main', { 'q.txt': 'q\n' });
    const m = await enqueue(s, 'agent/q');
    await integrateMerge(s.deps, s.target, { merge_id: m.merge_id });
    const e = await fail(promoteMerge(s.deps, s.target, { merge_id: m.merge_id, into: 'main' }));
    expect(e.details).toMatchObject({ rule: 'not_checked_out', worktrees: [s.root], field: 'into' });
    const other = join(s.dir, 'release-checkout');
    git(s.root, ['worktree', 'add', '-q', '-b', 'release', other, 'main']);
    const e2 = await fail(promoteMerge(s.deps, s.target, { merge_id: m.merge_id, into: 'release' }));
    expect(e2.message).toContain(other);
    expect((await fail(promoteMerge(s.deps, s.target, { merge_id: m.merge_id, into: '--x' }))).code).toBe(
      'validation',
    );
  });

  it('reports a conflict with its files and moves nothing', async () => {
    const s = setup();
    branchWith(s.root, 'release', 'main', { 'shared.txt': 'release\n' });
    branchWith(s.root, 'agent/s', 'main', { 'shared.txt': 'source\n' });
    const m = await enqueue(s, 'agent/s');
    await integrateMerge(s.deps, s.target, { merge_id: m.merge_id });
    const before = headOfBranch(s.root, 'release');
    const e = await fail(promoteMerge(s.deps, s.target, { merge_id: m.merge_id, into: 'release' }));
    expect(e.details).toMatchObject({ rule: 'merge_conflict', files: ['shared.txt'] });
    expect(headOfBranch(s.root, 'release')).toBe(before);
    noTempLeft(s);
  });
});

describe('merge rollup', () => {
  it('merges branches in order, skips a conflicted one and goes on, and moves the branch once', async () => {
    const s = setup();
    branchWith(s.root, 'agent/one', 'main', { 'one.txt': '1\n', 'shared.txt': 'one\n' });
    branchWith(s.root, 'agent/two', 'main', { 'shared.txt': 'two\n' });
    branchWith(s.root, 'agent/three', 'main', { 'three.txt': '3\n' });
    const before = checkoutSnapshot(s.root);
    const r = await rollupBranches(s.deps, s.target, {
      into: 'next',
      base: 'main',
      branches: ['agent/one', 'agent/two', 'agent/none', 'agent/three'],
    });
    expect(r).toMatchObject({ into: 'next', created: true, previous_sha: null });
    expect(r.merged.map((m) => m.branch)).toEqual(['agent/one', 'agent/three']);
    expect(r.conflicted).toEqual([expect.objectContaining({ branch: 'agent/two', files: ['shared.txt'] })]);
    expect(r.skipped).toEqual([expect.objectContaining({ branch: 'agent/none', reason: 'not_found' })]);
    expect(headOfBranch(s.root, 'next')).toBe(r.commit_sha);
    expect(showFile(s.root, 'next', 'shared.txt')).toBe('one');
    expect(showFile(s.root, 'next', 'three.txt')).toBe('3');
    // One ref update: the reflog of the new branch has exactly one entry.
    expect(git(s.root, ['reflog', 'show', '--format=%H', 'refs/heads/next']).split('\n')).toEqual([
      r.commit_sha,
    ]);
    expect(checkoutSnapshot(s.root)).toEqual(before);
    noTempLeft(s);
    const ev = (await events(s.store)).filter((e) => e.kind === 'MergeRollup');
    expect(ev).toHaveLength(1);
    expect(ev[0]!.data).toMatchObject({
      merged: ['agent/one', 'agent/three'],
      conflicted: [{ branch: 'agent/two', files: ['shared.txt'] }],
    });

    // Again, onto the existing branch: what it contains is skipped as already merged.
    const again = await rollupBranches(s.deps, s.target, {
      into: 'next',
      branches: ['agent/one', 'agent/three'],
    });
    expect(again.skipped.map((x) => x.reason)).toEqual(['already_merged', 'already_merged']);
    expect(again.commit_sha).toBe(r.commit_sha);
  });

  it('undoes a branch whose validators fail and keeps the rest', async () => {
    const s = setup({
      validators: [['node', '-e', "process.exit(require('fs').existsSync('bad.txt') ? 4 : 0)"]],
    });
    branchWith(s.root, 'agent/a', 'main', { 'a.txt': 'a\n' });
    branchWith(s.root, 'agent/bad', 'main', { 'bad.txt': 'bad\n' });
    branchWith(s.root, 'agent/c', 'main', { 'c.txt': 'c\n' });
    const r = await rollupBranches(s.deps, s.target, {
      into: 'next',
      base: 'main',
      branches: ['agent/a', 'agent/bad', 'agent/c'],
    });
    expect(r.merged.map((m) => m.branch)).toEqual(['agent/a', 'agent/c']);
    expect(r.skipped).toEqual([
      expect.objectContaining({ branch: 'agent/bad', reason: 'validation_failed' }),
    ]);
    expect(git(s.root, ['ls-tree', '--name-only', 'next'])).not.toContain('bad.txt');
  });

  it('is refused while --into is checked out, and checks its inputs', async () => {
    const s = setup();
    const e = await fail(rollupBranches(s.deps, s.target, { into: 'main', base: 'main', branches: ['x'] }));
    expect(e.details).toMatchObject({ rule: 'not_checked_out', worktrees: [s.root] });
    expect(
      (
        await fail(
          rollupBranches(s.deps, s.target, { into: 'next', base: '--upload-pack=x', branches: ['a'] }),
        )
      ).code,
    ).toBe('validation');
    expect(
      (await fail(rollupBranches(s.deps, s.target, { into: 'next', base: 'main', branches: ['a', 'a'] })))
        .code,
    ).toBe('validation');
  });
});
