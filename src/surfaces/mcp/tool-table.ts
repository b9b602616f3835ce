import { readFileSync } from 'node:fs';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  type AnyOperation,
  BUILD_ID,
  type Gate,
  loadOperationsByModule,
  MODULE_TOOLSET,
  type OperationModule,
  type ToolsetName,
} from '../../ops/index.js';
import { toolOf } from './tools-from-registry.js';

/** One MCP tool as served, with what the server needs to load and gate its operation on the first call. */
export interface ToolEntry {
  /** The tools/list entry: name, description, input schema, hints. */
  tool: Tool;
  /** The operation's id and the registry module holding it (loaded on the first call). */
  id: string;
  module: OperationModule;
  gate: Gate;
  toolset: ToolsetName;
}

/** The tool table as plain JSON; the build writes it beside the bundle (dist/mcp-tools.json). */
export interface ToolTable {
  build: string;
  tools: ToolEntry[];
}

/** The file the build writes. */
export const TOOL_TABLE_FILE = 'mcp-tools.json';

/** The entry of one operation (undefined when it has no MCP binding). */
export function toolEntryOf(op: AnyOperation, module: OperationModule): ToolEntry | undefined {
  if (!op.mcp) return undefined;
  return { tool: toolOf(op), id: op.id, module, gate: op.gate, toolset: MODULE_TOOLSET[module] };
}

/** The tool table of the whole registry, in registry order (loads every operation module). */
export async function describeTools(): Promise<ToolTable> {
  const tools = (await loadOperationsByModule()).flatMap(({ module, op }) => {
    const e = toolEntryOf(op, module);
    return e ? [e] : [];
  });
  return { build: BUILD_ID, tools };
}

/**
 * The tool table the build wrote beside this code (dist/ or dist/chunks/) when it belongs to this very build;
 * otherwise described afresh from the registry (running from source, or a table left by another build).
 */
export async function loadToolTable(): Promise<ToolEntry[]> {
  for (const dir of ['./', '../']) {
    let table: ToolTable;
    try {
      table = JSON.parse(readFileSync(new URL(`${dir}${TOOL_TABLE_FILE}`, import.meta.url), 'utf8'));
    } catch {
      continue;
    }
    if (table.build === BUILD_ID && Array.isArray(table.tools)) return table.tools;
  }
  return (await describeTools()).tools;
}
