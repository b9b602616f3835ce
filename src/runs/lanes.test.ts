import { describe, expect, it } from 'vitest';
import type { CoordDeps } from '../coord/index.js';
import { readRecordedEvents } from '../coord/index.js';
import { createMemoryStore } from '../state/index.js';
import type { RequestClass } from './class-schema.js';
import { addClass, readClasses } from './classes.js';
import { DEFAULT_LANE_POLICY, decideLane, evaluateLanes } from './lanes.js';
import { closeRun, openRun } from './ledger-write.js';
import type { RunOutcome, RunRecord } from './run-schema.js';

const cls = (extra: Partial<RequestClass> = {}): RequestClass => ({
  id: 'c',
  title: 'C',
  triggers: ['c'],
  tier: 'novel',
  mutates: false,
  executor: 'make it',
  gates: [],
  promotion_state: 'stable',
  ...extra,
});

/** Closed runs with these outcomes, oldest first, ids in order. */
const runs = (...outcomes: RunOutcome[]): RunRecord[] =>
  outcomes.map((outcome, i) => ({
    run_id: `run-20260810T1200${String(i).padStart(2, '0')}.000Z-0000000${i % 10}`,
    status: 'closed',
    actor: 'a',
    class: 'c',
    opened_at: '',
    outcome,
    gates: [],
  }));

const P = { ...DEFAULT_LANE_POLICY, demote_on: [...DEFAULT_LANE_POLICY.demote_on] };
const five = ['landed', 'landed', 'landed', 'landed', 'landed'] as const;

describe('decideLane', () => {
  it('promotes one tier after promote_after_clean landed runs in a row, abandoned skipped', () => {
    const d = decideLane(
      cls(),
      runs('bounced', 'landed', 'landed', 'abandoned', 'landed', 'landed', 'landed'),
      P,
    );
    expect(d).toMatchObject({
      action: 'promote',
      tier_before: 'novel',
      tier: 'skilled',
      promotion_state: 'promoted',
    });
    expect(d.evidence).toMatchObject({ runs_landed: 5, runs_bounced: 1, runs_abandoned: 1, clean_streak: 0 });
    expect(d.evidence.decided_at_run).toBe(runs(...Array(7).fill('landed'))[6]!.run_id);
  });

  it('holds below the streak, and counts the streak only after the newest non-landed run', () => {
    const d = decideLane(cls(), runs('landed', 'landed', 'landed', 'noop', 'landed', 'landed'), {
      ...P,
      demote_on: ['bounced'],
    });
    expect(d).toMatchObject({ action: 'hold', tier: 'novel', reason: '2 clean run(s) in a row of 5 needed' });
    expect(d.evidence.clean_streak).toBe(2);
  });

  it('demotes one tier on the newest outcome in demote_on (bounced, noop, failed by default)', () => {
    for (const o of ['bounced', 'noop', 'failed'] as const) {
      const d = decideLane(cls({ tier: 'deterministic' }), runs(...five, o, 'abandoned'), P);
      expect(d).toMatchObject({ action: 'demote', tier: 'skilled', promotion_state: `demoted:${o}` });
    }
    expect(decideLane(cls({ tier: 'novel' }), runs('bounced'), P)).toMatchObject({
      action: 'demote',
      tier: 'novel',
      promotion_state: 'demoted:bounced',
    });
  });

  it('caps a mutating class at skilled, and keeps a class without executor at skilled (ready-needs-executor)', () => {
    expect(decideLane(cls({ tier: 'skilled', mutates: true }), runs(...five), P)).toMatchObject({
      action: 'capped-mutates',
      tier: 'skilled',
      promotion_state: 'capped-mutates',
    });
    expect(decideLane(cls({ tier: 'skilled', executor: undefined }), runs(...five), P)).toMatchObject({
      action: 'ready-needs-executor',
      tier: 'skilled',
      promotion_state: 'ready-needs-executor',
    });
    expect(decideLane(cls({ tier: 'skilled' }), runs(...five), P)).toMatchObject({
      action: 'promote',
      tier: 'deterministic',
    });
  });

  it('never moves a tier twice on the same runs: only runs after the last change count', () => {
    const c = cls();
    const history = runs(...five, 'landed', 'landed');
    const first = decideLane(c, history, P);
    expect(first.tier).toBe('skilled');
    const after = {
      ...c,
      tier: first.tier,
      promotion_state: first.promotion_state,
      evidence: first.evidence,
    };
    const again = decideLane(after, history, P);
    expect(again).toMatchObject({ action: 'none', tier: 'skilled', changed: false });
    const demoted = decideLane(cls({ tier: 'deterministic' }), runs('bounced'), P);
    const stored = {
      ...cls(),
      tier: demoted.tier,
      promotion_state: demoted.promotion_state,
      evidence: demoted.evidence,
    };
    expect(decideLane(stored, runs('bounced'), P)).toMatchObject({
      action: 'none',
      tier: 'skilled',
      changed: false,
    });
  });
});

