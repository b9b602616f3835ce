import * as z from 'zod';
import {
  agentHeartbeat,
  checkAgentId,
  expiryOf,
  type HeartbeatResult,
  resolveRepository,
} from '../acl/index.js';
import {
  type AosDoctor,
  type AosStatus,
  aosDoctor,
  aosStatus,
  type RecoverResult,
  recoverAgents,
} from '../aos/index.js';
import type { NextResult } from '../schedule/index.js';
import { aclFields, repoDeps } from './acl-deps.js';
import { aosRecoverers, aosSubsystems } from './aos-subsystems.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp } from './cli-help.js';
import { table } from './format.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';
import { scheduleNextOp } from './schedule-ops.js';
import { type BindOutput, taskBindAcl } from './task-bind-ops.js';
import { worktreeDeps } from './worktree-ops.js';

const shown = (v: unknown): string =>
  Array.isArray(v)
    ? String(v.length)
    : v !== null && typeof v === 'object'
      ? `{${Object.entries(v)
          .map(([k, x]) => `${k} ${String(x)}`)
          .join(', ')}}`
      : String(v);
/** Summary keys listed under the table rather than in it. */
const LISTED_BELOW = new Set(['leases_live']);
const showSummary = (summary: Record<string, unknown>) =>
  Object.entries(summary)
    .filter(([k]) => !LISTED_BELOW.has(k))
    .map(([k, v]) => `${k} ${shown(v)}`)
    .join(', ');

/** The live leases of the acl summary, one line each with its fence. */
function leaseLines(r: AosStatus): string[] {
  const acl = r.subsystems.acl;
  const live = acl?.available
    ? (acl.summary.leases_live as Array<Record<string, unknown>> | undefined)
    : undefined;
  if (!live?.length) return [];
  return [
    'live leases:',
    ...live.map(
      (l) =>
        `  ${l.repository} task ${l.task_id}: ${l.agent_id} fence ${l.fence ?? '-'} until ${l.expires_at}`,
    ),
  ];
}

export const aosStatusOp = defineOp({
  id: 'aos.status',
  summary: 'One view of every coordination subsystem and who holds what.',
  description:
    'A subsystem that cannot be read is shown unavailable with its error; the others still answer.',
  input: z.strictObject({}),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx): Promise<AosStatus> => aosStatus(aosSubsystems(ctx), ctx.now()),
  cli: {
    command: 'aos status',
    human: (r) =>
      [
        table(
          Object.entries(r.subsystems).map(([name, v]) => [
            name,
            v.available ? 'ok' : 'unavailable',
            v.available ? showSummary(v.summary) : v.error,
          ]),
          ['SUBSYSTEM', 'STATE', 'SUMMARY'],
        ),
        ...leaseLines(r),
      ].join('\n'),
  },
  mcp: { tool: 'hub_aos_status', when: 'Use when you need the whole picture.' },
  http: [{ method: 'GET', route: '/v3/ops/aos/status', input: 'query' }],
});

export const aosDoctorOp = defineOp({
  id: 'aos.doctor',
  summary:
    'Problems across subsystems (dead holders, stale leases, orphan worktrees, blocked merges) and what to run.',
  description:
    'Only reads; `aos recover` releases what dead agents held. Merge requests that cannot proceed (a target ' +
    'checked out, a conflict, a failure, an integrator gone) are named with the command that frees each. Exits 1 ' +
    'when health is warning or error (the report is still printed).',
  input: z.strictObject({}),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx): Promise<AosDoctor> => aosDoctor(aosSubsystems(ctx), ctx.now()),
  cli: {
    command: 'aos doctor',
    // Something to do is a finding a script must see; info alone (health ok) is not.
    exitCode: (r) => (r.health === 'ok' ? 0 : 1),
    human: (r) =>
      r.findings.length === 0
        ? 'health ok: nothing to do'
        : [
            `health ${r.health}: ${r.findings.length} finding(s)`,
            table(
              r.findings.map((f) => [f.severity, f.subsystem, f.code, f.message]),
              ['SEVERITY', 'SUBSYSTEM', 'CODE', 'MESSAGE'],
            ),
            'suggested:',
            ...r.suggested_commands.map((c) => `  ${c}`),
          ].join('\n'),
  },
  mcp: { tool: 'hub_aos_doctor', when: 'Use when coordination seems stuck.' },
  http: [{ method: 'GET', route: '/v3/ops/aos/doctor', input: 'query' }],
});

