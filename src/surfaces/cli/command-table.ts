import { readFileSync } from 'node:fs';
import { BUILD_ID, type CommandEntry, type CommandIndex, describeCommands } from '../../ops/index.js';

/** The command table the build writes beside the bundle (see scripts/build.mjs). */
export const COMMAND_TABLE_FILE = 'commands.json';

/**
 * The CLI's command table: the build's `dist/commands.json` when it belongs to this very build, else described
 * afresh from the registry (correct but slow: that loads every operation module, as running from source does).
 */
export async function commandTable(): Promise<CommandEntry[]> {
  // This code may sit in dist/cli.js or in a chunk under dist/chunks/.
  for (const dir of ['./', '../']) {
    let index: CommandIndex;
    try {
      index = JSON.parse(readFileSync(new URL(`${dir}${COMMAND_TABLE_FILE}`, import.meta.url), 'utf8'));
    } catch {
      continue;
    }
    if (index.build === BUILD_ID) return index.commands;
  }
  return (await describeCommands()).commands;
}
