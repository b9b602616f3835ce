import type * as z from 'zod';
import type { AnyOperation } from './registry.js';
import { isRequired, optionsFromSchema } from './schema-options.js';

/** The docs table of commands, generated from the registry (docs/commands.md). */
export function commandsMarkdown(ops: AnyOperation[]): string {
  const rows = ops.map((op) => {
    const shape = op.input.shape as Record<string, z.ZodType>;
    const args = (op.cli?.args ?? []).map((a) => (isRequired(shape[a]!) ? `<${a}>` : `[${a}]`)).join(' ');
    const cli = op.cli
      ? [op.cli.command, ...(op.cli.aliases ?? [])]
          .map((c) => `\`hub ${c}${args ? ` ${args}` : ''}\``)
          .join('<br>')
      : '-';
    const options = optionsFromSchema(op.input.shape, op.cli?.args ?? [])
      .map((o) => `\`--${o.kind === 'boolean' && o.defaultValue === true ? '[no-]' : ''}${o.flag}\``)
      .join(' ');
    const mcp = op.mcp ? `\`${op.mcp.tool}\`` : '-';
    const http = op.http?.map((h) => `\`${h.method} ${h.route}\``).join('<br>') ?? '-';
    return `| ${cli} | ${options || '-'} | ${mcp} | ${http} | ${op.summary.replace(/\|/g, '\\|')} |`;
  });
  return [
    '# Commands',
    '',
    'Generated from the operation registry (`npm run generate`); a test fails when it is stale.',
    'Every command also takes `-c/--config-path <file>`, `--appconfig <file>` and `--json`.',
    '',
    '| CLI | options | MCP tool | HTTP | what it does |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
