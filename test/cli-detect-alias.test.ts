import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;

beforeAll(() => {
  dir = createTempDir('hub-detect-alias-');
  root = createDemo(join(dir, 'demo')).root;
});
afterAll(() => removeTempDir(dir));

const hub = (args: string[]) => runHub(args, { cwd: root });

describe('hub detect is hub component detect', () => {
  it.each([
    [['--json']],
    [['--project', 'platform', '--json']],
    [['--project', 'platform', '--repo', 'identity']],
    [[]],
  ])('prints the same with %j', (flags) => {
    const alias = hub(['detect', ...flags]);
    const full = hub(['component', 'detect', ...flags]);
    expect(alias.code, alias.stderr).toBe(0);
    expect(alias.stdout).toBe(full.stdout);
    expect(alias.stderr).toBe(full.stderr);
  });

  it('fails the same way on a bad flag value and on an unknown project', () => {
    const a = hub(['detect', '--project', 'nope', '--json']);
    const b = hub(['component', 'detect', '--project', 'nope', '--json']);
    expect(a.code).toBe(1);
    expect(a.stdout).toBe(b.stdout);
    expect(hub(['detect', '--bogus']).code).toBe(2);
  });

  it('is listed in the root help and says what it stands for', () => {
    expect(hub(['--help']).stdout).toMatch(/\n {2}detect .*component/i);
    expect(hub(['detect', '--help']).stdout).toContain('Same as `hub component detect`');
  });
});
