import { type CommandEntry, loadCommandTable } from '../../ops/index.js';

/** The command table the build writes beside the bundle (see scripts/build.mjs). */
export const COMMAND_TABLE_FILE = 'commands.json';

/** The CLI's command table: dist/commands.json of this build (this code sits in dist/chunks/, or in dist/). */
export function commandTable(): Promise<CommandEntry[]> {
  return loadCommandTable(
    ['../', './'].map((dir) => new URL(`${dir}${COMMAND_TABLE_FILE}`, import.meta.url)),
  );
}
