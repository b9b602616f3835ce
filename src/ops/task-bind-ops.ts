import * as z from 'zod';
import {
  acquireLease,
  checkAgentId,
  createWorktree,
  declareClaim,
  destroyWorktree,
  type RepoTarget,
  releaseClaims,
  releaseLease,
  resolveRepository,
} from '../acl/index.js';
import { HubError, toHubError } from '../infra/index.js';
import { checkBindable, readNode, recordBinding, type TaskAcl, type TaskNode } from '../taskgraph/index.js';
import { aclDeps, aclFields, repoDeps } from './acl-deps.js';
import { applyWhereStored } from './apply-where-stored.js';
import { type AllocateOutput, allocateBranch, undoAllocation } from './branch-ops.js';
import { patternFields } from './claim-ops.js';
import type { OpContext } from './context.js';
import { defineOp, type HttpBinding, WRITES } from './registry.js';
import { type BindPlan, type BindRequest, planBind } from './task-bind-plan.js';
import { taskFields } from './task-input.js';
import { worktreeConfig, worktreeDeps } from './worktree-ops.js';

// The ACL operations' own routes: on the http backend each step is applied where its records are kept.
const LEASE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/leases', input: 'body' };
const LEASE_RELEASE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/leases/release', input: 'body' };
const CLAIM_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/claims', input: 'body' };
const CLAIM_RELEASE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/claims/release', input: 'body' };

export interface BindOutput {
  dry_run: boolean;
  /** False for a dry run, or when the node was bound to this agent already (its binding is returned). */
  bound: boolean;
  graph_id: string;
  node_id: string;
  plan: BindPlan;
  acl: TaskAcl | null;
  node: TaskNode;
}

type Step = 'branch' | 'lease' | 'worktree' | 'claim' | 'record';

/** What one bind took so far, to give back (newest first) when a later step fails. */
interface Taken {
  branch?: AllocateOutput;
  lease?: string;
  worktree?: string;
  claim?: string;
}

async function giveBack(
  ctx: OpContext,
  target: RepoTarget,
  agentId: string,
  taken: Taken,
  why: string,
): Promise<{ released: string[]; failed: string[] }> {
  const released: string[] = [];
  const failed: string[] = [];
  const attempt = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
      released.push(what);
    } catch (err) {
      failed.push(`${what}: ${(err as Error).message}`);
    }
  };
  if (taken.claim) {
    const body = { claim_id: taken.claim, agent_id: agentId, repository: target.id };
    await attempt(`claim ${taken.claim}`, () =>
      applyWhereStored(ctx, CLAIM_RELEASE_ROUTE, body, (deps) => releaseClaims(deps, body)),
    );
  }
  if (taken.worktree) {
    const id = taken.worktree;
    // Made by this call a moment ago: nobody's work is in it, so it goes even if a hook left files.
    await attempt(`worktree ${id}`, () =>
      destroyWorktree(
        worktreeDeps(ctx),
        (ref) => resolveRepository(repoDeps(ctx), ref),
        { id, cwd: ctx.root() },
        true,
      ),
    );
  }
  if (taken.lease) {
    const body = { repository: target.id, agent_id: agentId, lease_id: taken.lease };
    await attempt(`lease ${taken.lease}`, () =>
      applyWhereStored(ctx, LEASE_RELEASE_ROUTE, body, (deps) =>
        releaseLease(deps, { ...body, repository: target }),
      ),
    );
  }
  if (taken.branch) {
    const made = taken.branch;
    await attempt(`branch ${made.allocation.name}`, () => undoAllocation(ctx, target, made, why));
  }
  return { released, failed };
}

/**
 * Takes what the plan says, in order: branch (allocated and made in the checkout), lease on it, worktree, claim;
 * then records them on the node. When a step fails, what earlier steps took is given back (only what this call
 * took: a branch or lease the agent held already stays), and the error says which step failed and why.
 */
