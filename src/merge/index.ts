export { blockOf, type MergeBlock } from './blocked.js';
export { type CommandSpec, commandArgv, redactOutput, runCommand } from './commands.js';
export { AGENT_PLACEHOLDER, conflictFor, literalPattern } from './conflict-commands.js';
export { type MergeDeps, type MergeTarget, readMerge } from './deps.js';
export { MERGE_EVENT_KINDS, type MergeEventKind, recordMergeEvent } from './events.js';
export { branchHeads, casRef, checkedOutAt, gitIdentity, gitWords, withTempWorktree } from './git.js';
export { type IntegrateNextResult, integrateMerge, integrateNext } from './integrate.js';
export { type MergeStep, mergeStep } from './land.js';
export { type PromoteResult, promoteMerge } from './promote.js';
export {
  CANCELLABLE_STATUSES,
  DEFAULT_MERGE_PAGE,
  type EnqueueResult,
  FINISHED_STATUSES,
  findMerge,
  listMerges,
  MAX_FINISHED_MERGES,
  type MergeList,
  type MergeResult,
  MergeResultSchema,
  type MergeSummary,
  mergeSummary,
  RETRYABLE_STATUSES,
  type Transition,
  TransitionSchema,
  transitionMerge,
} from './queue.js';
export {
  type CommandRun,
  CommandRunSchema,
  MERGE_STATUSES,
  MERGES_COLLECTION,
  type MergeConflict,
  type MergeRequest,
  MergeRequestSchema,
  type MergeStatus,
  type MergesDoc,
  MergesDocSchema,
  mergePressure,
  mergesDocument,
  PENDING_MERGE_STATUSES,
  readAllMerges,
  type Validation,
} from './records.js';
export { cancelMerge, checkEnqueue, type EnqueueRequest, recordEnqueue, retryMerge } from './requests.js';
export {
  MAX_ROLLUP_BRANCHES,
  type RollupConflicted,
  type RollupMerged,
  type RollupResult,
  type RollupSkipped,
  rollupBranches,
} from './rollup.js';
export { type MergeCommand, type MergeConfig, type MergeSettings, mergeSettings } from './settings.js';
