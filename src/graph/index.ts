export { type Declared, ECOSYSTEMS, type Ecosystem, matchKey, normalizeName } from './declarations.js';
export { EXPORT_FORMATS, type ExportFormat, toDot, toMermaid } from './export-text.js';
export {
  EDGE_SOURCES,
  type EdgeSource,
  type Evidence,
  type ExternalRepo,
  type InferenceReport,
  NODE_KINDS,
  PRESENCES,
  type Presence,
  type StaleManual,
  type WorkspaceEdge,
  type WorkspaceGraph,
  type WorkspaceNode,
} from './graph-types.js';
export { findNode, type NeighborsInput, type NeighborsResult, neighbors, resolveNode } from './neighbors.js';
export { CONVENTIONAL_DIRS, PACKAGE_FILES, packageFileKind, REQUIREMENTS_FILE } from './package-files.js';
export { SCAN_LIMITS } from './scan-limits.js';
export { type RepoScan, type ScanSkip, scanRepo } from './scan-repo.js';
export { normalizeType, PACKAGE_DEPENDENCY_TYPES } from './stale-manual.js';
export {
  applySuggestions,
  type ProposedRelationship,
  type Suggestion,
  suggestRelationships,
  type ValidationProblem,
} from './suggest.js';
export { providerOf, resolveSubmoduleUrl, urlKey } from './url-key.js';
export { buildWorkspaceGraph, type GraphOptions } from './workspace-graph.js';
