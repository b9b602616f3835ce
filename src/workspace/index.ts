export { type DiscoveredRepo, discoverRepos } from './discover.js';
export { type InitResult, initManifest } from './init-manifest.js';
