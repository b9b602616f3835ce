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
