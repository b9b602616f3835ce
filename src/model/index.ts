export {
  type AgentProfile,
  agentProfileSchema,
  MCP_ID_RE,
  RULE_ID_RE,
  SKILL_ID_RE,
  VENDOR_IDS,
} from './agent-profile-schema.js';
export {
  APPCONFIG_FILENAMES,
  type AppConfigLegacy,
  type AppConfigSource,
  defaultUserConfigDir,
  ensureAppConfigFile,
  type LoadedAppConfig,
  loadAppConfig,
  locateAppConfig,
  readAppConfigData,
  saveAppConfig,
  stateBearerToken,
  stateDefaults,
  userSettingFile,
} from './appconfig.js';
export { APPCONFIG_EXAMPLE } from './appconfig-example.js';
export {
  type AppConfigDraft,
  type AppConfigPatchOp,
  appConfigTextIssues,
  draftAppConfigText,
  patchAppConfigText,
} from './appconfig-patch.js';
export {
  isSecretKey,
  redactAppConfig,
  redactConfigText,
  redactSecret,
  redactUrlSecrets,
  redactValueForPath,
} from './appconfig-redact.js';
export { type AppConfig, appConfigSchema, STATE_BACKENDS, STATE_URL_RULE } from './appconfig-schema.js';
export {
  ALLOWED_OUTSIDE_ENV,
  refuseTrustedKeys,
  STATE_URL_TRUST_RULE,
  stateTokenExposure,
  TRUSTED_ONLY_KEYS,
  WORKSPACE_CONFIG_RULE,
} from './appconfig-trust.js';
export { configTree, itemSegment, type TreeNode } from './config-tree.js';
export { findLegacyKeys, type LegacyRename } from './legacy.js';
export {
  type CachedCheckout,
  cachedCheckouts,
  ManifestCache,
  repoListThawCount,
} from './manifest-cache.js';
export {
  editManifestFile,
  ensureSeq,
  type ManifestEditPlan,
  normalizeLegacyInDocument,
  planManifestEdit,
} from './manifest-edit.js';
export {
  definitionAt,
  locateManifest,
  MANIFEST_FILENAME,
  type ManifestFile,
  type ManifestReadOptions,
  parseManifestText,
  readManifestFile,
  readManifestText,
  throwIssues,
  zodIssues,
} from './manifest-file.js';
export { MANIFEST_LIMITS, manifestLimitsFor } from './manifest-limits.js';
export { draftManifestText, type ManifestDraft } from './manifest-patch.js';
export {
  type Component,
  type Derived,
  type DerivedFrom,
  type DerivedSource,
  type Endpoint,
  type GraphNode,
  type Manifest,
  type ManifestSchemas,
  manifestSchemas,
  NAME_RE,
  type Project,
  RECOMMENDED_KINDS,
  type Relationship,
  type Repo,
  type Tags,
} from './manifest-schema.js';
export {
  DEFAULT_MANIFEST_MAX_BYTES,
  MANIFEST_MAX_BYTES_ENV,
  MANIFEST_MAX_BYTES_KEY,
  manifestByteLimit,
  manifestTooLarge,
  suggestedManifestLimit,
} from './manifest-size.js';
export type { PatchFailure } from './patch-document.js';
export {
  formatPointer,
  MAX_PATCH_OPERATIONS,
  PATCH_OPS,
  type PatchOperation,
  PatchOperationSchema,
  PatchOperationsSchema,
  parsePatchPath,
} from './patch-operation.js';
export { type JsonSchema, jsonSchemaOf, withoutDefaults } from './schema-view.js';
export {
  type RepoSource,
  SOURCE_ID_RE,
  SOURCE_PROVIDERS,
  type Source,
  sourceSchemas,
} from './source-schema.js';
export { decodeUtf8, readUtf8File } from './utf8-file.js';
export { dumpPlainYaml, fastYamlValue } from './yaml-fast.js';
export { yaml } from './yaml-lib.js';
export { renderKeepingSource, snapshotYaml } from './yaml-save.js';
export {
  formatPath,
  parseYamlSource,
  positionOf,
  type SourceIssue,
  YAML_LIMITS,
  type YamlLimits,
  type YamlSource,
  type YamlStructureViolation,
  yamlLimitsFor,
  yamlStructureViolation,
  yamlToJs,
} from './yaml-source.js';
