import * as z from 'zod';
import { checkAgentId, isLive, listWorktrees, touchAgent } from '../acl/index.js';
import {
  DEFAULT_POLICY,
  MAX_DECISIONS,
  MAX_NEXT_LIMIT,
  type NextResult,
  POLICY_RANGES,
  readPolicy,
  type SchedulePolicy,
  type ScheduleStatus,
  scheduleNext,
  scheduleStatus,
  setPolicy,
  WEIGHT_NAMES,
} from '../schedule/index.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { coordDeps } from './coord-deps.js';
import { table } from './format.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';
import { taskFields } from './task-input.js';
import { worktreeDeps } from './worktree-ops.js';

const NEXT_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/schedule/next', input: 'body' };
const POLICY_SET_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/schedule/policy', input: 'body' };

/** The live worktrees the affinity term looks at: active, not expired, and not gone from disk. */
async function liveWorktrees(ctx: OpContext) {
  const now = ctx.now();
  return (await listWorktrees(worktreeDeps(ctx)))
    .filter((w) => isLive(w, now) && w.state !== 'missing' && w.state !== 'pruned')
    .map((w) => ({ repository: w.repository, agent_id: w.agent_id }));
}

const decisionLines = (r: NextResult) => {
  if (r.decisions.length === 0) return r.note ?? 'nothing scheduled';
  return r.decisions
    .map((d) =>
      [
        `${r.dry_run ? 'would pick' : d.started ? 'started' : 'picked'} ${d.graph_id}/${d.node_id} (score ${d.score}) for ${d.agent_id}: ${d.title ?? ''}`,
        ...d.reasons.map((x) => `  ${x}`),
        `  next: ${d.bind_command}`,
        `        ${d.compile_command}`,
        ...(d.start_command ? [`        ${d.start_command}`] : []),
      ].join('\n'),
    )
    .join('\n');
};

