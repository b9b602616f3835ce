import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { BUILD_ID } from './build-info.js';
import { type CommandEntry, describeCommand, describeCommands, loadCommandTable } from './command-index.js';
import { defineOp, READ_ONLY } from './registry.js';

let dir: string;
beforeEach(() => {
  dir = createTempDir('hub-command-table-');
});
afterEach(() => removeTempDir(dir));

const FAKE: CommandEntry = {
  id: 'fake.op',
  module: 'component',
  command: 'fake op',
  summary: 'A command only this table has.',
  args: [],
  options: [],
  stdinJson: false,
};
const tableFile = (build: string) => {
  const file = join(dir, `${build}.json`);
  writeFileSync(file, JSON.stringify({ build, commands: [FAKE] }));
  return pathToFileURL(file);
};

describe('the command table', () => {
  it('describes every command with its module, arguments and options', async () => {
    const { build, commands } = await describeCommands();
    expect(build).toBe(BUILD_ID);
    const resolve = commands.find((c) => c.command === 'component resolve')!;
    expect(resolve).toMatchObject({ id: 'component.resolve', module: 'component', stdinJson: false });
    expect(resolve.args).toEqual([expect.objectContaining({ name: 'path', required: true })]);
    expect(resolve.options.map((o) => o.flag)).toEqual(expect.arrayContaining(['project', 'repo']));
    const own = commands.filter((c) => !c.alias_of);
    expect(new Set(own.map((c) => c.id)).size).toBe(own.length);
    expect(new Set(commands.map((c) => c.command)).size).toBe(commands.length);
    // An alias has an entry of its own: the same operation and options, naming the command it stands for.
    const full = commands.find((c) => c.command === 'component detect')!;
    const alias = commands.find((c) => c.command === 'detect')!;
    expect(alias).toMatchObject({ id: full.id, module: full.module, alias_of: 'component detect' });
    expect(alias.options).toEqual(full.options);
    expect(alias.help).toContain('Same as `hub component detect`');
  });

  it("uses the build's file when it belongs to this build", async () => {
    const missing = pathToFileURL(join(dir, 'absent.json'));
    expect(await loadCommandTable([missing, tableFile(BUILD_ID)])).toEqual([FAKE]);
  });

  it('ignores a table of another build, or a damaged one, and describes the registry instead', async () => {
    const damaged = join(dir, 'damaged.json');
    writeFileSync(damaged, '{"build":');
    const commands = await loadCommandTable([tableFile(`${BUILD_ID}-other`), pathToFileURL(damaged)]);
    expect(commands.map((c) => c.id)).toContain('component.resolve');
    expect(commands.map((c) => c.id)).not.toContain('fake.op');
  });
});

describe('help in CLI terms', () => {
  it('shows an argument named in backticks as its flag, or as <name> when positional', () => {
    const op = defineOp({
      id: 'fake.flags',
      summary:
        'Plan the change of `path`; `dry_run` only shows it, `apply` writes, `start`: false only ranks.',
      description: 'Without `apply` nothing is written; `contains` is not an argument.',
      input: z.object({
        path: z.string().describe('Folder to change.'),
        dry_run: z.boolean().optional().describe('Show the plan (see `apply`).'),
        apply: z.boolean().optional(),
        start: z.boolean().default(true).describe('Start it (`start` is on by default).'),
      }),
      gate: 'active',
      attributes: READ_ONLY,
      handler: () => ({}),
      cli: { command: 'fake flags', args: ['path'] },
      mcp: { tool: 'hub_fake_flags', when: 'Use when `apply` is wanted.' },
    });
    const entry = describeCommand(op, 'component')!;
    expect(entry.summary).toBe(
      'Plan the change of <path>; --dry-run only shows it, --apply writes, --no-start only ranks.',
    );
    expect(entry.description).toBe('Without --apply nothing is written; `contains` is not an argument.');
    expect(entry.options.find((o) => o.field === 'dry_run')!.description).toBe(
      'Show the plan (see --apply).',
    );
    // A flag that is on by default is spelled --no-x on the CLI: only "`x`: false" can become it.
    expect(entry.options.find((o) => o.field === 'start')!.description).toBe(
      'Start it (`start` is on by default).',
    );
  });
});
