export { BUILD_ID, HUB_VERSION } from './build-info.js';
export { isUnlisted } from './cli-help.js';
export {
  type CommandArgument,
  type CommandEntry,
  type CommandIndex,
  describeCommand,
  describeCommands,
  describeCommandWithAliases,
  loadCommandTable,
} from './command-index.js';
export type { OpContext, Progress, Surface, Workspace } from './context.js';
export {
  type ContextInit,
  createContext,
  createStorePool,
  type StorePool,
} from './create-context.js';
export { viewedSnapshot } from './document-view.js';
export { invoke } from './invoke.js';
export { loadWorkspace } from './load-workspace.js';
export {
  loadOperation,
  loadOperations,
  loadOperationsByModule,
  OPERATION_MODULES,
  type OperationModule,
} from './operation-modules.js';
export type {
  AnyOperation,
  CliBinding,
  Gate,
  HttpBinding,
  McpBinding,
  OpAttributes,
  Operation,
} from './registry.js';
export {
  describeField,
  isRequired,
  kebab,
  type OptionKind,
  type OptionSpec,
  optionsFromSchema,
} from './schema-options.js';
export {
  appendStateItem,
  asksWholeDocument,
  COLLECTION_NAME_RE,
  cachedStateDocument,
  checkDocumentName,
  DOCUMENT_NAME_RE,
  type DocumentSnapshot,
  listStateDocuments,
  readEventLog,
  readStateDocument,
  replaceStateDocument,
  SHARED_DOCUMENTS,
  type SharedDocument,
  STATE_ROUTE,
} from './state-documents.js';
export { isOpStream, type OpStream } from './stream.js';
export {
  CORE_TOOLS,
  DYNAMIC_TOOLS,
  MODULE_TOOLSET,
  mcpToolRefs,
  namesOf,
  PROFILES,
  selectedNames,
  selectionWords,
  TOOLSET_NAMES,
  TOOLSETS,
  TOOLSETS_ENABLE_TOOL,
  TOOLSETS_LIST_TOOL,
  type ToolRef,
  type ToolsetName,
} from './toolsets.js';
export { workspaceMemo } from './workspace-memo.js';
