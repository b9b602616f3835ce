import { hostname } from 'node:os';
import type { WorktreeConfig, WorktreeDeps } from '../acl/index.js';
import { aclDeps } from './acl-deps.js';
import type { OpContext } from './context.js';

/** The worktree ports of a context: the ACL store, this machine's name and the environment hooks run in. */
export function worktreeDeps(ctx: OpContext): WorktreeDeps {
  return { ...aclDeps(ctx), host: hostname(), env: ctx.env };
}

/** `workspace.worktrees_path`, the trusted allowed folders and `coordination.worktree*` of the loaded config. */
export function worktreeConfig(ctx: OpContext): WorktreeConfig {
  const c = ctx.appConfig().config;
  return {
    layout: {
      workspaceRoot: ctx.root(),
      worktreesPath: c.workspace.worktrees_path,
      allowedOutside: c.workspace.allowed_outside_paths,
    },
    postCreate: c.coordination.worktree?.post_create,
    perTask: c.coordination.worktree_per_task,
  };
}
