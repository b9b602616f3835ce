import { CommanderError } from 'commander';
import { type CommandEntry, HUB_VERSION } from '../../ops/index.js';
import { buildProgram, commandsFor } from './build-program.js';
import { reportError } from './output.js';
import { runCommand } from './run-command.js';
import { addServeCommands } from './serve-commands.js';
import { addTerminalCommands } from './terminal-commands.js';

/** Parses argv with commander (help, version, serve commands, usage errors) and runs the chosen command. */
export async function mainWithCommander(
  entries: CommandEntry[],
  argv: string[],
  debug: boolean,
): Promise<number> {
  let exit = 0;
  let json = argv.includes('--json');
  const program = buildProgram(commandsFor(entries, argv), HUB_VERSION, async ({ entry, input, command }) => {
    const globals = command.optsWithGlobals();
    json = Boolean(globals.json);
    exit = await runCommand(entry, input, globals, debug);
  });
  addServeCommands(program);
  addTerminalCommands(program, (code) => {
    exit = code;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version end here with 0; every other parse failure is a usage error.
      return err.code === 'commander.helpDisplayed' || err.code === 'commander.version' ? 0 : 2;
    }
    return await reportError(err, json, debug);
  }
  return exit;
}
