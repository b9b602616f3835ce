import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ValidationError } from '../../infra/index.js';
import {
  TOOLSET_NAMES,
  TOOLSETS,
  TOOLSETS_ENABLE_TOOL,
  TOOLSETS_LIST_TOOL,
  type ToolsetName,
} from '../../ops/index.js';
import { toolListTokens } from './profiles.js';
import type { ToolEntry } from './tool-table.js';

/**
 * The two tools `hub mcp serve --dynamic` adds. They belong to no toolset and to no registry operation: they act
 * on the server's own session (which tools it lists), which no CLI command or HTTP route has.
 */
export const DYNAMIC_TOOL_DEFS: readonly Tool[] = [
  {
    name: TOOLSETS_LIST_TOOL,
    description:
      'List every toolset of this server: its tools, their token cost, and whether it is enabled. Use when a task needs a hub tool that is not in your tool list.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
  {
    name: TOOLSETS_ENABLE_TOOL,
    description:
      'Enable a toolset: its tools join your tool list at once. Use when hub_toolsets_list shows the tools a task needs in a toolset not yet enabled.',
    inputSchema: {
      type: 'object',
      properties: { toolset: { type: 'string', enum: [...TOOLSET_NAMES], description: 'Toolset name.' } },
      required: ['toolset'],
    },
    annotations: { destructiveHint: false, idempotentHint: true },
  },
];

/** What `hub_toolsets_list` answers: each toolset, its tools and their cost, enabled or not. */
export async function listToolsets(table: readonly ToolEntry[], served: ReadonlySet<string>) {
  const toolsets = [];
  for (const name of TOOLSET_NAMES) {
    const entries = table.filter((e) => e.toolset === name);
    const tools = entries.map((e) => e.tool.name);
    toolsets.push({
      name,
      description: TOOLSETS[name],
      enabled: tools.every((t) => served.has(t)),
      tools,
      tokens: await toolListTokens(entries.map((e) => e.tool)),
    });
  }
  return { toolsets };
}

/** The toolset named in `hub_toolsets_enable`'s arguments, or a validation error naming the known ones. */
export function toolsetArgument(args: Record<string, unknown> | undefined): ToolsetName {
  const value = args?.toolset;
  const extra = Object.keys(args ?? {}).filter((k) => k !== 'toolset');
  if (extra.length > 0)
    throw new ValidationError(
      `${extra[0]}: unknown argument; ${TOOLSETS_ENABLE_TOOL} takes only \`toolset\``,
      {
        field: extra[0],
        rule: 'known_argument',
      },
    );
  if (typeof value === 'string' && Object.hasOwn(TOOLSETS, value)) return value as ToolsetName;
  throw new ValidationError(
    `toolset: ${JSON.stringify(value ?? null)?.slice(0, 80)} is not a toolset; one of ${TOOLSET_NAMES.join(', ')}`,
    {
      field: 'toolset',
      value: typeof value === 'string' ? value.slice(0, 200) : null,
      rule: 'known_toolset',
    },
  );
}
