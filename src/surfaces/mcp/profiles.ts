import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  CORE_TOOLS,
  PROFILES,
  selectedNames,
  selectionWords,
  TOOLSET_NAMES,
  TOOLSETS,
  type ToolRef,
  type ToolsetName,
} from '../../ops/index.js';
import type { ToolEntry } from './tool-table.js';

export { CORE_TOOLS, PROFILES };

export interface ToolSelection {
  /** The selection as given (`full`, `core`, or the comma list). */
  profile: string;
  entries: ToolEntry[];
}

/** The refs (name, toolset) of a table, for the registry's selection rules. */
export const refsOf = (table: readonly ToolEntry[]): ToolRef[] =>
  table.map((e) => ({ name: e.tool.name, toolset: e.toolset }));

/**
 * Picks the served tools: `full` (default), `core`, a toolset, or a comma list mixing profiles, toolsets and tool
 * names (`core,acl,hub_events`; the `hub_` prefix may be left out). An unknown name is a usage error naming the
 * nearest valid one. The tools keep registry order.
 */
export function selectTools(table: readonly ToolEntry[], spec = 'full'): ToolSelection {
  const wanted = selectedNames(spec, refsOf(table), '--tools');
  return { profile: selectionWords(spec).join(','), entries: table.filter((e) => wanted.has(e.tool.name)) };
}

/** The tools/list result a client receives for these entries. */
export function toolList(entries: readonly ToolEntry[]): { tools: Tool[] } {
  return { tools: entries.map((e) => e.tool) };
}

/**
 * Tokens (o200k BPE, gpt-tokenizer) of the serialized tools/list result of these tools: what they cost a model's
 * context. The same counter the context packs use (special-token text counted as plain text).
 */
export async function toolListTokens(tools: readonly Tool[]): Promise<number> {
  const { loadTokenCounter } = await import('../../context/index.js');
  return (await loadTokenCounter()).count(JSON.stringify({ tools }));
}

export interface SetSize {
  tools: number;
  tokens: number;
  names: string[];
}

export interface ToolsetSize extends SetSize {
  name: ToolsetName;
  description: string;
}

/** The size of a list of tools: how many, their names, what the list costs. */
export async function sizeOf(tools: readonly Tool[]): Promise<SetSize> {
  return { tools: tools.length, tokens: await toolListTokens(tools), names: tools.map((t) => t.name) };
}

/** Every toolset with its tools and what its list costs in tokens. */
export async function toolsetSizes(table: readonly ToolEntry[]): Promise<ToolsetSize[]> {
  const out: ToolsetSize[] = [];
  for (const name of TOOLSET_NAMES)
    out.push({
      name,
      description: TOOLSETS[name],
      ...(await sizeOf(table.filter((e) => e.toolset === name).map((e) => e.tool))),
    });
  return out;
}
