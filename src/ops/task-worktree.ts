import { type CreateWorktreeResult, createTaskWorktree, type RepoTarget } from '../acl/index.js';
import { HubError, toHubError } from '../infra/index.js';
import type { OpContext } from './context.js';
import { worktreeConfig, worktreeDeps } from './worktree-deps.js';

/**
 * `coordination.worktree_per_task`: after a branch is allocated (and made in the checkout), the task's worktree.
 * Null when the setting is off. A failure keeps the allocation (allocating again returns it and tries the
 * worktree again) and says so, keeping the worktree error's code and details.
 */
export async function taskWorktree(
  ctx: OpContext,
  target: RepoTarget,
  input: { agentId: string; taskId: string; branch: string },
): Promise<CreateWorktreeResult | null> {
  try {
    return await createTaskWorktree(worktreeDeps(ctx), worktreeConfig(ctx), { target, ...input });
  } catch (err) {
    const e = toHubError(err);
    throw new HubError(
      e.code,
      `branch ${input.branch} is allocated, but its worktree (coordination.worktree_per_task) was not created: ${e.message}; run worktree create to try again`,
      { ...(e.details ?? {}), branch: input.branch, allocated: true },
      e.httpStatus,
    );
  }
}