describe('evaluateLanes', () => {
  const deps = (): CoordDeps => {
    let t = Date.parse('2026-08-10T12:00:00.000Z');
    return { store: createMemoryStore(), retries: 1, now: () => new Date(t++) };
  };

  async function withRuns(outcomes: RunOutcome[]) {
    const d = deps();
    await addClass(d, { id: 'REQ-a', title: 'A', triggers: ['alpha'], mutates: false, executor: 'x' });
    await addClass(d, { id: 'REQ-b', title: 'B', triggers: ['beta'], tier: 'skilled' });
    for (const o of outcomes) {
      const { run } = await openRun(d, { actor: 'ag', class: 'REQ-a' });
      await closeRun(d, { run_id: run.run_id, outcome: o });
    }
    const { run } = await openRun(d, { actor: 'ag', class: 'REQ-b' });
    await closeRun(d, { run_id: run.run_id, outcome: 'bounced' });
    await openRun(d, { actor: 'ag', class: 'REQ-a' }); // open runs do not count
    return d;
  }

  it('dry-run decides without writing or recording events', async () => {
    const d = await withRuns([...five]);
    const before = await readClasses(d);
    const eventsBefore = JSON.stringify(await readRecordedEvents(d.store));
    const r = await evaluateLanes(d, { dry_run: true });
    expect(r).toMatchObject({ dry_run: true, evaluated: 2, promoted: ['REQ-a'], demoted: ['REQ-b'] });
    expect(await readClasses(d)).toEqual(before);
    expect(JSON.stringify(await readRecordedEvents(d.store))).toBe(eventsBefore);
  });

  it('writes the classes back and records LanePromoted, LaneDemoted and LaneEvaluated; a second eval changes nothing', async () => {
    const d = await withRuns([...five]);
    const r = await evaluateLanes(d);
    expect(r).toMatchObject({ promoted: ['REQ-a'], demoted: ['REQ-b'] });
    const stored = await readClasses(d);
    expect(stored.map((c) => [c.id, c.tier, c.promotion_state])).toEqual([
      ['REQ-a', 'skilled', 'promoted'],
      ['REQ-b', 'novel', 'demoted:bounced'],
    ]);
    const kinds = (await readRecordedEvents(d.store))
      .filter((e) => e.kind.startsWith('Lane'))
      .map((e) => [e.source, e.kind, e.subject]);
    expect(kinds).toEqual([
      ['run', 'LanePromoted', 'REQ-a'],
      ['run', 'LaneDemoted', 'REQ-b'],
      ['run', 'LaneEvaluated', 'routing/classes'],
    ]);
    const again = await evaluateLanes(d);
    expect(again).toMatchObject({ promoted: [], demoted: [] });
    expect(again.results.every((x) => !x.changed)).toBe(true);
    expect(await readClasses(d)).toEqual(stored);
  });

  it('evaluates one class with --id, and refuses an unknown one or a bad policy', async () => {
    const d = await withRuns([...five]);
    const r = await evaluateLanes(d, { id: 'REQ-b' });
    expect(r.results.map((x) => x.id)).toEqual(['REQ-b']);
    expect((await readClasses(d))[0]!.tier).toBe('novel');
    await expect(evaluateLanes(d, { id: 'REQ-c' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(evaluateLanes(d, { promote_after_clean: 0 })).rejects.toMatchObject({
      details: { field: 'promote_after_clean' },
    });
    await expect(evaluateLanes(d, { demote_on: ['landed'] })).rejects.toMatchObject({
      details: { field: 'demote_on' },
    });
  });
});
