export {
  ALLOWED_TRANSPORTS,
  checkGitUrl,
  GIT_URL_RULE,
  TRANSPORT_CONFIG,
  type Transport,
  transportOf,
} from './git-url.js';
export { localsOf, type MaterializeInput, type MaterializeResult, materializeRepo } from './materialize.js';
export {
  type PruneAction,
  type PruneOptions,
  type PruneReason,
  type PruneResult,
  type PruneRow,
  pruneFolders,
} from './prune.js';
export {
  type DiscoveredRepo,
  discoverSource,
  type ResolvedSource,
  repoNameFrom,
  resolveSource,
  type SourceDiscovery,
} from './source-discover.js';
export type { PlanError, PlannedRepo, SourcePlan } from './source-plan.js';
export { type SourceReport, type SourceSyncResult, syncSources } from './source-sync.js';
export { planSync } from './sync-plan.js';
export type { SyncAction, SyncReason, SyncRow, SyncTarget } from './sync-repo.js';
export {
  SYNC_DEFAULT_CONCURRENCY,
  SYNC_GIT_TIMEOUT_MS,
  SYNC_MAX_CONCURRENCY,
  type SyncCounts,
  type SyncReposOptions,
  type SyncSummary,
  syncRepos,
} from './sync-repos.js';
