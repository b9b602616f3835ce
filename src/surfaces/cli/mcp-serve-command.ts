import type { Command } from 'commander';
import type { McpServeArgs } from './mcp-serve-fast.js';
import { writeErr, writeOut } from './output.js';

const TOOLS_HELP =
  'Tools to serve: full, core, a toolset, or a comma list of profiles, toolsets and tool names (hub mcp tools lists them).';
const DYNAMIC_HELP =
  'Also serve hub_toolsets_list and hub_toolsets_enable, with which the agent adds toolsets while it runs.';

/** Runs `hub mcp serve` until stdin ends (commander's action and main's fast path both end here). */
export async function serveMcpCommand(args: McpServeArgs): Promise<void> {
  const { serveMcpStdio } = await import('../mcp/index.js');
  await serveMcpStdio({
    root: args.root ?? args.manifest ?? '.',
    tools: args.tools,
    dynamic: args.dynamic,
    cwd: process.cwd(),
    env: process.env,
    log: writeErr,
  });
}

/**
 * `hub mcp serve` (the MCP tool server on stdio) and `hub mcp tools` (what a profile serves and its size in
 * tokens). The server and the tokenizer load with import() here, so no other command pays for them.
 */
export function addMcpServeCommand(program: Command): void {
  const mcp =
    program.commands.find((c) => c.name() === 'mcp') ??
    program.command('mcp').description('MCP tool server for coding agents: serve it, list its tools.');

  mcp
    .command('serve')
    .description('Serve hub tools and hub:// resources over MCP on stdio (newline-delimited JSON).')
    .option(
      '--root <dir>',
      'Workspace directory holding .hub.yml, or the manifest file (default: -c, else .).',
    )
    .option('--tools <list>', TOOLS_HELP, 'full')
    .option('--dynamic', DYNAMIC_HELP)
    .addHelpText(
      'after',
      '\nstdout carries only protocol messages; logs go to stderr. Reads newline-delimited JSON and\n' +
        'Content-Length framed messages. Tools need a valid .hub.yml in --root (the gate), except\n' +
        'hub_version_check and hub_version_upgrade. See docs/mcp.md.',
    )
    .action(async (opts: { root?: string; tools: string; dynamic?: boolean }, command: Command) => {
      const globals = command.optsWithGlobals();
      await serveMcpCommand({
        ...opts,
        dynamic: opts.dynamic === true,
        manifest: (globals.configPath ?? globals.definition) as string | undefined,
      });
    });

  mcp
    .command('tools')
    .description(
      'List the toolsets with their tools and token cost, and what a selection serves (tokens counted with the real tokenizer).',
    )
    .option('--tools <list>', TOOLS_HELP, 'full')
    .option('--dynamic', 'Count the two tools --dynamic adds in the selection.')
    .option('--json', 'Print the result as JSON.')
    .action(async (opts: { tools: string; dynamic?: boolean }, command: Command) => {
      const { loadToolTable, toolsReport, toolsReportText } = await import('../mcp/index.js');
      const report = await toolsReport(await loadToolTable(), opts.tools, opts.dynamic === true);
      if (command.optsWithGlobals().json) await writeOut(JSON.stringify(report));
      else await writeOut(toolsReportText(report));
    });
}
