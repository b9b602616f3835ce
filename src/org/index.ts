export { type IndexedNames, indexedNames } from './indexed-names.js';
export { normalizeUrl } from './normalize-url.js';
export {
  type LocalRepo,
  localMatcher,
  ORG_SEARCH_DEFAULT_LIMIT,
  ORG_SEARCH_MAX_LIMIT,
  type OrgHit,
  type OrgSearchInput,
  type OrgSearchResult,
  type Presence,
  searchOrgIndexes,
} from './org-search.js';
export {
  type IndexedRepo,
  ORG_DIR,
  type OrgIndexFile,
  orgFileRel,
  readOrgIndexes,
  type StoreInput,
  storeOrgIndex,
} from './org-store.js';
export { API_URL_RULE, isLoopbackUrl, type ProviderConfig, providerConfig } from './provider-config.js';
export { type HttpOptions, MAX_PAGES, MAX_RATE_WAIT_MS, scrub } from './provider-http.js';
export {
  identityOf,
  type NamespaceKind,
  ORG_PROVIDERS,
  type OrgProvider,
  type ProviderRepo,
} from './provider-repo.js';
export { fromGithub, fromGitlab, type Listing, listNamespace, NAMESPACE_KINDS } from './providers.js';
