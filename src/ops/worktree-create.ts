import {
  type BranchAllocation,
  type CreateWorktreeResult,
  checkAgentId,
  checkAllowedPrefix,
  checkBranchName,
  checkTaskId,
  createWorktree,
  deleteHeadAt,
  headOf,
  resolveRepository,
} from '../acl/index.js';
import { repoDeps } from './acl-deps.js';
import { allocateBranch, undoAllocation } from './branch-ops.js';
import type { OpContext } from './context.js';
import { worktreeConfig, worktreeDeps } from './worktree-deps.js';

export interface WorktreeCreateInput {
  repository: string;
  agent_id: string;
  task_id: string;
  branch: string;
  base?: string;
}

export interface WorktreeCreateOutput extends CreateWorktreeResult {
  /** When the branch did not exist: what it was started from (`base`, else `HEAD`) and the commit. */
  base_ref?: string | null;
  base_sha?: string | null;
  /** When the branch did not exist: its allocation, recorded as `branch allocate` records one. */
  allocation?: BranchAllocation;
}

/**
 * `worktree create`: on an existing branch as it stands; a missing branch is first allocated for the agent and
 * task as `branch allocate --name <branch> [--base]` would (coordination.allowed_branch_prefixes, the allocation
 * rules, started at `base` or the checkout's HEAD), so the spec's command line works without a base. A worktree
 * that then fails gives the allocation back (and deletes the branch it started, while it still points there).
 */
export async function createWorktreeFor(
  ctx: OpContext,
  input: WorktreeCreateInput,
): Promise<WorktreeCreateOutput> {
  const target = await resolveRepository(repoDeps(ctx), input.repository);
  const spec = { target, agentId: input.agent_id, taskId: input.task_id, branch: input.branch };
  const root = target.root;
  if (!root || (await headOf(root, input.branch)) !== undefined)
    return createWorktree(worktreeDeps(ctx), worktreeConfig(ctx), { ...spec, base: input.base });
  checkAgentId(input.agent_id);
  checkTaskId(input.task_id);
  checkBranchName(input.branch, 'branch');
  checkAllowedPrefix(input.branch, ctx.appConfig().config.coordination.allowed_branch_prefixes, 'branch');
  const made = await allocateBranch(ctx, {
    repository: input.repository,
    agent_id: input.agent_id,
    task_id: input.task_id,
    name: input.branch,
    base: input.base,
    adopt: false,
    git: true,
    created_head: false,
  });
  try {
    const wt = await createWorktree(worktreeDeps(ctx), worktreeConfig(ctx), spec);
    const a = made.allocation;
    return {
      ...wt,
      created_branch: made.head === 'created',
      base_ref: a.base_ref,
      base_sha: a.base_sha,
      allocation: a,
    };
  } catch (err) {
    const why = `worktree_failed: ${(err as Error).message}`;
    if (made.created) await undoAllocation(ctx, target, made, why);
    else if (made.head === 'created' && made.allocation.base_sha)
      await deleteHeadAt(root, input.branch, made.allocation.base_sha);
    throw err;
  }
}

/** The human line's second part: a branch worktree create started and allocated. */
export function startedLine(r: WorktreeCreateOutput): string {
  const a = r.allocation;
  if (!a) return '';
  const at = r.base_sha ? ` (${r.base_sha.slice(0, 12)})` : '';
  const what = r.created_branch
    ? `started branch ${a.name} at ${r.base_ref ?? 'HEAD'}${at}`
    : `branch ${a.name}`;
  return `\n${what}; allocated ${a.branch_id} to ${a.agent_id} for task ${a.task_id}`;
}
