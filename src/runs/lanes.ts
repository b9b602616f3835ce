import { type CoordDeps, updateDoc } from '../coord/index.js';
import { ValidationError } from '../infra/index.js';
import {
  CLASSES_DOCUMENT,
  type ClassEvidence,
  ClassesDocSchema,
  checkClassId,
  type RequestClass,
} from './class-schema.js';
import { classNotFound, readClasses } from './classes.js';
import { recordRunEvent } from './events.js';
import { listRuns } from './ledger-read.js';
import { RUN_OUTCOMES, type RunOutcome, type RunRecord, type Tier } from './run-schema.js';

/** When a lane moves: after `promote_after_clean` landed runs in a row, and on the newest outcome in `demote_on`. */
export interface LanePolicy {
  promote_after_clean: number;
  demote_on: RunOutcome[];
}

/** The earlier product's rule (5 clean runs; bounced and noop demote), with `failed` demoting too. */
export const DEFAULT_LANE_POLICY: Readonly<LanePolicy> = Object.freeze({
  promote_after_clean: 5,
  demote_on: ['bounced', 'noop', 'failed'] as RunOutcome[],
});

export type LaneAction = 'promote' | 'demote' | 'hold' | 'ready-needs-executor' | 'capped-mutates' | 'none';

export interface LaneDecision {
  id: string;
  tier_before: Tier;
  tier: Tier;
  promotion_state_before: string;
  promotion_state: string;
  /** Tier, state or evidence differ from the stored class (what a write would change). */
  changed: boolean;
  action: LaneAction;
  reason: string;
  evidence: ClassEvidence;
}

/** One step toward `novel` (demote) or toward `deterministic` (promote). */
const DOWN: Record<Tier, Tier> = { deterministic: 'skilled', skilled: 'novel', novel: 'novel' };
const UP: Record<Tier, Tier> = { novel: 'skilled', skilled: 'deterministic', deterministic: 'deterministic' };
const MAX_FAILURE_MODES = 10;

export function checkLanePolicy(policy: Partial<LanePolicy>): LanePolicy {
  const n = policy.promote_after_clean ?? DEFAULT_LANE_POLICY.promote_after_clean;
  if (!Number.isInteger(n) || n < 1 || n > 1000)
    throw new ValidationError(`promote_after_clean: ${n} is not an integer from 1 to 1000`, {
      field: 'promote_after_clean',
      value: n,
      rule: '1..1000',
    });
  const demote = policy.demote_on ?? [...DEFAULT_LANE_POLICY.demote_on];
  for (const o of demote)
    if (!RUN_OUTCOMES.includes(o) || o === 'landed')
      throw new ValidationError(
        `demote_on: '${o}' is not an outcome that can demote (bounced, noop, abandoned, failed)`,
        {
          field: 'demote_on',
          value: o,
          rule: 'bounced|noop|abandoned|failed',
        },
      );
  return { promote_after_clean: n, demote_on: [...new Set(demote)] };
}

/**
 * The lane decision of one class from its closed runs (oldest first, by id). Walking back from the newest run,
 * skipping `abandoned` (unless `demote_on` names it), and only over runs after the last tier change
 * (`evidence.decided_at_run`): the first outcome in `demote_on` moves the tier one step toward `novel`; otherwise
 * `promote_after_clean` trailing `landed` runs move it one step toward `deterministic`, where a mutating class
 * stops at `skilled` (`capped-mutates`) and a class without an executor stays (`ready-needs-executor`). A tier
 * change records its run, so evaluating again over the same runs never moves the tier again.
 */
