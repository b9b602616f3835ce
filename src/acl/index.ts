export { type AgentRecord, AgentRecordSchema, listAgents, touchAgent } from './agents.js';
export { recordAclEvent } from './events.js';
export {
  AGENT_ID_RE,
  checkAgentId,
  DEFAULT_ACL_TTL,
  expiryOf,
  type Holding,
  isLive,
} from './liveness.js';
export {
  ACL,
  type AclCollection,
  type AclDeps,
  aclDocument,
  aclDocuments,
  readAcl,
  updateAcl,
} from './records.js';
export {
  type RepoResolveDeps,
  type RepoTarget,
  repoKey,
  resolveRepository,
} from './repository-ref.js';
export {
  adoptWorktree,
  type CreateWorktreeResult,
  createTaskWorktree,
  createWorktree,
  listWorktrees,
  type WorktreeConfig,
  type WorktreeView,
} from './worktrees.js';
export type { WorktreeState } from './worktrees-git.js';
export { DEFAULT_HOOK_TIMEOUT_MS, type HookReport, type PostCreate } from './worktrees-hooks.js';
export { checkTaskId, type WorktreeLayout } from './worktrees-layout.js';
export {
  type WorktreeDeps,
  type WorktreeRecord,
  WorktreeRecordSchema,
} from './worktrees-record.js';
export {
  destroyWorktree,
  type GcResult,
  gcWorktrees,
  type RepoOf,
  type WorktreeOutcome,
} from './worktrees-remove.js';
export type { Blocker, BlockerReason } from './worktrees-safety.js';
