import type { Command } from 'commander';
import { TERMINAL_COMMANDS, type TerminalCommand, terminalRefusal } from '../tui/terminal-gate.js';
import type { GlobalOptions } from './option-value.js';
import { writeErr, writeOut } from './output.js';

/** Exit code of a refused start: a usage error, like a command that does not exist. */
const REFUSED_EXIT = 2;

/** Refuses `command` where no person is at a terminal; returns the exit code when refused. */
async function refused(command: TerminalCommand, globals: GlobalOptions): Promise<number | undefined> {
  const json = Boolean(globals.json);
  const line = terminalRefusal(command, {
    env: process.env,
    stdinTty: Boolean(process.stdin.isTTY),
    stdoutTty: Boolean(process.stdout.isTTY),
    json,
  });
  if (!line) return undefined;
  if (json)
    await writeOut(
      JSON.stringify({
        error: {
          code: 'refused',
          message: line,
          details: { rule: 'interactive_terminal', instead: TERMINAL_COMMANDS[command].instead },
        },
      }),
    );
  else writeErr(line);
  return REFUSED_EXIT;
}

const AGENT_NOTE =
  '\nFor people at a terminal: refused (exit 2, one line naming what to run instead) with HUB_AGENT_MODE=true, ' +
  'under --json, or when stdin or stdout is not a terminal.';

/**
 * `hub nav` (alias `select`) and `hub tui`: pickers and menus for people, not registry operations (no MCP tool,
 * no route: docs/decisions.md). The prompt library loads only once one of them runs and is allowed to.
 */
export function addTerminalCommands(program: Command, setExit: (code: number) => void): void {
  program
    .command('nav')
    .alias('select')
    .description(
      'Pick a project, then a repository with a fuzzy finder and a preview, and open it with config.editor.',
    )
    .option('-p, --project <name>', 'Project to open a repository of (no project picker).')
    .option('--repo <name>', 'Repository to open (no repository picker).')
    .option('--json', 'Refused: nav is interactive (agents use hub workspace repo list --json).')
    .addHelpText(
      'after',
      '\nWith one project, or -p, the project picker is skipped. Type to filter; Enter opens. The editor runs in ' +
        'this terminal without a shell (config.editor, from your user config). An unknown project or repository ' +
        `exits 1; Esc or Ctrl-C cancels a pick (exit 130).${AGENT_NOTE}`,
    )
    .action(async (flags: { project?: string; repo?: string }, command: Command) => {
      const globals = command.optsWithGlobals() as GlobalOptions;
      const no = await refused('nav', globals);
      if (no !== undefined) return setExit(no);
      const { navCommand } = await import('../tui/index.js');
      setExit(await navCommand(flags, globals));
    });
  program
    .command('tui')
    .description(
      'A terminal hub: catalog, project sync, open a repository, content grep, validate, application config, search, version check.',
    )
    .option('--wizard', 'Only the config wizard: set hub.config.yaml settings through appconfig patch.')
    .option('--json', 'Refused: tui is interactive (agents run the commands it offers, with --json).')
    .addHelpText(
      'after',
      '\nEvery menu item runs the same operation as its command (in this process, not a child hub). Esc goes ' +
        `back (on the menu it quits, exit 0); Ctrl-C quits (exit 130).${AGENT_NOTE}`,
    )
    .action(async (flags: { wizard?: boolean }, command: Command) => {
      const globals = command.optsWithGlobals() as GlobalOptions;
      const no = await refused('tui', globals);
      if (no !== undefined) return setExit(no);
      const { tuiCommand } = await import('../tui/index.js');
      setExit(await tuiCommand(flags, globals));
    });
}
