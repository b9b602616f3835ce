import picomatch from 'picomatch';
import { didYouMean, suggestionText } from '../catalog/index.js';
import { type CoordDeps, readDoc, updateDoc } from '../coord/index.js';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { recordRunEvent } from './events.js';
import {
  type Condition,
  POLICIES_DOCUMENT,
  POLICY_LIMITS,
  POLICY_NAME_RE,
  PoliciesDocSchema,
  type Policy,
  type PolicyEffect,
  PolicySchema,
} from './policy-schema.js';

export function checkPolicyName(name: string, field = 'policy'): string {
  if (!POLICY_NAME_RE.test(name))
    throw new ValidationError(
      `${field}: '${name.slice(0, 80)}' is not a valid policy name; use lower-case letters, digits, '.', '_' and '-' (at most 64)`,
      { field, value: name.slice(0, 200), rule: POLICY_NAME_RE.source },
    );
  return name;
}

export async function readPolicies(deps: CoordDeps): Promise<Policy[]> {
  return (await readDoc(deps, POLICIES_DOCUMENT, PoliciesDocSchema)).policies;
}

function policyNotFound(name: string, known: readonly Policy[]): NotFoundError {
  const suggestions = didYouMean(
    name,
    known.map((p) => p.name),
  );
  const add = known.length === 0 ? '; no policies yet (set one with `hub policy set`)' : '';
  return new NotFoundError(`policy: no policy '${name}'${suggestionText(suggestions)}${add}`, {
    field: 'policy',
    value: name,
    rule: 'known_policy',
    suggestions,
  });
}

export async function showPolicy(deps: CoordDeps, name: string): Promise<{ policy: Policy }> {
  checkPolicyName(name);
  const all = await readPolicies(deps);
  const policy = all.find((p) => p.name === name);
  if (!policy) throw policyNotFound(name, all);
  return { policy };
}

export async function listPolicies(deps: CoordDeps): Promise<{
  policies: Array<{ name: string; description?: string; rules: number; default: PolicyEffect }>;
  count: number;
}> {
  const policies = (await readPolicies(deps)).map((p) => ({
    name: p.name,
    ...(p.description === undefined ? {} : { description: p.description }),
    rules: p.rules.length,
    default: p.default,
  }));
  return { policies, count: policies.length };
}

/** Parses a policy body; the first problem is reported with its path (`rules.2.when.tier.gte`). */
export function parsePolicy(name: string, body: unknown): Policy {
  const parsed = PolicySchema.safeParse({ ...(body as object), name });
  if (parsed.success) {
    for (const [i, rule] of parsed.data.rules.entries())
      for (const [field, cond] of Object.entries(rule.when)) checkCondition(cond, `rules.${i}.when.${field}`);
    return parsed.data;
  }
  const iss = parsed.error.issues[0]!;
  const where = iss.path.map(String).join('.') || 'policy';
  throw new ValidationError(`${where}: ${iss.message}`, { field: where, rule: iss.code });
}

function checkCondition(cond: Condition, where: string): void {
  if (typeof cond !== 'object' || Array.isArray(cond)) return;
  if (Object.keys(cond).length === 0)
    throw new ValidationError(`${where}: an operator object needs at least one operator`, {
      field: where,
      rule: 'one_operator',
    });
  if (cond.glob !== undefined) {
    try {
      picomatch.makeRe(cond.glob);
    } catch (err) {
      throw new ValidationError(`${where}.glob: '${cond.glob}' is not a glob (${(err as Error).message})`, {
        field: `${where}.glob`,
        value: cond.glob,
        rule: 'picomatch',
      });
    }
  }
}

/**
 * Creates or replaces a named policy in `routing/policies` (atomically), checked whole before it is stored, so
 * `policy eval` never meets a malformed rule. Event `PolicySet`.
 */
