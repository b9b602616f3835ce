import { DYNAMIC_TOOL_DEFS } from './dynamic-tools.js';
import { type SetSize, selectTools, sizeOf, type ToolsetSize, toolsetSizes } from './profiles.js';
import type { ToolEntry } from './tool-table.js';

/** What `hub mcp tools` prints: the selection and its cost, the two profiles, and every toolset. */
export interface ToolsReport extends SetSize {
  /** The selection as given (`full`, `core`, a toolset, a comma list). */
  profile: string;
  dynamic: boolean;
  full: SetSize;
  core: SetSize;
  toolsets: ToolsetSize[];
}

const toolsOf = (entries: readonly ToolEntry[], dynamic = false) => [
  ...entries.map((e) => e.tool),
  ...(dynamic ? DYNAMIC_TOOL_DEFS : []),
];

/** The report of a selection (with the dynamic tools when `dynamic`), tokens counted by the real tokenizer. */
export async function toolsReport(
  table: readonly ToolEntry[],
  spec = 'full',
  dynamic = false,
): Promise<ToolsReport> {
  const chosen = selectTools(table, spec);
  return {
    profile: chosen.profile,
    dynamic,
    ...(await sizeOf(toolsOf(chosen.entries, dynamic))),
    full: await sizeOf(toolsOf(table)),
    core: await sizeOf(toolsOf(selectTools(table, 'core').entries)),
    toolsets: await toolsetSizes(table),
  };
}

/** The report for people: the selection, a table of toolsets, then the selected tools. */
export function toolsReportText(r: ToolsReport): string {
  const width = Math.max(...r.toolsets.map((t) => t.name.length), 'toolset'.length);
  const row = (a: string, b: string, c: string, d: string) =>
    `${a.padEnd(width)}  ${b.padStart(5)}  ${c.padStart(6)}  ${d}`;
  return [
    `${r.profile}${r.dynamic ? ' (dynamic)' : ''}: ${r.tools} tools, ${r.tokens} tokens`,
    `profiles: full ${r.full.tools} tools, ${r.full.tokens} tokens; core ${r.core.tools} tools, ${r.core.tokens} tokens`,
    '',
    row('toolset', 'tools', 'tokens', 'what for'),
    ...r.toolsets.map((t) => row(t.name, String(t.tools), String(t.tokens), t.description)),
    '',
    `tools of ${r.profile}:`,
    ...r.names.map((n) => `  ${n}`),
  ].join('\n');
}