async function perform(
  ctx: OpContext,
  node: TaskNode,
  target: RepoTarget,
  plan: BindPlan,
  req: BindRequest,
): Promise<TaskNode> {
  const taken: Taken = {};
  const acl: TaskAcl = {
    task_id: plan.task_id,
    repository: target.id,
    branch: plan.branch,
    claim_ids: [],
  };
  let step: Step = 'branch';
  try {
    const made = await allocateBranch(ctx, {
      repository: target.id,
      agent_id: req.agent_id,
      task_id: plan.task_id,
      name: plan.branch,
      description: node.title,
      base: req.base,
      adopt: false,
      git: true,
      created_head: false,
    });
    if (made.created) taken.branch = made;
    acl.branch_id = made.allocation.branch_id;
    step = 'lease';
    const body = {
      repository: target.id,
      agent_id: req.agent_id,
      task_id: plan.task_id,
      branch: plan.branch,
      ...(req.ttl === undefined ? {} : { ttl: req.ttl }),
    };
    const lease = await applyWhereStored(ctx, LEASE_ROUTE, body, (deps) =>
      acquireLease(deps, { ...body, repository: target }),
    );
    if (lease.acquired) taken.lease = lease.lease.lease_id;
    acl.lease_id = lease.lease.lease_id;
    step = 'worktree';
    const wt = await createWorktree(worktreeDeps(ctx), worktreeConfig(ctx), {
      target,
      agentId: req.agent_id,
      taskId: plan.task_id,
      branch: plan.branch,
    });
    taken.worktree = wt.worktree.id;
    acl.worktree_id = wt.worktree.id;
    acl.worktree_path = wt.worktree.path;
    step = 'claim';
    const claimBody = {
      repository: target.id,
      agent_id: req.agent_id,
      task_id: plan.task_id,
      patterns: plan.patterns,
      ...(plan.component === undefined ? {} : { component: plan.component }),
      ...(req.ttl === undefined ? {} : { ttl: req.ttl }),
    };
    const claim = await applyWhereStored(ctx, CLAIM_ROUTE, claimBody, (deps) =>
      declareClaim(deps, claimBody),
    );
    if (claim.created) taken.claim = claim.claim.claim_id;
    acl.claim_ids = [claim.claim.claim_id];
    step = 'record';
    return await recordBinding(aclDeps(ctx), {
      graph_id: node.graph_id,
      node_id: node.node_id,
      agent_id: req.agent_id,
      acl,
    });
  } catch (err) {
    const e = toHubError(err);
    const back = await giveBack(ctx, target, req.agent_id, taken, `bind_failed: ${e.message}`);
    const gave = back.released.length ? `; released ${back.released.join(', ')}` : '';
    const left = back.failed.length ? `; could not release ${back.failed.join('; ')}` : '';
    throw new HubError(
      e.code,
      `bind-acl: step '${step}' failed for ${node.graph_id}/${node.node_id}: ${e.message}${gave}${left}`,
      { ...(e.details ?? {}), step, released: back.released, release_failures: back.failed },
      e.httpStatus,
    );
  }
}

export const taskBindAcl = defineOp({
  id: 'task.bind-acl',
  summary:
    'Bind a node to an agent: allocate its branch, take the lease, make the worktree, claim its paths.',
  description:
    'In order: lease acquire --allocate (the branch, named by coordination.branch_pattern unless --branch), ' +
    "worktree create on it, claim declare of --pattern, else the node's patterns, else --component or the " +
    "node's component (none is refused, saying what to pass); then records acl{branch, lease_id, worktree_id, " +
    'claim_ids} on the node (event TaskBound). When a step fails, what earlier steps took is released and the ' +
    'error names the step. --dry-run prints the exact hub commands and changes nothing. The ACL task id is ' +
    '<graph_id>.<node_id>.',
  input: z.strictObject({
    graph_id: taskFields.graph_ref,
    node_id: taskFields.node_id,
    agent_id: taskFields.agent_id,
    repository: aclFields.repository
      .optional()
      .describe("Repository, when the node names none (it must agree with the node's)."),
    ...patternFields,
    component: z.string().min(1).optional().describe("Component to claim (default: the node's)."),
    branch: z.string().min(1).optional().describe('Default: from coordination.branch_pattern.'),
    base: z.string().min(1).optional().describe("Default: the checkout's HEAD."),
    ttl: aclFields.ttl,
    dry_run: z.boolean().default(false).describe('Show the commands it would run; change nothing.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<BindOutput> => {
    checkAgentId(input.agent_id);
    const { node } = await readNode(aclDeps(ctx), input);
    const existing = checkBindable(node, input.agent_id);
    const { plan, target } = await planBind(ctx, node, input);
    const out = { graph_id: node.graph_id, node_id: node.node_id, plan };
    if (input.dry_run) return { ...out, dry_run: true, bound: false, acl: existing ?? null, node };
    if (existing) return { ...out, dry_run: false, bound: false, acl: existing, node };
    // The ACL steps touched the agent in the registry already.
    const bound = await perform(ctx, node, target, plan, input);
    return { ...out, dry_run: false, bound: true, acl: bound.acl ?? null, node: bound };
  },
  cli: {
    command: 'task bind-acl',
    human: (r) => {
      if (r.dry_run) return ['# would run:', ...r.plan.commands].join('\n');
      const a = r.acl;
      const head = r.bound ? 'bound' : 'already bound';
      return `${head} ${r.graph_id}/${r.node_id} to ${a?.agent_id}: branch ${a?.branch}, lease ${a?.lease_id}, worktree ${a?.worktree_path ?? a?.worktree_id}, claims ${a?.claim_ids.join(' ')}`;
    },
  },
  mcp: { tool: 'hub_task_bind_acl', when: 'Use when starting a node, all in one step.' },
  http: [{ method: 'POST', route: '/v3/ops/tasks/bind-acl', input: 'body' }],
});
