export {
  ACTIVITY_MAX_COMMITS,
  type ActivityCache,
  type ActivityEntry,
  activityOf,
  openActivityCache,
} from './activity.js';
export { declaredDependencies, healthOf } from './dependencies.js';
export { defaultParallel } from './enrich.js';
export { branchKind, originHead, parseStatusCounts } from './git-status.js';
export { CELL, layoutTerrain, PROJECT_SPACING } from './layout.js';
export { ownershipOf } from './ownership.js';
export type { AgentDir } from './readiness.js';
export { buildTerrain, type InferredDependencySource, type TerrainOptions } from './terrain.js';
export {
  TERRAIN_DEFAULT_LIMIT,
  TERRAIN_DETAILS,
  TERRAIN_MAX_LIMIT,
  type TerrainDependency,
  type TerrainDetail,
  type TerrainNode,
  type TerrainResult,
} from './types.js';
export { gitVisual, staticVisual } from './visual.js';
