import { appconfigInfo, appconfigPatch, appconfigValidate } from './appconfig-ops.js';
import {
  componentDetect,
  componentGraphOp,
  componentInit,
  componentList,
  componentResolve,
  componentShow,
} from './component-ops.js';
import { configExample, configShow, configValidate } from './config-ops.js';
import { CONTEXT_OPERATIONS } from './context-operations.js';
import { COORD_OPERATIONS } from './coord-operations.js';
import { HTTP_OPERATIONS } from './http-operations.js';
import { importRepoManifest } from './import-ops.js';
import type { AnyOperation } from './registry.js';
import { search } from './search-ops.js';
import { sessionBegin, sessionDigestOp, sessionUpdateOp } from './session-ops.js';
import { stateInfo } from './state-ops.js';
import { VERSION_OPERATIONS } from './version-operations.js';
import { init, workspaceRepoList } from './workspace-ops.js';

export { BUILD_ID, HUB_VERSION } from './build-info.js';
export type { OpContext, Workspace } from './context.js';
export { type ContextInit, createContext } from './create-context.js';
export { invoke } from './invoke.js';
export { loadWorkspace } from './load-workspace.js';
export type {
  AnyOperation,
  CliBinding,
  HttpBinding,
  McpBinding,
  OpAttributes,
  Operation,
} from './registry.js';
export {
  appendStateItem,
  asksWholeDocument,
  cachedStateDocument,
  checkDocumentName,
  type DocumentSnapshot,
  readStateDocument,
  replaceStateDocument,
  SHARED_DOCUMENTS,
  type SharedDocument,
  STATE_ROUTE,
} from './state-documents.js';
export { workspaceMemo } from './workspace-memo.js';

/** Every operation hub has, in help order. Surfaces walk this list. */
export const OPERATIONS: AnyOperation[] = [
  componentList,
  componentShow,
  componentResolve,
  componentGraphOp,
  componentDetect,
  componentInit,
  init,
  configValidate,
  configShow,
  configExample,
  appconfigInfo,
  appconfigValidate,
  appconfigPatch,
  search,
  workspaceRepoList,
  sessionBegin,
  sessionDigestOp,
  sessionUpdateOp,
  stateInfo,
  importRepoManifest,
  ...COORD_OPERATIONS,
  ...CONTEXT_OPERATIONS,
  ...HTTP_OPERATIONS,
  ...VERSION_OPERATIONS,
];
export {
  describeField,
  isRequired,
  kebab,
  type OptionKind,
  type OptionSpec,
  optionsFromSchema,
} from './schema-options.js';