export const scheduleNextOp = defineOp({
  id: 'schedule.next',
  summary: 'Pick the next ready node(s) for an agent by the policy, start them and record why.',
  description:
    "The score adds priority, affinity (a live worktree of the node's repository: the agent's own counts " +
    'double), cost (fewer estimated tokens first), fairness (repositories scheduled less in the recent ' +
    'decisions) and subtracts the merge-pressure penalty; each term is one line of reasons. By default each ' +
    'pick moves to running for the agent atomically, so agents asking at once get distinct nodes; --no-start ' +
    `only ranks and records; --dry-run records nothing. Decisions are kept in schedule/decisions (newest ${MAX_DECISIONS}) ` +
    'with a ScheduleDecision event each, and carry the bind and compile commands.',
  input: z.strictObject({
    agent_id: taskFields.agent_id,
    graph_id: cliHelp(taskFields.graph_id.optional(), 'Only nodes of this graph.'),
    limit: cliHelp(
      z.coerce.number().int().min(1).max(MAX_NEXT_LIMIT).default(1),
      'How many nodes to pick (1 to 50, default 1).',
    ),
    start: cliHelp(
      z.boolean().default(true).describe('Start each pick for the agent; false only ranks and records.'),
      'Rank and record only; start nothing.',
    ),
    dry_run: cliHelp(z.boolean().default(false), 'Rank only: record nothing, start nothing.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<NextResult> => {
    checkAgentId(input.agent_id);
    return applyWhereStored(ctx, NEXT_ROUTE, input, async (deps) => {
      const r = await scheduleNext(deps, input, await liveWorktrees(ctx));
      if (!input.dry_run) await touchAgent(deps, input.agent_id);
      return r;
    });
  },
  cli: { command: 'schedule next', human: (r) => decisionLines(r) },
  mcp: { tool: 'hub_schedule_next', when: 'Use when you need your next task.' },
  http: [NEXT_ROUTE],
});

export const scheduleStatusOp = defineOp({
  id: 'schedule.status',
  summary: 'The scheduler at a glance: policy, ready count, recent decisions, merge pressure.',
  input: z.strictObject({
    recent: cliHelp(
      z.coerce.number().int().min(0).max(MAX_DECISIONS).default(10),
      'How many recent decisions to show (default 10).',
    ),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): Promise<ScheduleStatus> => scheduleStatus(coordDeps(ctx), input),
  cli: {
    command: 'schedule status',
    human: (r) =>
      [
        `ready: ${r.ready_count}; decisions kept: ${r.decisions_kept}`,
        `merge pressure: ${
          Object.entries(r.merge_pressure)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ') || 'none'
        }`,
        table(
          r.recent_decisions.map((d) => [
            d.at,
            d.agent_id,
            `${d.graph_id}/${d.node_id}`,
            String(d.score),
            d.started ? 'started' : '-',
          ]),
          ['AT', 'AGENT', 'NODE', 'SCORE', 'STARTED'],
        ),
      ]
        .filter(Boolean)
        .join('\n'),
  },
  mcp: { tool: 'hub_schedule_status', when: 'Use when checking what the scheduler decided.' },
  http: [{ method: 'GET', route: '/v3/ops/schedule/status', input: 'query' }],
});

const policyLines = (p: SchedulePolicy) =>
  [
    `weights: ${WEIGHT_NAMES.map((w) => `${w} ${p.weights[w]}`).join(', ')}`,
    `merge_queue_threshold: ${p.merge_queue_threshold}; merge_pressure_penalty: ${p.merge_pressure_penalty}`,
    `fairness_window: ${p.fairness_window} decisions${p.updated_at ? `; updated ${p.updated_at}` : ' (defaults)'}`,
  ].join('\n');

export const schedulePolicyShow = defineOp({
  id: 'schedule.policy.show',
  summary: 'The scheduling policy in force (stored, else the defaults).',
  input: z.strictObject({}),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx): Promise<{ policy: SchedulePolicy; defaults: typeof DEFAULT_POLICY }> => ({
    policy: await readPolicy(coordDeps(ctx)),
    defaults: DEFAULT_POLICY,
  }),
  cli: { command: 'schedule policy show', human: (r) => policyLines(r.policy) },
  mcp: { tool: 'hub_schedule_policy_show', when: 'Use when asking how the scheduler ranks.' },
  http: [{ method: 'GET', route: '/v3/ops/schedule/policy', input: 'query' }],
});

const weightField = z.coerce.number().min(POLICY_RANGES.weight.min).max(POLICY_RANGES.weight.max).optional();

export const schedulePolicySet = defineOp({
  id: 'schedule.policy.set',
  summary: 'Change the scheduling policy; fields not given stay.',
  description:
    'Only the fields given change (--reset first restores the defaults). A value outside its range is refused, ' +
    'naming the field, the value and the rule.',
  input: z.strictObject({
    priority: cliHelp(weightField, 'Weight of the priority term (0 to 100).'),
    affinity: cliHelp(weightField, 'Weight of the affinity term (0 to 100).'),
    cost: cliHelp(weightField, 'Weight of the cost term (0 to 100).'),
    fairness: cliHelp(weightField, 'Weight of the fairness term (0 to 100).'),
    merge_queue_threshold: z.coerce
      .number()
      .int()
      .min(POLICY_RANGES.merge_queue_threshold.min)
      .max(POLICY_RANGES.merge_queue_threshold.max)
      .optional()
      .describe('Queued or running merges that make a repository pressured.'),
    merge_pressure_penalty: z.coerce
      .number()
      .min(POLICY_RANGES.merge_pressure_penalty.min)
      .max(POLICY_RANGES.merge_pressure_penalty.max)
      .optional()
      .describe('Points a pressured repository loses.'),
    fairness_window: z.coerce
      .number()
      .int()
      .min(POLICY_RANGES.fairness_window.min)
      .max(POLICY_RANGES.fairness_window.max)
      .optional()
      .describe('Recent decisions the fairness term counts.'),
    reset: z.boolean().default(false).describe('Restore the defaults first.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<{ policy: SchedulePolicy; changed: string[] }> =>
    applyWhereStored(ctx, POLICY_SET_ROUTE, input, (deps) => {
      const { reset, merge_queue_threshold, merge_pressure_penalty, fairness_window, ...weights } = input;
      return setPolicy(
        deps,
        { weights, merge_queue_threshold, merge_pressure_penalty, fairness_window },
        reset,
      );
    }),
  cli: {
    command: 'schedule policy set',
    human: (r) =>
      `${r.changed.length ? `changed ${r.changed.join(', ')}` : 'nothing changed'}\n${policyLines(r.policy)}`,
  },
  mcp: {
    tool: 'hub_schedule_policy_set',
    when: 'Use when the scheduler should rank differently.',
  },
  http: [POLICY_SET_ROUTE],
});
