import { CommanderError } from 'commander';
import { ValidationError } from '../../infra/index.js';
import { HUB_VERSION } from '../../ops/build-info.js';
import { createContext, invoke, loadOperation } from '../../ops/index.js';
import { buildProgram, commandsFor } from './build-program.js';
import { commandTable } from './command-table.js';
import { reportError, writeErr, writeOut } from './output.js';
import { addServeCommands } from './serve-commands.js';
import { readStdin } from './stdin.js';

/** A JSON object piped on stdin, or {} when nothing is piped. */
async function stdinObject(): Promise<Record<string, unknown>> {
  const text = (await readStdin()).trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ValidationError(`standard input is not valid JSON: ${(err as Error).message}`, {
      field: 'stdin',
      rule: 'json',
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationError('standard input must be a JSON object', {
      field: 'stdin',
      rule: 'json_object',
    });
  }
  return value as Record<string, unknown>;
}

/** The CLI entry point: the only place that sets the exit code. */
export async function main(argv: string[]): Promise<number> {
  const debug = process.env.HUB_DEBUG === '1';
  let exit = 0;
  let json = argv.includes('--json');
  const program = buildProgram(commandsFor(await commandTable(), argv), HUB_VERSION, async ({ entry, input, command }) => {
    const globals = command.optsWithGlobals();
    json = Boolean(globals.json);
    const ctx = createContext({
      cwd: process.cwd(),
      env: process.env,
      definition: (globals.configPath ?? globals.definition) as string | undefined,
      appconfig: globals.appconfig as string | undefined,
      log: writeErr,
      readStdin,
    });
    try {
      const op = await loadOperation(entry.module, entry.id);
      if (entry.stdinJson) input = { ...(await stdinObject()), ...input };
      const result = await invoke(op, ctx, input);
      if (json || !op.cli?.human) await writeOut(JSON.stringify(result, null, json ? undefined : 2));
      else await writeOut(op.cli.human(result));
      exit = op.cli?.exitCode?.(result) ?? 0;
    } catch (err) {
      exit = await reportError(err, json, debug);
    }
  });
  addServeCommands(program);
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
