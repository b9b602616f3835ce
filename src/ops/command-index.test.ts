import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { BUILD_ID } from './build-info.js';
import { type CommandEntry, describeCommands, loadCommandTable } from './command-index.js';

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
    expect(new Set(commands.map((c) => c.id)).size).toBe(commands.length);
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
