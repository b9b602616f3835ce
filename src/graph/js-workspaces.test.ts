// JavaScript monorepos declare their members in more places than package.json `workspaces`: pnpm in
// pnpm-workspace.yaml, Lerna in lerna.json, Rush in rush.json (issue 26: a pnpm monorepo's 47 members were invisible
// to the graph). nx and turbo read the package manager's list, so they need nothing of their own.
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir, writeFiles } from '../../test/fixtures/index.js';
import { parseLerna, parsePnpmWorkspace, parseRush } from './parse-js-workspaces.js';
import { scanRepo } from './scan-repo.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeTempDir(d);
});

const pkg = (name: string, deps: Record<string, string> = {}) =>
  `${JSON.stringify({ name, dependencies: deps }, null, 2)}\n`;

function repo(files: Record<string, string>): string {
  const dir = createTempDir('hub-js-ws-');
  dirs.push(dir);
  writeFiles(dir, files);
  return dir;
}

const read = (dir: string) => {
  const s = scanRepo({ dir });
  return {
    files: s.files.filter((f) => f.endsWith('package.json')).sort(),
    skipped: s.skipped,
    provides: s.provides.map((p) => p.name).sort(),
  };
};

describe('JS workspace declarations', () => {
  it('pnpm-workspace.yaml, lerna.json and rush.json name their members', () => {
    expect(parsePnpmWorkspace("packages:\n  - 'packages/*'\n  - apps/**\n  - '!**/test/**'\n").more).toEqual([
      'packages/*',
      'apps/**',
      '!**/test/**',
    ]);
    expect(parsePnpmWorkspace('catalog:\n  react: ^18\n').more).toBeUndefined();
    expect(parseLerna('{"packages": ["modules/*"], "version": "1.0.0"}').more).toEqual(['modules/*']);
    // Lerna's default when it names none.
    expect(parseLerna('{"version": "independent"}').more).toEqual(['packages/*']);
    const rush = `// rush.json allows comments
{
  "rushVersion": "5.120.0",
  /* one project per folder */
  "projects": [
    { "packageName": "@acme/a", "projectFolder": "libraries/a" },
    { "packageName": "@acme/b", "projectFolder": "apps/b", },
  ],
}`;
    expect(parseRush(rush).more).toEqual(['libraries/a', 'apps/b']);
  });

  it('a pnpm workspace is read: one level, any depth (**) and negations', () => {
    const dir = repo({
      'package.json': pkg('root'),
      'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - 'tooling/**'\n  - '!**/fixtures/**'\n",
      'packages/a/package.json': pkg('@m/a', { webfw: '^4' }),
      'packages/b/package.json': pkg('@m/b'),
      'packages/a/test/fixtures/x/package.json': pkg('fixture-x'),
      'tooling/lint/config/package.json': pkg('@m/lint-config'),
      'tooling/fixtures/y/package.json': pkg('fixture-y'),
      'tooling/node_modules/z/package.json': pkg('z'),
      'other/c/package.json': pkg('@m/c'),
    });
    const r = read(dir);
    expect(r.provides).toEqual(['@m/a', '@m/b', '@m/lint-config', 'root']);
    expect(r.skipped).toEqual([]);
  });

  it('yarn workspaces as {packages}, lerna and rush members are read', () => {
    const yarn = repo({
      'package.json': JSON.stringify({ name: 'y', private: true, workspaces: { packages: ['libs/*'] } }),
      'libs/one/package.json': pkg('@y/one'),
    });
    expect(read(yarn).provides).toEqual(['@y/one', 'y']);
    const lerna = repo({
      'package.json': pkg('l'),
      'lerna.json': '{"packages": ["modules/*"]}',
      'modules/m/package.json': pkg('@l/m'),
    });
    expect(read(lerna).provides).toEqual(['@l/m', 'l']);
    const rush = repo({
      'rush.json': '{ "projects": [ { "packageName": "@r/a", "projectFolder": "libraries/a" } ] }',
      'libraries/a/package.json': pkg('@r/a'),
    });
    expect(read(rush).provides).toEqual(['@r/a']);
  });

  it('member patterns from a clone are bounded: no extglobs, at most 256 characters', () => {
    const dir = repo({
      'package.json': pkg('root'),
      'pnpm-workspace.yaml': `packages:\n  - '+(a|aa)+(a|aa)+(a|aa)*!'\n  - 'p${'/x'.repeat(200)}'\n  - 'packages/*'\n`,
      [`${'a'.repeat(40)}!/package.json`]: pkg('never'),
      'packages/one/package.json': pkg('@m/one'),
    });
    const s = scanRepo({ dir });
    expect(s.provides.map((p) => p.name).sort()).toEqual(['@m/one', 'root']);
    expect(s.skipped.map((x) => x.rule)).toEqual(['max_expand']);
  });

  it('a member pattern that climbs out of the repository is a skip, not a read', () => {
    const dir = repo({
      'package.json': pkg('root'),
      'pnpm-workspace.yaml': "packages:\n  - '../**'\n  - '../outside/*'\n",
    });
    const s = scanRepo({ dir });
    expect(s.skipped.map((x) => x.rule)).toEqual(['inside_root', 'inside_root']);
  });
});
