import * as z from 'zod';
import { type CoordDeps, readDoc, updateDoc } from '../coord/index.js';
import { ValidationError } from '../infra/index.js';

/** Store documents of the scheduler (collection `schedule`). */
export const POLICY_DOCUMENT = 'schedule/policy';
export const DECISIONS_DOCUMENT = 'schedule/decisions';

/** The terms a score adds up, each weighted by the policy (merge pressure subtracts its penalty). */
export const WEIGHT_NAMES = ['priority', 'affinity', 'cost', 'fairness'] as const;
export type WeightName = (typeof WEIGHT_NAMES)[number];

/** The range of every policy field: `policy set` refuses a value outside it, naming field, value and rule. */
export const POLICY_RANGES = {
  weight: { min: 0, max: 100 },
  merge_queue_threshold: { min: 1, max: 10_000 },
  merge_pressure_penalty: { min: 0, max: 1_000_000 },
  fairness_window: { min: 1, max: 500 },
} as const;

/**
 * The policy in force when none is stored. Priority leads; a warm checkout (affinity) and cheap context (cost)
 * break ties; fairness spreads work over repositories recently scheduled less; a repository with 3 or more merges
 * queued or running loses 2 points, so agents stop piling branches onto it.
 */
export const DEFAULT_POLICY = {
  weights: { priority: 1, affinity: 0.5, cost: 0.25, fairness: 0.25 },
  merge_queue_threshold: 3,
  merge_pressure_penalty: 2,
  fairness_window: 50,
} as const;

const weight = (name: WeightName) =>
  z
    .number()
    .min(POLICY_RANGES.weight.min)
    .max(POLICY_RANGES.weight.max)
    .default(DEFAULT_POLICY.weights[name]);

// Loose: fields written by a later build survive a policy set.
export const SchedulePolicySchema = z.looseObject({
  weights: z
    .looseObject({
      priority: weight('priority'),
      affinity: weight('affinity'),
      cost: weight('cost'),
      fairness: weight('fairness'),
    })
    .default(() => ({ ...DEFAULT_POLICY.weights })),
  merge_queue_threshold: z
    .number()
    .int()
    .min(POLICY_RANGES.merge_queue_threshold.min)
    .max(POLICY_RANGES.merge_queue_threshold.max)
    .default(DEFAULT_POLICY.merge_queue_threshold),
  merge_pressure_penalty: z
    .number()
    .min(POLICY_RANGES.merge_pressure_penalty.min)
    .max(POLICY_RANGES.merge_pressure_penalty.max)
    .default(DEFAULT_POLICY.merge_pressure_penalty),
  fairness_window: z
    .number()
    .int()
    .min(POLICY_RANGES.fairness_window.min)
    .max(POLICY_RANGES.fairness_window.max)
    .default(DEFAULT_POLICY.fairness_window),
  updated_at: z.string().optional(),
});
export type SchedulePolicy = z.infer<typeof SchedulePolicySchema>;

/** The policy in force: the stored one (missing fields take their defaults), else DEFAULT_POLICY. */
export async function readPolicy(deps: CoordDeps): Promise<SchedulePolicy> {
  return readDoc(deps, POLICY_DOCUMENT, SchedulePolicySchema);
}

/** A partial change of the policy; absent fields keep their value. */
export interface PolicyPatch {
  weights?: Partial<Record<WeightName, number>>;
  merge_queue_threshold?: number;
  merge_pressure_penalty?: number;
  fairness_window?: number;
}

function checkRange(
  field: string,
  value: number,
  range: { min: number; max: number },
  integer = false,
): void {
  const ok =
    Number.isFinite(value) &&
    value >= range.min &&
    value <= range.max &&
    (!integer || Number.isInteger(value));
  if (!ok)
    throw new ValidationError(
      `${field}: ${value} is outside the rule: ${integer ? 'a whole number ' : ''}from ${range.min} to ${range.max}`,
      { field, value, rule: `${integer ? 'integer ' : ''}${range.min}..${range.max}` },
    );
}

/** Checks every field of a patch against POLICY_RANGES (the op's schema checks too; this guards other callers). */
export function checkPolicyPatch(patch: PolicyPatch): void {
  for (const [name, value] of Object.entries(patch.weights ?? {}))
    if (value !== undefined) checkRange(`weights.${name}`, value, POLICY_RANGES.weight);
  if (patch.merge_queue_threshold !== undefined)
    checkRange(
      'merge_queue_threshold',
      patch.merge_queue_threshold,
      POLICY_RANGES.merge_queue_threshold,
      true,
    );
  if (patch.merge_pressure_penalty !== undefined)
    checkRange('merge_pressure_penalty', patch.merge_pressure_penalty, POLICY_RANGES.merge_pressure_penalty);
  if (patch.fairness_window !== undefined)
    checkRange('fairness_window', patch.fairness_window, POLICY_RANGES.fairness_window, true);
}

/**
 * `schedule policy set`: applies a patch (or, with `reset`, the defaults and then the patch) atomically.
 * Returns the policy and the fields that changed.
 */
export async function setPolicy(
  deps: CoordDeps,
  patch: PolicyPatch,
  reset = false,
): Promise<{ policy: SchedulePolicy; changed: string[] }> {
  checkPolicyPatch(patch);
  const at = deps.now().toISOString();
  return updateDoc(deps, POLICY_DOCUMENT, SchedulePolicySchema, (doc) => {
    const before = JSON.stringify({ ...doc, updated_at: undefined });
    const flat = (p: SchedulePolicy) => ({
      ...Object.fromEntries(WEIGHT_NAMES.map((w) => [`weights.${w}`, p.weights[w]])),
      merge_queue_threshold: p.merge_queue_threshold,
      merge_pressure_penalty: p.merge_pressure_penalty,
      fairness_window: p.fairness_window,
    });
    const old = flat(doc);
    if (reset)
      Object.assign(doc, structuredClone(DEFAULT_POLICY), { weights: { ...DEFAULT_POLICY.weights } });
    for (const [name, value] of Object.entries(patch.weights ?? {}))
      if (value !== undefined) doc.weights[name as WeightName] = value;
    if (patch.merge_queue_threshold !== undefined) doc.merge_queue_threshold = patch.merge_queue_threshold;
    if (patch.merge_pressure_penalty !== undefined) doc.merge_pressure_penalty = patch.merge_pressure_penalty;
    if (patch.fairness_window !== undefined) doc.fairness_window = patch.fairness_window;
    const now = flat(doc);
    const changed = Object.keys(now).filter((k) => now[k as keyof typeof now] !== old[k as keyof typeof old]);
    if (changed.length > 0 || before !== JSON.stringify({ ...doc, updated_at: undefined }))
      doc.updated_at = at;
    return { policy: { ...doc }, changed };
  });
}