const recoveredLine = (a: RecoverResult['agents'][number], dry: boolean) => {
  const verb = dry ? 'would release' : 'released';
  const kept = a.worktrees.filter((w) => w.action === 'kept');
  const parts = [
    `${a.agent_id}: ${verb} ${a.leases.length} lease(s), ${a.claims.length} claim(s), ${a.branches.length} branch allocation(s)`,
    ...a.worktrees.map(
      (w) =>
        `  worktree ${w.id} ${w.action}${w.reasons.length ? ` (${w.reasons.map((b) => b.reason).join(', ')})` : ''}${w.host ? ` on ${w.host}` : ''}`,
    ),
    ...Object.entries(a.other).map(([room, items]) => `  ${room}: ${items.length}`),
  ];
  if (kept.length > 0)
    parts.push('  kept worktrees hold work: commit or push it, then `hub worktree destroy`');
  return parts.join('\n');
};

export const aosRecoverOp = defineOp({
  id: 'aos.recover',
  summary: 'Release what dead agents held: leases, claims, branches, clean worktrees, running work.',
  description:
    'Default: every agent that is not live and still holds something. A worktree with uncommitted changes, ' +
    'untracked files or unpushed commits is never removed (reported with the reasons); git branches stay.',
  input: z.strictObject({
    agent_id: z
      .array(z.string().min(1))
      .max(100)
      .optional()
      .describe('Only these agents (default: every dead holder).'),
    dry_run: cliHelp(z.boolean().default(false), 'Report what would be released, changing nothing.'),
    force: z.boolean().default(false).describe('Recover a named agent even while it is live.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<RecoverResult> => {
    for (const id of input.agent_id ?? []) checkAgentId(id);
    return recoverAgents(worktreeDeps(ctx), (id) => resolveRepository(repoDeps(ctx), id), {
      agentIds: input.agent_id,
      dryRun: input.dry_run,
      force: input.force,
      recoverers: aosRecoverers(ctx),
    });
  },
  cli: {
    command: 'aos recover',
    human: (r) =>
      r.agents.length === 0
        ? 'no dead agent holds anything'
        : r.agents.map((a) => recoveredLine(a, r.dry_run)).join('\n'),
  },
  mcp: { tool: 'hub_aos_recover', when: 'Use when dead agents left things held.' },
  http: [{ method: 'POST', route: '/v3/ops/aos/recover', input: 'body' }],
});

const AOS_HEARTBEAT_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/aos/heartbeat', input: 'body' };

export const aosHeartbeatOp = defineOp({
  id: 'aos.heartbeat',
  summary: 'Keep an agent live: mark it seen for its TTL, renew its live leases and claims.',
  description: 'The same as `agent heartbeat`, under the agent operating view.',
  input: z.strictObject({
    agent_id: aclFields.agent_id,
    ttl: aclFields.ttl,
    note: z.string().max(500).optional().describe('What you are doing.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<HeartbeatResult> => {
    checkAgentId(input.agent_id);
    if (input.ttl !== undefined) expiryOf(input.ttl, ctx.now());
    return applyWhereStored(ctx, AOS_HEARTBEAT_ROUTE, input, (deps) =>
      agentHeartbeat(deps, input.agent_id, { ttl: input.ttl, note: input.note }),
    );
  },
  cli: {
    command: 'aos heartbeat',
    human: (r) =>
      `${r.agent.agent_id} live until ${r.agent.expires_at}; renewed ${Object.entries(r.renewed)
        .map(([c, list]) => `${list.length} ${c}`)
        .join(', ')}`,
  },
  mcp: { tool: 'hub_aos_heartbeat', when: 'Use when working long, every few minutes.' },
  http: [AOS_HEARTBEAT_ROUTE],
});

export interface AosNext {
  generated_at: string;
  agent_id: string;
  /** `preview` ranks only; `commit` records the decision and starts the node; `apply` also binds it. */
  mode: 'preview' | 'commit' | 'apply';
  schedule: NextResult;
  /** The binding `--apply` made (branch, lease, worktree, claim), or null. */
  bind: BindOutput | null;
  /** What the agent runs next, in order. */
  next_commands: string[];
}

export const aosNextOp = defineOp({
  id: 'aos.next',
  summary: "An agent's next step: the scheduler's pick, started with `commit`, bound with `apply`.",
  description:
    'Default: a preview (the ranking of schedule next --dry-run; nothing recorded). --commit is schedule next ' +
    '(the decision recorded, the node started for the agent atomically). --apply also runs task bind-acl on the ' +
    'pick: branch, lease, worktree and claim. The answer ends with the commands to run next.',
  input: z.strictObject({
    agent_id: aclFields.agent_id,
    graph_id: cliHelp(z.string().min(1).optional(), 'Only nodes of this graph.'),
    commit: z.boolean().default(false).describe('Record the decision and start the node for the agent.'),
    apply: z
      .boolean()
      .default(false)
      .describe('Commit, then bind the node (branch, lease, worktree, claim).'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<AosNext> => {
    checkAgentId(input.agent_id);
    const mode = input.apply ? 'apply' : input.commit ? 'commit' : 'preview';
    const schedule = await scheduleNextOp.handler(
      ctx,
      scheduleNextOp.input.parse({
        agent_id: input.agent_id,
        graph_id: input.graph_id,
        dry_run: mode === 'preview',
      }),
    );
    const pick = schedule.decisions[0];
    let bind: BindOutput | null = null;
    if (pick && mode === 'apply')
      bind = await taskBindAcl.handler(
        ctx,
        taskBindAcl.input.parse({ graph_id: pick.graph_id, node_id: pick.node_id, agent_id: input.agent_id }),
      );
    const next_commands = !pick
      ? []
      : mode === 'preview'
        ? [
            `hub aos next --agent-id ${input.agent_id}${input.graph_id ? ` --graph-id ${input.graph_id}` : ''} --apply`,
          ]
        : [
            ...(mode === 'commit' && pick.bind_command ? [pick.bind_command] : []),
            ...(pick.compile_command ? [pick.compile_command] : []),
            `hub task complete --graph-id ${pick.graph_id} --node-id ${pick.node_id} --agent-id ${input.agent_id}`,
          ];
    return {
      generated_at: ctx.now().toISOString(),
      agent_id: input.agent_id,
      mode,
      schedule,
      bind,
      next_commands,
    };
  },
  cli: {
    command: 'aos next',
    human: (r) => {
      const pick = r.schedule.decisions[0];
      if (!pick) return `nothing for ${r.agent_id}: ${r.schedule.note ?? 'no ready task'}`;
      return [
        `${r.mode === 'preview' ? 'would pick' : 'picked'} ${pick.graph_id}/${pick.node_id} (${pick.title ?? ''}) score ${pick.score}`,
        ...pick.reasons.map((x) => `  ${x}`),
        ...(r.bind?.acl
          ? [`bound: branch ${r.bind.acl.branch ?? '-'}, worktree ${r.bind.acl.worktree_id ?? '-'}`]
          : []),
        'next:',
        ...r.next_commands.map((c) => `  ${c}`),
      ].join('\n');
    },
  },
  mcp: { tool: 'hub_aos_next', when: 'Use when you want your next task set up.' },
  http: [{ method: 'POST', route: '/v3/ops/aos/next', input: 'body' }],
});
