export {
  type ArtifactState,
  agentArtifact,
  gitRootOf,
  type ScopeRoot,
  skillArtifact,
} from './dispatch/artifacts.js';
export {
  checkTarget,
  checkTask,
  type DispatchInput,
  type DispatchTemplate,
  TASK_MAX_CHARS,
} from './dispatch/dispatch-input.js';
export { type DispatchPlan, dispatchPlan } from './dispatch/dispatch-plan.js';
export { type Handoff, type HandoffTarget, handoffOf } from './dispatch/handoff.js';
export { type LaunchHint, launchHint } from './dispatch/launch-hints.js';
export { commandLine, shellWord } from './dispatch/shell.js';
export {
  type ApplyResult,
  applyFileWrites,
  type ConflictRule,
  conflictError,
  conflictPlan,
  type FileWritePlan,
  type FileWriteView,
  type InstalledAgent,
  inspectTarget,
  installedAgent,
  MAX_CONFIG_BYTES,
  MAX_MANAGED_BYTES,
  MAX_SHOWN_CONTENT,
  markerState,
  markerStyle,
  type PlanOptions,
  planFileWrite,
  planOverState,
  type TargetState,
  type UnsafeRule,
  viewPlan,
  type WriteAction,
  withMarker,
} from './install/index.js';
export {
  type AgentProfileView,
  agentProfileOf,
  checkComponent,
  checkProject,
  type ProfileSelection,
  parseTagFilters,
  repoOf,
  repoTags,
  selectProfileRepos,
  type TagFilter,
  TIER_TAG,
  tagsMatch,
} from './profile.js';
export {
  checkPromptInputs,
  PROMPT_INPUTS,
  PROMPTS,
  type PromptInputName,
  type PromptSpec,
  promptSpec,
} from './prompts/catalog.js';
export { type ForeignClaim, type RepoHandoffInput, repoHandoffPrompt } from './prompts/repo-handoff.js';
export { type SessionStartInput, sessionStartPrompt } from './prompts/session-start.js';
export { type TaskDispatchInput, taskDispatchPrompt } from './prompts/task-dispatch.js';
export {
  artifactPath,
  type ConfigFormat,
  INSTALL_SCOPES,
  type InstallRoots,
  type InstallScope,
  type McpTarget,
  mcpConfigPath,
  mcpEntry,
  scopeBase,
  scopeOf,
  skillPath,
  VENDOR_IDS,
  VENDORS,
  type VendorId,
  type VendorSpec,
  vendorOf,
} from './vendors.js';
