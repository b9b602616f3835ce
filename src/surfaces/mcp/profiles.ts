import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { closest } from 'fastest-levenshtein';
import { didYouMean, UsageError } from '../../infra/index.js';
import type { ToolEntry } from './tool-table.js';
import { CORE_TOOLS, PROFILES, TOOLSET_NAMES, TOOLSETS, type ToolsetName } from './toolsets.js';

export { CORE_TOOLS, PROFILES };

export interface ToolSelection {
  /** The selection as given (`full`, `core`, or the comma list). */
  profile: string;
  entries: ToolEntry[];
}

const isToolset = (name: string): name is ToolsetName => Object.hasOwn(TOOLSETS, name);

/** The nearest name a user could have meant: close ones first, else the single closest of all. */
function nearest(entry: string, table: readonly ToolEntry[]): string {
  const names = entry.startsWith('hub_')
    ? table.map((e) => e.tool.name)
    : [...PROFILES, ...TOOLSET_NAMES, ...table.map((e) => e.tool.name.slice(4))];
  return didYouMean(entry, names, 1)[0] ?? closest(entry, names);
}

/** The tool names one `--tools` word stands for: a profile, a toolset, or a tool (the `hub_` prefix optional). */
export function namesOf(entry: string, table: readonly ToolEntry[]): string[] {
  if (entry === 'full') return table.map((e) => e.tool.name);
  const known = new Set(table.map((e) => e.tool.name));
  if (entry === 'core') return CORE_TOOLS.filter((n) => known.has(n));
  if (isToolset(entry)) return table.filter((e) => e.toolset === entry).map((e) => e.tool.name);
  const name = entry.startsWith('hub_') ? entry : `hub_${entry}`;
  if (known.has(name)) return [name];
  throw new UsageError(
    `--tools: unknown toolset, profile or tool '${entry}'; did you mean '${nearest(entry, table)}'? ` +
      `Toolsets: ${TOOLSET_NAMES.join(', ')}; profiles: ${PROFILES.join(', ')}; tools: \`hub mcp tools\``,
    { field: 'tools', value: entry, rule: 'known_tool', suggestions: [nearest(entry, table)] },
  );
}

/**
 * Picks the served tools: `full` (default), `core`, a toolset, or a comma list mixing profiles, toolsets and tool
 * names (`core,acl,hub_events`; the `hub_` prefix may be left out). An unknown name is a usage error naming the
 * nearest valid one. The tools keep registry order.
 */
export function selectTools(table: readonly ToolEntry[], spec = 'full'): ToolSelection {
  const entries = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (entries.length === 0)
    throw new UsageError('--tools: empty list; use core, full, toolsets or tool names', {
      field: 'tools',
      value: spec,
      rule: 'non_empty',
    });
  const wanted = new Set(entries.flatMap((entry) => namesOf(entry, table)));
  return { profile: entries.join(','), entries: table.filter((e) => wanted.has(e.tool.name)) };
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
