import type { Command } from 'commander';
import { loadOperations } from '../../ops/index.js';
import { writeErr, writeOut } from './output.js';

const TOOLS_HELP = 'Tools to serve: full, core, or a comma list of profiles and tool names.';

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
    .option('--tools <profile>', TOOLS_HELP, 'full')
    .addHelpText(
      'after',
      '\nstdout carries only protocol messages; logs go to stderr. Reads newline-delimited JSON and\n' +
        'Content-Length framed messages. Tools need a valid .hub.yml in --root (the gate), except\n' +
        'hub_version_check and hub_version_upgrade. See docs/mcp.md.',
    )
    .action(async (opts: { root?: string; tools: string }, command: Command) => {
      const globals = command.optsWithGlobals();
      const root = opts.root ?? ((globals.configPath ?? globals.definition) as string | undefined) ?? '.';
      const { serveMcpStdio } = await import('../mcp/index.js');
      await serveMcpStdio({
        root,
        tools: opts.tools,
        cwd: process.cwd(),
        env: process.env,
        log: writeErr,
      });
    });

  mcp
    .command('tools')
    .description('List the tools a profile serves, with the token size of the full and core tool lists.')
    .option('--tools <profile>', TOOLS_HELP, 'full')
    .option('--json', 'Print the result as JSON.')
    .action(async (opts: { tools: string }, command: Command) => {
      const { profileSizes, selectTools } = await import('../mcp/index.js');
      const ops = await loadOperations();
      const sizes = await profileSizes(ops, opts.tools);
      const names = selectTools(ops, opts.tools).ops.map((op) => op.mcp!.tool);
      const result = { ...sizes, names };
      if (command.optsWithGlobals().json) await writeOut(JSON.stringify(result));
      else
        await writeOut(
          [
            `${result.profile}: ${result.tools} tools, ${result.tokens} tokens`,
            `full: ${sizes.full.tools} tools, ${sizes.full.tokens} tokens; core: ${sizes.core.tools} tools, ${sizes.core.tokens} tokens`,
            ...names.map((n) => `  ${n}`),
          ].join('\n'),
        );
    });
}
