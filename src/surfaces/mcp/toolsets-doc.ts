import { bundledTemplatesDir, listTemplates } from '../../agents/index.js';
import { TOOLSET_NAMES, TOOLSETS } from '../../ops/index.js';
import { DYNAMIC_TOOL_DEFS } from './dynamic-tools.js';
import { selectTools, toolListTokens } from './profiles.js';
import type { ToolEntry } from './tool-table.js';

const thousands = (n: number) => n.toLocaleString('en-US');

/** What a selection served with or without the dynamic pair costs: tool count and tokens. */
async function cost(table: readonly ToolEntry[], spec: string, dynamic: boolean) {
  const tools = [
    ...selectTools(table, spec).entries.map((e) => e.tool),
    ...(dynamic ? DYNAMIC_TOOL_DEFS : []),
  ];
  return { tools: tools.length, tokens: thousands(await toolListTokens(tools)) };
}

/**
 * The toolsets table and the installed-defaults table of docs/mcp.md, from the code: each toolset with its
 * tools and token cost, and what each install serves (every bundled template's own tools with `--dynamic`, the
 * plain `mcp install`, a bare `hub mcp serve`). A test holds the page to this text.
 */
export async function toolsetsDocBlock(table: readonly ToolEntry[]): Promise<string> {
  const lines = ['| toolset | tools | tokens | what for |', '|---|---|---|---|'];
  for (const name of TOOLSET_NAMES) {
    const c = await cost(table, name, false);
    lines.push(`| \`${name}\` | ${c.tools} | ${c.tokens} | ${TOOLSETS[name]} |`);
  }
  lines.push('', '| installed by | serves | tools | tokens |', '|---|---|---|---|');
  const templates = listTemplates({ bundledDir: bundledTemplatesDir() }).templates;
  for (const t of [...templates].sort((a, b) => a.id.localeCompare(b.id))) {
    const own = t.manifest.mcp_tools;
    const spec = own.length > 0 ? own.join(',') : 'core';
    const c = await cost(table, spec, true);
    const what = own.length > 0 ? 'its `mcp_tools`, `--dynamic`' : '`core`, `--dynamic`';
    lines.push(`| \`agent create ${t.id} --install-mcp\` | ${what} | ${c.tools} | ${c.tokens} |`);
  }
  const core = await cost(table, 'core', true);
  lines.push(`| \`mcp install\` | \`--tools core --dynamic\` | ${core.tools} | ${core.tokens} |`);
  const full = await cost(table, 'full', false);
  lines.push(
    `| \`mcp install --tools full\`, bare \`hub mcp serve\` | every tool | ${full.tools} | ${full.tokens} |`,
  );
  return `${lines.join('\n')}\n`;
}
