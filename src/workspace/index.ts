export { type DiscoveredRepo, discoverRepos } from './discover.js';
export { BATCH_PARALLEL, BATCH_SIZE, runInRepos, splitBefore, splitRecords } from './git-batch.js';
export {
  type Commit,
  commitsAfter,
  commitsSince,
  parseStatusV2,
  type RepoGitState,
  repoGitState,
  repoGitStates,
} from './git-state.js';
export {
  findRipgrep,
  GREP_BACKENDS,
  GREP_DEFAULT_LIMIT,
  GREP_MAX_FILESIZE,
  GREP_MAX_LIMIT,
  type GrepBackend,
  type GrepInfo,
  type GrepMatch,
  type GrepOptions,
  type GrepResult,
  type GrepTarget,
  grepInfo,
  grepRepos,
  parseBackendChoice,
} from './grep.js';
export {
  HEALTH_FINDINGS_LIMIT,
  type HealthFinding,
  type HealthOptions,
  type HealthReport,
  type Severity,
  workspaceHealth,
} from './health.js';
export {
  type ImportedProject,
  type ImportedRepo,
  type IncludeReader,
  importRepoManifestXml,
  type RepoManifestImport,
  type RepoManifestOptions,
  safeName,
} from './import-repo-manifest.js';
export { type CheckoutOrigin, type InitResult, initManifest } from './init-manifest.js';
export {
  detectInstallChannel,
  findPackageRoot,
  type InstallChannel,
  type InstallInfo,
  planUpgrade,
  type UpgradePlan,
} from './install-channel.js';
export {
  LIST_DEFAULT_LIMIT,
  LIST_MAX_LIMIT,
  type ListOptions,
  type ListRow,
  type WorkspaceList,
  workspaceList,
} from './list.js';
export { editorArgv, launchEditor, managedRepoAt } from './open-repo.js';
export { originParts, publicCloneUrl, readOrigins } from './origins.js';
export {
  type RepoMatch,
  type RepoResolveInput,
  type RepoResolveResult,
  type ResolvedRepo,
  resolveRepo,
} from './resolve-repo.js';
export {
  CRITICAL_PENALTY,
  type Dimension,
  type GateState,
  type Grade,
  gradeOf,
  inactiveSummary,
  type ReadinessSummary,
  readinessSummary,
  WARNING_PENALTY,
} from './summary.js';
export {
  checkVersion,
  compareVersions,
  type FetchLike,
  parseVersion,
  type VersionCheckResult,
  type VersionSource,
  type VersionStatus,
} from './version-check.js';
export { EXCLUDED_DIRS, type WalkedFile, type WalkOptions, walkFiles } from './walk.js';
