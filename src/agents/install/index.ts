export { planAgentArtifact } from './agent-artifact.js';
export {
  type BundledSkill,
  bundledSkill,
  checkSkillName,
  frontMatterOf,
  listBundledSkills,
  planSkillInstall,
  readSkill,
  SKILL_NAME_RE,
} from './bundled-skills.js';
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
export {
  checkServerName,
  type McpInstallPlan,
  type McpInstallRequest,
  type McpServerCommand,
  planMcpInstall,
  SERVER_NAME_RE,
} from './mcp-install.js';
export { type MergeOutcome, mergeServerEntry } from './mcp-merge.js';
export { type FileWriteView, MAX_SHOWN_CONTENT, viewPlan } from './plan-view.js';
export {
  inspectTarget,
  MAX_CONFIG_BYTES,
  MAX_MANAGED_BYTES,
  type TargetState,
  type UnsafeRule,
} from './target-file.js';
