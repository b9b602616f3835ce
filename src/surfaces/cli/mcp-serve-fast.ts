import { parseArgs } from 'node:util';

/** What `hub mcp serve` needs from its command line. */
export interface McpServeArgs {
  root?: string;
  tools: string;
  dynamic: boolean;
  /** The global -c/--config-path or --definition (the default root). */
  manifest?: string;
}

/**
 * Parses a plain `hub mcp serve ...` without commander, so an agent's tool server starts without building the
 * command tree (spawn to the first tools/list is what every agent session waits for). Anything else (help, an
 * unknown or repeated option, another command) returns undefined and commander parses it as before.
 */
export function mcpServeArgs(argv: readonly string[]): McpServeArgs | undefined {
  if (argv.some((a) => a === '-h' || a === '--help' || a === '--')) return undefined;
  // Every other command is turned away before parsing (a parse that throws on its options costs ~1 ms).
  if (!argv.includes('mcp') || !argv.includes('serve')) return undefined;
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch {
    return undefined;
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 2 || positionals[0] !== 'mcp' || positionals[1] !== 'serve') return undefined;
  return {
    ...(values.root !== undefined ? { root: values.root } : {}),
    tools: values.tools ?? 'full',
    dynamic: values.dynamic === true,
    ...(values['config-path'] !== undefined || values.definition !== undefined
      ? { manifest: values['config-path'] ?? values.definition }
      : {}),
  };
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: {
      root: { type: 'string' },
      tools: { type: 'string' },
      dynamic: { type: 'boolean' },
      'config-path': { type: 'string', short: 'c' },
      definition: { type: 'string' },
    },
  });
}
