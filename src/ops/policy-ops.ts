import * as z from 'zod';
import { ValidationError } from '../infra/index.js';
import {
  evaluatePolicy,
  listPolicies,
  POLICY_EFFECTS,
  type Policy,
  type PolicyDecision,
  type RunRecord,
  readRun,
  runNotFound,
  setPolicy,
  showPolicy,
} from '../runs/index.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp } from './cli-help.js';
import { coordDeps } from './coord-deps.js';
import { table } from './format.js';
import { pagedList } from './paged-op.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES_IDEMPOTENT } from './registry.js';

const SET_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/policies', input: 'body' };

/**
 * A run as a policy input: its scalar fields (class, tier, lane, repository, branch, actor, outcome, status...),
 * `gate.<name>` = pass|fail, and `gates_passed` / `gates_failed` counts. Evidence and notes are not inputs.
 */
export function runAsPolicyInput(run: RunRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(run))
    if ((typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && k !== 'note')
      out[k] = v;
  out.gate = Object.fromEntries(run.gates.map((g) => [g.name, g.result]));
  out.gates_passed = run.gates.filter((g) => g.result === 'pass').length;
  out.gates_failed = run.gates.filter((g) => g.result === 'fail').length;
  return out;
}

const evalInput = z.strictObject({
  policy: cliHelp(z.string().min(1), 'Policy name (policy list).'),
  input: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('Facts to decide on, e.g. {"class":"REQ-docs","branch":"main"}.'),
  run_id: z.string().optional().describe("Decide on a run's fields instead of `input`."),
});

export const policyEval = defineOp({
  id: 'policy.eval',
  summary: 'Decide by a named policy on `input` or a run: allow, deny or require_approval, and why.',
  description:
    "Rules are tried in order; the first whose every condition holds decides (rule_index), else the policy's " +
    'default (deny unless set). Exit 0 for allow, 1 for deny or require_approval.',
  input: evalInput,
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<PolicyDecision> => {
    const deps = coordDeps(ctx);
    if ((input.input === undefined) === (input.run_id === undefined))
      throw new ValidationError('input: give input (a JSON object) or run_id, one of them', {
        field: 'input',
        rule: 'one_of_input_or_run_id',
      });
    let facts = input.input ?? {};
    if (input.run_id !== undefined) {
      const run = await readRun(deps, input.run_id);
      if (!run) throw await runNotFound(deps, input.run_id);
      facts = runAsPolicyInput(run);
    }
    return evaluatePolicy(deps, input.policy, facts);
  },
  cli: {
    command: 'policy eval',
    human: (r) =>
      `${r.decision} (${r.rule_index === null ? 'default' : `rule ${r.rule_index}`}): ${r.reason}`,
    exitCode: (r) => (r.decision === 'allow' ? 0 : 1),
  },
  mcp: {
    tool: 'hub_policy_eval',
    when: 'Use when checking an action is allowed.',
  },
  http: [
    { method: 'GET', route: '/v3/ops/policies/{policy}/eval', input: 'query' },
    { method: 'POST', route: '/v3/ops/policies/{policy}/eval', input: 'body' },
  ],
});

export const policySet = defineOp({
  id: 'policy.set',
  summary: 'Create or replace a named policy: ordered rules {when, effect, reason} and a default.',
  description:
    'Reads a JSON object on stdin (flags win), e.g. {"rules":[{"when":{"branch":{"glob":"release/**"}},' +
    '"effect":"require_approval","reason":"..."}],"default":"deny"}. A condition is a value (equals), a list ' +
    '(one of) or operators eq, ne, in, not_in, gt, gte, lt, lte, glob, exists. Event PolicySet.',
  input: z.strictObject({
    name: z.string().min(1).describe('Policy name (lower-case letters, digits, ., _ and -).'),
    rules: z.unknown().optional().describe('The ordered rules, a JSON list (required).'),
    default: z.enum(POLICY_EFFECTS).optional().describe('Effect when no rule matches (default deny).'),
    description: cliHelp(z.string().optional(), 'What the policy guards.'),
  }),
  gate: 'active',
  attributes: WRITES_IDEMPOTENT,
  handler: (ctx, input): Promise<{ policy: Policy; created: boolean }> => {
    if (input.rules === undefined)
      throw new ValidationError('rules: required (a JSON list, [] for none)', {
        field: 'rules',
        rule: 'required',
      });
    return applyWhereStored(ctx, SET_ROUTE, input, (deps) =>
      setPolicy(deps, { ...input, rules: input.rules }),
    );
  },
  cli: {
    command: 'policy set',
    stdinJson: true,
    human: (r) =>
      `${r.created ? 'created' : 'replaced'} policy ${r.policy.name}: ${r.policy.rules.length} rule(s), default ${r.policy.default}`,
  },
  mcp: { tool: 'hub_policy_set', when: 'Use when a rule for agents should change.' },
  http: [SET_ROUTE],
});

export const policyList = pagedList(
  defineOp({
    id: 'policy.list',
    summary: 'List named policies with their rule count and default effect.',
    input: z.strictObject({}),
    gate: 'active',
    attributes: READ_ONLY,
    handler: (ctx) => listPolicies(coordDeps(ctx)),
    cli: {
      command: 'policy list',
      human: (r) =>
        r.policies.length === 0
          ? 'no policies (set one: hub policy set)'
          : table(
              r.policies.map((p) => [p.name, String(p.rules), p.default, p.description ?? '']),
              ['POLICY', 'RULES', 'DEFAULT', 'DESCRIPTION'],
            ),
    },
    mcp: { tool: 'hub_policy_list', when: 'Use when asking which policies exist.' },
    http: [{ method: 'GET', route: '/v3/ops/policies', input: 'query' }],
  }),
  { key: 'policies', noun: 'Policies', order: 'in stored order' },
);

export const policyShow = defineOp({
  id: 'policy.show',
  summary: 'A named policy: its rules in order and its default effect.',
  input: z.strictObject({ name: cliHelp(z.string().min(1), 'Policy name.') }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input) => showPolicy(coordDeps(ctx), input.name),
  cli: { command: 'policy show', human: (r) => JSON.stringify(r.policy, null, 2) },
  mcp: { tool: 'hub_policy_show', when: 'Use when you need one policy in full.' },
  http: [{ method: 'GET', route: '/v3/ops/policies/{name}', input: 'query' }],
});
