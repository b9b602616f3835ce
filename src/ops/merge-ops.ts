import * as z from 'zod';
import { checkAgentId, checkTaskId } from '../acl/index.js';
import { ValidationError } from '../infra/index.js';
import {
  blockOf,
  CANCELLABLE_STATUSES,
  cancelMerge,
  checkEnqueue,
  type EnqueueResult,
  integrateMerge,
  integrateNext,
  listMerges,
  MERGE_STATUSES,
  type MergeBlock,
  type MergeList,
  type MergeRequest,
  recordEnqueue,
  retryMerge,
  TransitionSchema,
  transitionMerge,
} from '../merge/index.js';
import { aclTaskId } from '../taskgraph/index.js';
import { aclFields } from './acl-deps.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp } from './cli-help.js';
import { coordDeps } from './coord-deps.js';
import { table } from './format.js';
import {
  mergeDeps,
  mergeFields,
  mergeTarget,
  TRANSITION_ROUTE,
  targetOfMerge,
  transitionTarget,
} from './merge-deps.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';

const ENQUEUE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/merges', input: 'body' };
const SHA = z
  .string()
  .regex(/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/, 'a full commit id')
  .optional();

/** One line per request: id, status, what into what, where. */
export const mergeLine = (m: MergeRequest) =>
  `${m.merge_id} [${m.status}] ${m.repository}: ${m.source_branch} -> ${m.target_branch}${m.fence !== undefined ? ` (task ${m.task_id} fence ${m.fence})` : ''}${m.commit_sha ? ` at ${m.commit_sha.slice(0, 12)}` : ''}`;

/** A request's fence for a table cell: `3 (T-1)`, or `-` for an unfenced request. */
const fenceCell = (m: MergeRequest) => (m.fence !== undefined ? `${m.fence} (${m.task_id})` : '-');

/** The request's outcome for people: conflict files and the commands that take it, a failed validator, an error. */
export function outcomeLines(m: MergeRequest): string[] {
  const out = [mergeLine(m)];
  if (m.conflict) {
    out.push(`  conflict: ${m.conflict.message}`, ...m.conflict.files.map((f) => `    ${f}`));
    out.push('  to take it:', ...m.conflict.acl_commands.map((c) => `    ${c}`));
    out.push(...m.conflict.resolve_steps.map((c) => `    ${c}`));
  }
  if (m.regenerated && m.status !== 'conflict') out.push(`  regenerated: ${m.regenerated.files.join(', ')}`);
  const failed = m.validation && !m.validation.ok ? m.validation.commands.at(-1) : undefined;
  if (failed) {
    out.push(
      `  validator failed: ${failed.argv.join(' ')} (${failed.timed_out ? 'timed out' : `exit ${failed.exit_code ?? failed.signal}`})`,
    );
    const tail = (failed.stderr || failed.stdout).trimEnd().split('\n').slice(-10);
    out.push(...tail.map((l) => `    ${l}`));
  }
  if (m.error_message && !m.stale_fence)
    out.push(`  ${m.retryable ? 'failed (retryable)' : 'failed'}: ${m.error_message}`);
  if (m.stale_fence)
    out.push(
      `  refused (stale_fence): fence ${m.stale_fence.fence} of task ${m.stale_fence.task_id}${m.stale_fence.current ? `; the task is leased to ${m.stale_fence.current.agent_id} with fence ${m.stale_fence.current.fence}` : ''}`,
    );
  return out;
}

/** A request that did not land is a finding: the CLI exits 1, the other surfaces answer with the record. */
const notLanded = (r: { merge: MergeRequest }) => (r.merge.status === 'succeeded' ? 0 : 1);

/** Something the caller should know about a request that was accepted: its target is checked out here. */
export interface EnqueueWarning {
  code: 'target_checked_out';
  message: string;
  worktrees: string[];
  /** Frees the target, so integrate can take the request. */
  command: string;
  /** Withdraws the request instead. */
  cancel_command: string;
}

export type EnqueueOutput = EnqueueResult & { warnings: EnqueueWarning[] };

function enqueueWarning(b: MergeBlock): EnqueueWarning {
  return {
    code: 'target_checked_out',
    message: `into: '${b.target_branch}' is checked out in ${b.worktrees.join(', ')}; the request is queued, but integrate passes over it (and integrate with its merge_id is refused) until no checkout holds the branch: ${b.command} (or withdraw it: ${b.cancel_command})`,
    worktrees: b.worktrees,
    command: b.command,
    cancel_command: b.cancel_command,
  };
}

