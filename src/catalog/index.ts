export { type CatalogAddInput, type CatalogAddResult, planCatalogAdd } from './add.js';
export { appendComponents, appendComponentsToRepos, type RepoDrafts } from './apply.js';
export { Catalog, type CatalogComponent, type CatalogRepo, normalizeTags } from './catalog.js';
export { Checkouts, checkoutsOf, gitRefs, REPO_OUTSIDE_RULE, type RepoCheckout } from './checkout.js';
export {
  type CreateInput,
  type DerivedPlan,
  type DerivedRepoView,
  type IncludeOutcome,
  planDerivedCreate,
  planDerivedExclude,
  planDerivedInclude,
  planDerivedRefresh,
} from './derived.js';
export { parseSelection, type Selection, type SelectionInput } from './derived-select.js';
export {
  CANDIDATE_ROLES,
  type Candidate,
  type CandidateRole,
  CHART_PARENTS,
  detectInRepo,
  HIGH_CONFIDENCE_MARKERS,
  KIND_HINTS,
  kindHint,
  languageOf,
  MARKER_LANGUAGES,
  ROLE_DIRS,
  roleOf,
  SKIP_DIRS,
} from './detect.js';
export {
  allEdges,
  componentGraph,
  GRAPH_DEFAULT_DEPTH,
  GRAPH_DEFAULT_DIRECTION,
  GRAPH_DIRECTIONS,
  GRAPH_MAX_DEPTH,
  type GraphEdge,
  type GraphInput,
  type GraphResult,
  parseDepth,
  parseDirection,
} from './graph.js';
export { type EdgeEnds, walkNeighborhood } from './graph-walk.js';
export {
  type ComponentDraft,
  checkApplicable,
  draftComponent,
  type InitInput,
  targetRepo,
} from './init.js';
export { componentView, findComponent, type Scope, stripResolverPrefix } from './lookup.js';
export { longestMatch, type ResolveInput, type ResolveResult, resolveComponent } from './resolve.js';
export { type SearchHit, searchManifest } from './search.js';
export { didYouMean, scopeMiss, suggestionText } from './suggest.js';
export {
  catalogWarnings,
  componentDirectoryProblem,
  type Problem,
  type ValidateOptions,
  validateCatalog,
  validateFilesystem,
} from './validate.js';
