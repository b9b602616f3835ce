export { type DiscoveredRepo, discoverRepos } from './discover.js';
export { type Commit, commitsAfter, commitsSince, type RepoGitState, repoGitState } from './git-state.js';
export { type InitResult, initManifest } from './init-manifest.js';