/** One line per request integrate passed over: which, why, and the command that frees it. */
const passedLines = (list: readonly MergeBlock[]) =>
  list.map(
    (b) =>
      `passed over ${b.merge_id} (${b.source_branch} -> ${b.target_branch}): target checked out in ${b.worktrees.join(', ')}; free it: ${b.command} (or ${b.cancel_command})`,
  );

export const mergeEnqueue = defineOp({
  id: 'merge.enqueue',
  summary: 'Queue a branch to merge into a target branch of a repository.',
  description:
    'Both branches are checked in the checkout: the source must exist, the target too (the error says how to ' +
    'make it). The same source already queued or running into the same target is returned (created: false). ' +
    'A target checked out in a worktree here is accepted with a warning (warnings: target_checked_out, with the ' +
    'command that frees it): integrate passes over such a request until the checkout lets go of the branch. ' +
    "With `agent_id` the request carries the fence of that agent's lease of its task (`task_id`, else the task " +
    'of `graph_id` and `node_id`, else that of its lease on the branch): integrate, promote and rollup refuse it once ' +
    'the task was leased again (stale_fence). Records merges/<repo key> atomically and a MergeEnqueued event.',
  input: z.strictObject({
    repository: aclFields.repository,
    branch: z.string().min(1).describe('Source branch to merge.'),
    into: mergeFields.into,
    node_id: cliHelp(z.string().min(1).max(200).optional(), 'Task graph node the branch belongs to.'),
    graph_id: cliHelp(z.string().min(1).max(200).optional(), 'Task graph of that node.'),
    agent_id: cliHelp(aclFields.agent_id.optional(), 'Agent whose work the branch is.'),
    task_id: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Task of the branch (default: `graph_id`.`node_id`, else the task of the agent's lease on it).",
      ),
    git: cliHelp(
      z
        .boolean()
        .default(true)
        .describe('Check both branches in the checkout; false records the request only.'),
      'Record the request only, for a caller that checked both branches.',
    ),
    source_sha: SHA.describe('With `git`: false, the source head you saw.'),
    target_sha: SHA.describe('With `git`: false, the target head you saw.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<EnqueueOutput> => {
    const target = await mergeTarget(ctx, input.repository);
    if (input.agent_id !== undefined) checkAgentId(input.agent_id);
    const taskId =
      input.task_id !== undefined
        ? checkTaskId(input.task_id)
        : input.graph_id !== undefined && input.node_id !== undefined
          ? aclTaskId(input.graph_id, input.node_id)
          : undefined;
    const req = {
      source_branch: input.branch,
      target_branch: input.into,
      ...(input.node_id === undefined ? {} : { node_id: input.node_id }),
      ...(input.graph_id === undefined ? {} : { graph_id: input.graph_id }),
      ...(input.agent_id === undefined ? {} : { agent_id: input.agent_id }),
      ...(taskId === undefined ? {} : { task_id: taskId }),
    };
    let heads: { source_sha?: string; target_sha?: string };
    if (input.git) {
      for (const field of ['source_sha', 'target_sha'] as const)
        if (input[field] !== undefined)
          throw new ValidationError(`${field}: only with --no-git (otherwise hub reads it in the checkout)`, {
            field,
            rule: 'only_without_git',
          });
      heads = await checkEnqueue(target, req);
    } else {
      heads = {
        ...(input.source_sha ? { source_sha: input.source_sha } : {}),
        ...(input.target_sha ? { target_sha: input.target_sha } : {}),
      };
    }
    const body = {
      repository: target.id,
      branch: input.branch,
      into: input.into,
      ...req,
      git: false,
      ...heads,
    };
    delete (body as Record<string, unknown>).source_branch;
    delete (body as Record<string, unknown>).target_branch;
    const r = await applyWhereStored(ctx, ENQUEUE_ROUTE, body, (deps) =>
      recordEnqueue(deps, target, { ...req, ...heads }),
    );
    // Accepted either way (the checkout may let go before integration, and on a shared queue another machine may
    // integrate it); the caller is told now rather than finding the request stuck later.
    const block = input.git && target.root ? await blockOf(target.root, r.merge) : undefined;
    return { ...r, warnings: block ? [enqueueWarning(block)] : [] };
  },
  cli: {
    command: 'merge enqueue',
    human: (r) =>
      [
        `${r.created ? 'queued' : r.refenced ? 'already queued, now under this fence:' : 'already queued'} ${mergeLine(r.merge)}`,
        ...r.warnings.map((w) => `warning: ${w.message}`),
      ].join('\n'),
  },
  mcp: { tool: 'hub_merge_enqueue', when: 'Use when a finished branch should be merged.' },
  http: [ENQUEUE_ROUTE],
});

export const mergeStatus = defineOp({
  id: 'merge.status',
  summary: 'List merge requests in queue order, by repository, status or id.',
  description:
    'A pure read. Requests of every repository unless --repository; --limit (default 100) and --offset page ' +
    'through them (next_offset names the next page, null on the last).',
  input: z.strictObject({
    repository: cliHelp(aclFields.repository.optional(), 'Only this repository (project/repo, . or self).'),
    status: cliHelp(
      z.enum(MERGE_STATUSES).optional(),
      'Only this status: queued, running, succeeded, failed, conflict, validation_failed.',
    ),
    merge_id: cliHelp(mergeFields.merge_id.optional(), 'Only this request.'),
    limit: z.coerce.number().int().min(1).max(1000).optional().describe('Page size (default 100).'),
    offset: cliHelp(
      z.coerce.number().int().min(0).optional(),
      'Requests to skip (next_offset of the last page).',
    ),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<MergeList> => {
    const target = input.repository === undefined ? undefined : await mergeTarget(ctx, input.repository);
    return listMerges(coordDeps(ctx), {
      ...(target ? { repository: target.id, key: target.key } : {}),
      status: input.status,
      merge_id: input.merge_id,
      offset: input.offset,
      limit: input.limit,
    });
  },
  cli: {
    command: 'merge status',
    human: (r) =>
      r.merges.length === 0
        ? 'no merge requests'
        : `${table(
            r.merges.map((m) => [
              m.merge_id,
              m.status,
              m.repository,
              m.source_branch,
              m.target_branch,
              fenceCell(m),
              m.updated_at,
            ]),
            ['MERGE', 'STATUS', 'REPOSITORY', 'BRANCH', 'INTO', 'FENCE', 'UPDATED'],
          )}\n${r.merges.length} of ${r.total}${r.next_offset !== null ? `; next page: --offset ${r.next_offset}` : ''}`,
  },
  mcp: { tool: 'hub_merge_status', when: 'Use when asking where a merge stands.' },
  http: [{ method: 'GET', route: '/v3/ops/merges', input: 'query' }],
});

export const mergeIntegrate = defineOp({
  id: 'merge.integrate',
  summary: 'Integrate a queued merge in a temporary worktree: merge, validate, move the target.',
  description:
    'Takes --merge-id, or the first queued request of --repository that can proceed: requests whose target is ' +
    'checked out are passed over (passed_over: each with why and the command that frees it), and only when every ' +
    'queued request is blocked is the call refused. A named request is refused (409, naming the worktrees) while ' +
    'the target branch is checked out anywhere. The request is claimed atomically (running), merged with ' +
    'git merge --no-ff in a temporary worktree at the target head, merge.validators run there without a shell, ' +
    'and the target ref moves by compare-and-swap. A conflict every path of which merge.regenerate covers is ' +
    'rebuilt; any other ends conflict with its files and the commands to take it. No checkout is touched.',
  input: z.strictObject({
    merge_id: mergeFields.merge_id.optional(),
    repository: cliHelp(
      aclFields.repository
        .optional()
        .describe('Without `merge_id`: its first queued request that can proceed.'),
      'Repository (project/repo, . or self); without --merge-id its first queued request that can proceed.',
    ),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ merge: MergeRequest; passed_over: MergeBlock[] }> => {
    if (input.merge_id === undefined && input.repository === undefined)
      throw new ValidationError('merge_id: give --merge-id, or --repository for its oldest queued request', {
        field: 'merge_id',
        rule: 'merge_id or repository',
      });
    if (input.merge_id === undefined)
      return integrateNext(mergeDeps(ctx), await mergeTarget(ctx, input.repository!));
    const { target } = await targetOfMerge(ctx, input.merge_id, input.repository);
    return {
      merge: await integrateMerge(mergeDeps(ctx), target, { merge_id: input.merge_id }),
      passed_over: [],
    };
  },
  cli: {
    command: 'merge integrate',
    human: (r) => [...outcomeLines(r.merge), ...passedLines(r.passed_over)].join('\n'),
    exitCode: (r) => notLanded(r),
  },
  mcp: { tool: 'hub_merge_integrate', when: 'Use when a queued merge should land now.' },
  http: [{ method: 'POST', route: '/v3/ops/merges/integrate', input: 'body' }],
});

export const mergeRetry = defineOp({
  id: 'merge.retry',
  summary: 'Requeue a failed, conflicted or invalid merge and integrate it again.',
  description:
    'Also takes back a request left running by an integrator process of this machine that no longer exists (an ' +
    'agent killed mid-merge). Refused while the target is checked out anywhere; the request then keeps its state.',
  input: z.strictObject({
    merge_id: mergeFields.merge_id,
    repository: cliHelp(
      aclFields.repository.optional().describe('Default: found by id.'),
      'Repository of the request (default: found by id).',
    ),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ merge: MergeRequest }> => {
    const { target } = await targetOfMerge(ctx, input.merge_id, input.repository);
    return { merge: await retryMerge(mergeDeps(ctx), target, input.merge_id) };
  },
  cli: {
    command: 'merge retry',
    human: (r) => outcomeLines(r.merge).join('\n'),
    exitCode: (r) => notLanded(r),
  },
  mcp: { tool: 'hub_merge_retry', when: "Use when a failed merge's cause is fixed." },
  http: [{ method: 'POST', route: '/v3/ops/merges/retry', input: 'body' }],
});

export const mergeCancel = defineOp({
  id: 'merge.cancel',
  summary: 'Withdraw a queued, refused or failed merge request (kept as cancelled).',
  description:
    `From ${CANCELLABLE_STATUSES.join(', ')} (a request whose integration is refused stays queued). The request ` +
    'stays in the queue record as cancelled with cancelled_by (the agent id, else hub), cancelled_at, ' +
    'cancel_reason and cancelled_from, and a MergeCancelled event is recorded. A succeeded, running or already ' +
    'cancelled request is refused (409) saying why. Needs no checkout: only the queue changes.',
  input: z.strictObject({
    merge_id: mergeFields.merge_id,
    repository: cliHelp(
      aclFields.repository.optional().describe('Default: found by id.'),
      'Repository of the request (default: found by id).',
    ),
    agent_id: aclFields.agent_id
      .optional()
      .describe('Who withdraws it, recorded as cancelled_by (default hub).'),
    reason: z.string().min(1).max(500).optional().describe('Why, kept on the request as cancel_reason.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ merge: MergeRequest }> => {
    if (input.agent_id !== undefined) checkAgentId(input.agent_id);
    const { target } = await targetOfMerge(ctx, input.merge_id, input.repository);
    return {
      merge: await cancelMerge(mergeDeps(ctx), target, {
        merge_id: input.merge_id,
        by: input.agent_id,
        reason: input.reason,
      }),
    };
  },
  cli: {
    command: 'merge cancel',
    human: (r) =>
      `cancelled ${mergeLine(r.merge)} (was ${r.merge.cancelled_from}; by ${r.merge.cancelled_by} at ${r.merge.cancelled_at})`,
  },
  mcp: {
    tool: 'hub_merge_cancel',
    when: 'Use when a request should not land or holds up the queue.',
  },
  http: [{ method: 'POST', route: '/v3/ops/merges/cancel', input: 'body' }],
});

export const mergeTransition = defineOp({
  id: 'merge.transition',
  summary:
    'Apply one merge request state change where the queue is kept (the http state backend sends them).',
  description:
    'Internal: integrators on other machines claim, finish, requeue and record promotions through this route so ' +
    'the change is atomic on the server. Only the state changes; no git runs here.',
  input: z.strictObject({
    repository: z.string().min(1).describe('Repository id (project/repo or self).'),
    ...TransitionSchema.shape,
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<MergeRequest> => {
    const { repository, ...t } = input;
    return transitionMerge(coordDeps(ctx), transitionTarget(repository), t);
  },
  http: [TRANSITION_ROUTE],
});