export function decideLane(c: RequestClass, runs: readonly RunRecord[], policy: LanePolicy): LaneDecision {
  const closed = runs.filter((r) => r.status === 'closed' && r.outcome !== undefined);
  const count = (o: RunOutcome) => closed.filter((r) => r.outcome === o).length;
  const decidedAt = c.evidence?.decided_at_run ?? null;
  const skip = (r: RunRecord) => r.outcome === 'abandoned' && !policy.demote_on.includes('abandoned');
  const fresh = closed.filter((r) => (decidedAt === null || r.run_id > decidedAt) && !skip(r)).reverse();
  let streak = 0;
  while (streak < fresh.length && fresh[streak]!.outcome === 'landed') streak++;
  const tierBefore = c.tier;
  let tier = tierBefore;
  let state = c.promotion_state;
  let decided = decidedAt;
  let action: LaneAction = 'none';
  let reason: string;
  const newest = fresh[0];
  if (!newest) {
    reason = decidedAt ? `no closed run since the last tier change (${decidedAt})` : 'no closed runs';
  } else if (policy.demote_on.includes(newest.outcome!)) {
    action = 'demote';
    tier = DOWN[tierBefore];
    state = `demoted:${newest.outcome}`;
    if (tier !== tierBefore) decided = newest.run_id;
    reason = `newest run ${newest.run_id} ${newest.outcome}${tier === tierBefore ? ' (already novel)' : ''}`;
  } else if (streak < policy.promote_after_clean) {
    action = 'hold';
    reason = `${streak} clean run(s) in a row of ${policy.promote_after_clean} needed`;
  } else if (tierBefore === 'deterministic') {
    reason = `${streak} clean runs; already deterministic`;
  } else if (UP[tierBefore] === 'deterministic' && c.mutates) {
    action = 'capped-mutates';
    state = 'capped-mutates';
    reason = `${streak} clean runs; a mutating class stays skilled`;
  } else if (UP[tierBefore] === 'deterministic' && !c.executor) {
    action = 'ready-needs-executor';
    state = 'ready-needs-executor';
    reason = `${streak} clean runs; deterministic needs an executor (route add --update --executor)`;
  } else {
    action = 'promote';
    tier = UP[tierBefore];
    state = 'promoted';
    decided = newest.run_id;
    reason = `${streak} clean runs in a row through ${newest.run_id}`;
  }
  const evidence: ClassEvidence = {
    runs_landed: count('landed'),
    runs_bounced: count('bounced'),
    runs_noop: count('noop'),
    runs_abandoned: count('abandoned'),
    runs_failed: count('failed'),
    clean_streak: tier === tierBefore ? streak : 0,
    last_run: closed.at(-1)?.run_id ?? null,
    decided_at_run: decided,
    failure_modes: closed
      .filter((r) => r.outcome !== 'landed' && r.outcome !== 'abandoned')
      .reverse()
      .slice(0, MAX_FAILURE_MODES)
      .map((r) => `${r.outcome}:${r.run_id}`),
  };
  const changed =
    tier !== tierBefore ||
    state !== c.promotion_state ||
    JSON.stringify(evidence) !== JSON.stringify(c.evidence ?? null);
  return {
    id: c.id,
    tier_before: tierBefore,
    tier,
    promotion_state_before: c.promotion_state,
    promotion_state: state,
    changed,
    action,
    reason,
    evidence,
  };
}

export interface LaneEvalResult {
  dry_run: boolean;
  policy: LanePolicy;
  evaluated: number;
  /** Classes whose tier changed. */
  promoted: string[];
  demoted: string[];
  results: LaneDecision[];
}

/**
 * `lane eval`: decides every class (or one) from its runs and, unless `dry_run`, writes the changed classes back
 * in one atomic update of `routing/classes` (decided again there against the class as it is then, so a
 * concurrent change is never overwritten with a stale one). Events: `LaneEvaluated` once, and `LanePromoted` or
 * `LaneDemoted` per class whose tier moved.
 */
export async function evaluateLanes(
  deps: CoordDeps,
  input: { id?: string; dry_run?: boolean } & Partial<LanePolicy> = {},
): Promise<LaneEvalResult> {
  const policy = checkLanePolicy(input);
  const id = input.id === undefined ? undefined : checkClassId(input.id);
  const classes = await readClasses(deps);
  if (id !== undefined && !classes.some((c) => c.id === id)) throw classNotFound(id, classes, 'id');
  const byClass = new Map<string, RunRecord[]>();
  for (const r of (await listRuns(deps, { open: false })).reverse()) {
    if (r.class === undefined || (id !== undefined && r.class !== id)) continue;
    const list = byClass.get(r.class) ?? [];
    list.push(r);
    byClass.set(r.class, list);
  }
  const decideAll = (list: readonly RequestClass[]) =>
    list
      .filter((c) => id === undefined || c.id === id)
      .map((c) => decideLane(c, byClass.get(c.id) ?? [], policy));
  let results = decideAll(classes);
  if (!input.dry_run && results.some((r) => r.changed)) {
    results = await updateDoc(deps, CLASSES_DOCUMENT, ClassesDocSchema, (doc) => {
      const fresh = decideAll(doc.classes);
      const at = deps.now().toISOString();
      for (const d of fresh) {
        if (!d.changed) continue;
        const i = doc.classes.findIndex((c) => c.id === d.id);
        doc.classes[i] = {
          ...doc.classes[i]!,
          tier: d.tier,
          promotion_state: d.promotion_state,
          evidence: d.evidence,
          updated_at: at,
        };
      }
      return fresh;
    });
  }
  const moved = results.filter((r) => r.tier !== r.tier_before);
  const out: LaneEvalResult = {
    dry_run: Boolean(input.dry_run),
    policy,
    evaluated: results.length,
    promoted: moved.filter((r) => r.action === 'promote').map((r) => r.id),
    demoted: moved.filter((r) => r.action === 'demote').map((r) => r.id),
    results,
  };
  if (!input.dry_run) {
    for (const r of moved)
      await recordRunEvent(deps, r.action === 'promote' ? 'LanePromoted' : 'LaneDemoted', r.id, {
        class_id: r.id,
        from: r.tier_before,
        to: r.tier,
        reason: r.reason,
      });
    await recordRunEvent(deps, 'LaneEvaluated', id ?? CLASSES_DOCUMENT, {
      evaluated: out.evaluated,
      promoted: out.promoted.slice(0, 20),
      demoted: out.demoted.slice(0, 20),
      changed: results.filter((r) => r.changed).length,
    });
  }
  return out;
}
