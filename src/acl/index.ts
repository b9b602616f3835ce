export { type AgentRecord, AgentRecordSchema, listAgents, touchAgent } from './agents.js';
export {
  agentHeartbeat,
  HEARTBEAT_RENEWERS,
  type HeartbeatResult,
  type HoldingRenewer,
} from './agents-heartbeat.js';
export {
  type AgentEntry,
  agentsWithHoldings,
  HOLDING_COLLECTIONS,
  type Holdings,
} from './agents-holdings.js';
export {
  type AllocationRequest,
  type AllocationResult,
  activeAllocation,
  BRANCH_STATUSES,
  type BranchAllocation,
  BranchAllocationSchema,
  BranchesDocSchema,
  MAX_ENDED_ALLOCATIONS,
  type ReleaseRequest,
  type ReleaseResult,
  readAllocations,
  recordAllocation,
  releaseAllocation,
} from './branches.js';
export { type CleanupResult, cleanupBranches } from './branches-cleanup.js';
export {
  checkBaseRef,
  checkedOutBranches,
  createHead,
  deleteHead,
  deleteHeadAt,
  headOf,
  isFullSha,
  resolveBase,
} from './branches-git.js';
export {
  branchNameProblem,
  checkAllowedPrefix,
  checkBranchName,
  MAX_BRANCH_NAME_BYTES,
  nameFromPattern,
  type PatternValues,
  REF_RULE,
  shown,
  slugOf,
} from './branches-names.js';
export { type DeclareInput, type DeclareResult, declareClaim, planDeclare } from './claims-declare.js';
export {
  CLAIM_LIST_STATUSES,
  checkClaims,
  heartbeatClaims,
  listClaims,
  type ReleaseOutcome,
  releaseClaims,
} from './claims-lifecycle.js';
export { findConflicts, type PathHit, pathsClaimed } from './claims-overlap.js';
export { folderGlob, normalizePatterns, resolveClaimScope } from './claims-patterns.js';
export { literalBounds, mayMatch, mayOverlap } from './claims-prefilter.js';
export { claimExpiry, claimsDocument, claimView } from './claims-records.js';
export {
  CLAIM_LIMITS,
  CLAIM_STATUSES,
  type Claim,
  type ClaimConflict,
  type ClaimsDoc,
  ClaimsDocSchema,
} from './claims-schema.js';
export {
  type ConceptDeclared,
  type ConceptOwner,
  type ConceptQuery,
  conceptIdOf,
  conceptOwners,
  declareConcept,
  queryConcepts,
  readAllOwnerships,
  readConcepts,
} from './concepts.js';
export { CODEOWNERS_PATHS, codeownersPatterns, parseCodeOwners } from './concepts-codeowners.js';
export { conceptConflicts, conceptHints, recordConceptConflicts } from './concepts-hints.js';
export {
  CONCEPT_CATALOG_DOCUMENT,
  type ConceptConflict,
  type ConceptHint,
  ownershipsDocument,
} from './concepts-schema.js';
export { type IngestReport, ingestCodeOwners, type SeedReport, seedFromComponents } from './concepts-sync.js';
export { recordAclEvent } from './events.js';
export {
  type FenceCarrier,
  type FenceClaim,
  type FenceGrant,
  fenceOfAgent,
  fenceOfBranch,
  LANDING_PIN_MS,
  landAllFenced,
  landFenced,
  MAX_FENCED_TASKS,
  type StaleFence,
  staleFence,
  staleFenceError,
} from './fences.js';
export { checkGlob, globMatches } from './glob/index.js';
export { type GuardCheck, guardCheck, installGuard, uninstallGuard } from './guard.js';
export { hookBlock, mergeHook, removeBlock, shQuote } from './guard-hook.js';
export {
  type AcquireRequest,
  type AcquireResult,
  acquireLease,
  heartbeatLease,
  LEASE_STATUSES,
  type Lease,
  type LeaseRef,
  LeaseSchema,
  LeasesDocSchema,
  leaseHeld,
  leaseView,
  MAX_ENDED_LEASES,
  type ReleaseLeaseResult,
  readLeases,
  releaseLease,
  renewAgentLeases,
} from './leases.js';
export {
  AGENT_ID_RE,
  checkAgentId,
  checkTaskId,
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
export { ENV_FILE } from './worktrees-env.js';
export { locateWorktree, type WorktreeState } from './worktrees-git.js';
export { DEFAULT_HOOK_TIMEOUT_MS, type HookReport, type PostCreate } from './worktrees-hooks.js';
export type { WorktreeLayout } from './worktrees-layout.js';
export { type PortLease, portsDoc, type WorktreePorts } from './worktrees-ports.js';
export {
  readWorktreeRecords,
  type WorktreeDeps,
  type WorktreeRecord,
  WorktreeRecordSchema,
} from './worktrees-record.js';
export {
  destroyWorktree,
  type GcResult,
  gcWorktrees,
  type RepoOf,
  removeOne as removeWorktree,
  type WorktreeOutcome,
} from './worktrees-remove.js';
export { type Blocker, type BlockerReason, blockersOf } from './worktrees-safety.js';
