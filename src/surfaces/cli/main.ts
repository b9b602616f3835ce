import { commandTable } from './command-table.js';
import { fastParse } from './fast-parse.js';
import { runCommand } from './run-command.js';

/**
 * The CLI entry point: the only place that sets the exit code. A plain command line is parsed without
 * commander; help, version, the serve commands and every usage error go through commander.
 */
export async function main(argv: string[]): Promise<number> {
  const debug = process.env.HUB_DEBUG === '1';
  const entries = await commandTable();
  const fast = fastParse(entries, argv);
  if (fast) return await runCommand(fast.entry, fast.input, fast.globals, debug);
  const { mainWithCommander } = await import('./commander-main.js');
  return await mainWithCommander(entries, argv, debug);
}
