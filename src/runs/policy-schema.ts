import * as z from 'zod';
import { ROUTING_COLLECTION } from './class-schema.js';

/** Named policies: `routing/policies` = `{policies: [Policy]}`, sorted by name. */
export const POLICIES_DOCUMENT = `${ROUTING_COLLECTION}/policies`;

export const POLICY_EFFECTS = ['allow', 'deny', 'require_approval'] as const;
export type PolicyEffect = (typeof POLICY_EFFECTS)[number];

export const POLICY_LIMITS = {
  policies: 200,
  rules: 200,
  conditions: 20,
  values: 200,
  value_chars: 500,
  reason_chars: 500,
} as const;

/** Policy names: lower-case letters, digits, `.`, `_`, `-`. */
export const POLICY_NAME_RE = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
/** Input fields a condition names: a key, or a dotted path into nested objects (`gates.lint`). */
export const FIELD_PATH_RE = /^[A-Za-z_][A-Za-z0-9_-]{0,63}(?:\.[A-Za-z_][A-Za-z0-9_-]{0,63}){0,4}$/;

const Scalar = z.union([z.string().max(POLICY_LIMITS.value_chars), z.number(), z.boolean()]);
const Scalars = z.array(Scalar).max(POLICY_LIMITS.values);

/**
 * One condition on one input field: a scalar (equals), a list (one of), or an object of operators, all of which
 * must hold. `exists: false` is the only condition a missing field meets.
 */
export const ConditionSchema = z.union([
  Scalar,
  Scalars,
  z.strictObject({
    eq: Scalar.optional(),
    ne: Scalar.optional(),
    in: Scalars.optional(),
    not_in: Scalars.optional(),
    gt: z.number().optional(),
    gte: z.number().optional(),
    lt: z.number().optional(),
    lte: z.number().optional(),
    /** picomatch glob against a string field (`release/**`). */
    glob: z.string().min(1).max(POLICY_LIMITS.value_chars).optional(),
    exists: z.boolean().optional(),
  }),
]);
export type Condition = z.infer<typeof ConditionSchema>;

export const PolicyRuleSchema = z.strictObject({
  /** Every field's condition must hold (AND); an empty `when` matches every input. */
  when: z
    .record(z.string().regex(FIELD_PATH_RE), ConditionSchema)
    .default({})
    .refine((w) => Object.keys(w).length <= POLICY_LIMITS.conditions, {
      message: `at most ${POLICY_LIMITS.conditions} conditions per rule`,
    }),
  effect: z.enum(POLICY_EFFECTS),
  reason: z.string().max(POLICY_LIMITS.reason_chars).optional(),
});
export type PolicyRule = z.infer<typeof PolicyRuleSchema>;

export const PolicySchema = z.looseObject({
  name: z.string(),
  description: z.string().max(POLICY_LIMITS.reason_chars).optional(),
  /** Rules in order; the first whose `when` holds decides. */
  rules: z.array(PolicyRuleSchema).max(POLICY_LIMITS.rules),
  /** The decision when no rule matches (default `deny`: a policy fails closed). */
  default: z.enum(POLICY_EFFECTS).default('deny'),
  updated_at: z.string().optional(),
});
export type Policy = z.infer<typeof PolicySchema>;

export const PoliciesDocSchema = z.looseObject({ policies: z.array(PolicySchema).default([]) });
