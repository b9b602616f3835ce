import {
  contextCompile,
  contextPack,
  contextRepomix,
  contextSwitch,
  projectContextSwitch,
  repoCard,
} from './context-pack-ops.js';
import type { AnyOperation } from './registry.js';
import {
  workspaceGrep,
  workspaceGrepInfo,
  workspaceHealthOp,
  workspaceListOp,
  workspaceSummary,
} from './workspace-intro-ops.js';

/** Context packs and workspace introspection (tiers, compile, switch, repomix, summary, health, grep). */
export const CONTEXT_OPERATIONS: AnyOperation[] = [
  contextPack,
  repoCard,
  contextCompile,
  contextSwitch,
  projectContextSwitch,
  contextRepomix,
  workspaceSummary,
  workspaceHealthOp,
  workspaceListOp,
  workspaceGrepInfo,
  workspaceGrep,
];
