export { type DiscoveredRepo, discoverRepos } from './discover.js';
export { type Commit, commitsAfter, commitsSince, type RepoGitState, repoGitState } from './git-state.js';
export {
  type ImportedProject,
  type ImportedRepo,
  type IncludeReader,
  importRepoManifestXml,
  type RepoManifestImport,
  type RepoManifestOptions,
  safeName,
} from './import-repo-manifest.js';
export { type InitResult, initManifest } from './init-manifest.js';
