export {
  type ApplyResult,
  applyFileWrites,
  type ConflictRule,
  conflictError,
  conflictPlan,
  type FileWritePlan,
  type PlanOptions,
  planFileWrite,
  planOverState,
  type WriteAction,
} from './file-writer.js';
export { type InstalledAgent, installedAgent } from './installed-agent.js';
export { markerState, markerStyle, withMarker } from './managed-marker.js';
export { type FileWriteView, MAX_SHOWN_CONTENT, viewPlan } from './plan-view.js';
export {
  inspectTarget,
  MAX_CONFIG_BYTES,
  MAX_MANAGED_BYTES,
  type TargetState,
  type UnsafeRule,
} from './target-file.js';
