import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../state/index.js';
import {
  enqueueMerge,
  listMerges,
  MAX_FINISHED_MERGES,
  mergeSummary,
  newMergeId,
  transitionMerge,
} from './queue.js';

const deps = () => ({ store: createMemoryStore(), retries: 1, now: () => new Date('2026-01-01T00:00:00Z') });
const target = { id: 'p/r', key: 'p~r' };
const add = (d: ReturnType<typeof deps>, source: string) =>
  enqueueMerge(d, { repository: 'p/r', key: 'p~r', source_branch: source, target_branch: 'main' });

describe('the merge queue document', () => {
  it('summarizes requests by status for the agent operating view', async () => {
    const d = deps();
    const a = (await add(d, 'agent/a')).merge;
    await add(d, 'agent/b');
    await transitionMerge(d, target, { action: 'claim', merge_id: a.merge_id, integrator: 'x:1' });
    await transitionMerge(d, target, { action: 'finish', merge_id: a.merge_id, status: 'conflict' });
    expect(await mergeSummary(d)).toEqual({
      queued: 1,
      running: 0,
      succeeded: 0,
      failed: 0,
      conflict: 1,
      validation_failed: 0,
      cancelled: 0,
      total: 2,
    });
  });

  it('returns the waiting request instead of queueing the same source twice', async () => {
    const d = deps();
    const first = await add(d, 'agent/a');
    const again = await add(d, 'agent/a');
    expect(again).toEqual({ merge: first.merge, created: false });
    expect((await listMerges(d, {})).total).toBe(1);
  });

  it('pages in queue order and keeps only the newest succeeded requests', async () => {
    const d = deps();
    for (let i = 0; i < MAX_FINISHED_MERGES + 3; i++) {
      const m = (await add(d, `agent/${i}`)).merge;
      await transitionMerge(d, target, { action: 'claim', merge_id: m.merge_id });
      await transitionMerge(d, target, { action: 'finish', merge_id: m.merge_id, status: 'succeeded' });
    }
    await add(d, 'agent/last');
    const all = await listMerges(d, { limit: 1000 });
    expect(all.total).toBe(MAX_FINISHED_MERGES + 1);
    expect(all.merges[0]!.source_branch).toBe('agent/3');
    const page = await listMerges(d, { offset: 199, limit: 5 });
    expect(page).toMatchObject({ offset: 199, next_offset: null });
    expect(page.merges.map((m) => m.source_branch)).toEqual([
      `agent/${MAX_FINISHED_MERGES + 2}`,
      'agent/last',
    ]);
  });

  it('makes readable, bounded ids', () => {
    expect(newMergeId('feature/login', 'main')).toMatch(/^feature-login-into-main-[0-9a-f]{8}$/);
    expect(newMergeId('x'.repeat(300), 'main').length).toBeLessThanOrEqual(96);
  });
});