export async function setPolicy(
  deps: CoordDeps,
  input: { name: string; rules: unknown; default?: PolicyEffect; description?: string },
): Promise<{ policy: Policy; created: boolean }> {
  const name = checkPolicyName(input.name, 'name');
  const policy: Policy = {
    ...parsePolicy(name, { rules: input.rules, default: input.default, description: input.description }),
    updated_at: deps.now().toISOString(),
  };
  const created = await updateDoc(deps, POLICIES_DOCUMENT, PoliciesDocSchema, (doc) => {
    const i = doc.policies.findIndex((p) => p.name === name);
    if (i < 0 && doc.policies.length >= POLICY_LIMITS.policies)
      throw new RefusedError(
        `name: ${doc.policies.length} policies are stored, the most kept`,
        { field: 'name', value: name, rule: `max ${POLICY_LIMITS.policies} policies` },
        409,
      );
    if (i >= 0) doc.policies[i] = policy;
    else doc.policies.push(policy);
    doc.policies.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return i < 0;
  });
  await recordRunEvent(deps, 'PolicySet', name, {
    policy: name,
    rules: policy.rules.length,
    default: policy.default,
    created,
  });
  return { policy, created };
}

/** The value at a dotted path of the input (undefined when any step is missing or not an object). */
function valueAt(input: Record<string, unknown>, path: string): unknown {
  let cur: unknown = input;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.hasOwn(cur, key))
      return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/** Longest string a glob is matched against (branch names, paths): longer values never match. */
const MAX_GLOB_SUBJECT = 4096;

const isScalar = (v: unknown): v is string | number | boolean =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** Whether one condition holds for `value` (undefined or null: the field is missing). Comparisons are strict. */
export function conditionHolds(cond: Condition, value: unknown): boolean {
  const present = value !== undefined && value !== null;
  if (isScalar(cond)) return present && value === cond;
  if (Array.isArray(cond)) return present && cond.includes(value as string);
  if (cond.exists !== undefined && cond.exists !== present) return false;
  const ops = Object.keys(cond).filter((k) => k !== 'exists');
  if (ops.length === 0) return true;
  if (!present || !isScalar(value)) return false;
  if (cond.eq !== undefined && value !== cond.eq) return false;
  if (cond.ne !== undefined && value === cond.ne) return false;
  if (cond.in !== undefined && !cond.in.includes(value)) return false;
  if (cond.not_in?.includes(value)) return false;
  const num = typeof value === 'number' ? value : undefined;
  if (cond.gt !== undefined && !(num !== undefined && num > cond.gt)) return false;
  if (cond.gte !== undefined && !(num !== undefined && num >= cond.gte)) return false;
  if (cond.lt !== undefined && !(num !== undefined && num < cond.lt)) return false;
  if (cond.lte !== undefined && !(num !== undefined && num <= cond.lte)) return false;
  if (
    cond.glob !== undefined &&
    !(
      typeof value === 'string' &&
      value.length <= MAX_GLOB_SUBJECT &&
      picomatch.isMatch(value, cond.glob, { dot: true })
    )
  )
    return false;
  return true;
}

export interface PolicyDecision {
  policy: string;
  decision: PolicyEffect;
  /** Index of the rule that decided, or null when none matched and the policy's default did. */
  rule_index: number | null;
  reason: string;
}

/** First match: the first rule whose every condition holds decides; none matching, the policy's default does. */
export function decidePolicy(policy: Policy, input: Record<string, unknown>): PolicyDecision {
  for (const [i, rule] of policy.rules.entries()) {
    if (Object.entries(rule.when).every(([field, cond]) => conditionHolds(cond, valueAt(input, field))))
      return {
        policy: policy.name,
        decision: rule.effect,
        rule_index: i,
        reason: rule.reason ?? `rule ${i}`,
      };
  }
  return {
    policy: policy.name,
    decision: policy.default,
    rule_index: null,
    reason: `no rule matched; the policy's default is ${policy.default}`,
  };
}

/** `policy eval`: the decision of a stored policy for an input object. */
export async function evaluatePolicy(
  deps: CoordDeps,
  name: string,
  input: Record<string, unknown>,
): Promise<PolicyDecision> {
  const { policy } = await showPolicy(deps, name);
  return decidePolicy(policy, input);
}
