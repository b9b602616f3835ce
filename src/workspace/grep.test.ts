import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, makeGitRepo, removeTempDir, writeFiles } from '../../test/fixtures/index.js';
import { findRipgrep, type GrepTarget, grepInfo, grepRepos, parseBackendChoice } from './grep.js';
import { EXCLUDED_DIRS, walkFiles } from './walk.js';

let tmp: string;
let targets: GrepTarget[];
// biome-ignore lint/style/noProcessEnv: tests look for ripgrep on the real PATH.
const PATH = process.env.PATH;
const hasRg = findRipgrep(PATH) !== null;

beforeAll(() => {
  tmp = createTempDir('hub-grep-');
  const a = makeGitRepo(join(tmp, 'a'), {
    '.gitignore': 'ignored.txt\nbuild-out/\n!build-out/keep.txt\n',
    'src/main.ts': 'const needle = 1;\n// NEEDLE upper\nno match here\n',
    'src/sub/.gitignore': 'local.ts\n',
    'src/sub/local.ts': 'needle in a nested ignore\n',
    'src/sub/seen.ts': 'needle seen\n',
    '.github/workflows/ci.yml': 'run: needle\n',
    'README.md': 'a needle\n',
  });
  writeFiles(a, {
    'ignored.txt': 'needle ignored\n',
    'build-out/x.txt': 'needle in ignored folder\n',
    'bin.dat': 'needle\u0000binary\n',
  });
  for (const d of EXCLUDED_DIRS) writeFiles(a, { [`${d}/pkg/file.js`]: 'needle excluded\n' });
  writeFiles(a, { 'deep/node_modules/x.js': 'needle excluded deep\n' });
  const b = join(tmp, 'b');
  mkdirSync(b);
  writeFileSync(join(b, 'notes.txt'), 'needle one\nneedle two\nneedle three\n');
  targets = [
    { id: 'p/a', root: a },
    { id: 'p/b', root: b },
    { id: 'p/missing', root: join(tmp, 'missing') },
  ];
});
afterAll(() => removeTempDir(tmp));

const EXPECTED = [
  'p/a .github/workflows/ci.yml:1',
  'p/a README.md:1',
  'p/a src/main.ts:1',
  'p/a src/sub/seen.ts:1',
  'p/b notes.txt:1',
  'p/b notes.txt:2',
  'p/b notes.txt:3',
];
const keys = (r: { matches: Array<{ repository: string; path: string; line: number }> }) =>
  r.matches.map((m) => `${m.repository} ${m.path}:${m.line}`);

describe('walkFiles', () => {
  it('honours nested .gitignore files and negations, skips excluded folders, includes hidden files', () => {
    const files = [...walkFiles(targets[0]!.root)].map((f) => f.rel);
    expect(files).toContain('.github/workflows/ci.yml');
    expect(files).toContain('src/sub/seen.ts');
    expect(files).not.toContain('src/sub/local.ts');
    expect(files).not.toContain('ignored.txt');
    expect(files.some((f) => f.startsWith('build-out/'))).toBe(false);
    for (const d of EXCLUDED_DIRS) expect(files.some((f) => f.startsWith(`${d}/`))).toBe(false);
    expect(files.some((f) => f.includes('node_modules'))).toBe(false);
  });
});

describe.each([
  ['builtin', true],
  ['ripgrep', hasRg],
])('workspace grep (%s)', (backend, available) => {
  it.skipIf(!available)(
    'finds the same matches, excluding ignored, dependency and binary files',
    async () => {
      const r = await grepRepos(targets, { query: 'needle', backend, path: PATH });
      expect(r.backend).toBe(backend);
      expect(keys(r)).toEqual(EXPECTED);
      expect(r.repos_searched).toBe(2);
      expect(r.repos_missing).toEqual(['p/missing']);
      expect(r.matches[2]!.text).toBe('const needle = 1;');
      expect(r.truncated).toBe(false);
    },
  );

  it.skipIf(!available)('supports ignore-case, regex and a bounded result', async () => {
    const ci = await grepRepos(targets, { query: 'NEEDLE upper', ignoreCase: true, backend, path: PATH });
    expect(keys(ci)).toEqual(['p/a src/main.ts:2']);
    const re = await grepRepos(targets, { query: 'needle (one|three)', regex: true, backend, path: PATH });
    expect(keys(re)).toEqual(['p/b notes.txt:1', 'p/b notes.txt:3']);
    const lit = await grepRepos(targets, { query: 'needle (one|three)', backend, path: PATH });
    expect(lit.matches).toEqual([]);
    const few = await grepRepos(targets, { query: 'needle', limit: 3, backend, path: PATH });
    expect(few.matches).toHaveLength(3);
    expect(few.truncated).toBe(true);
  });
});

describe('backend choice', () => {
  it('parses HUB_GREP_BACKEND and reports it', async () => {
    expect(parseBackendChoice(undefined)).toBe('auto');
    expect(parseBackendChoice('rg')).toBe('ripgrep');
    expect(parseBackendChoice('BUILTIN')).toBe('builtin');
    expect(() => parseBackendChoice('grep')).toThrow(/HUB_GREP_BACKEND/);
    const forced = await grepInfo({ backend: 'builtin', path: PATH });
    expect(forced).toMatchObject({ backend: 'builtin', requested: 'builtin', respects_gitignore: true });
    expect(forced.excluded_dirs).toEqual(
      expect.arrayContaining(['node_modules', '.venv', 'venv', 'vendor', 'target', 'dist', '.git']),
    );
    const none = await grepInfo({ path: join(tmp, 'no-bin') });
    expect(none).toMatchObject({ backend: 'builtin', ripgrep: { available: false, version: null } });
    await expect(
      grepRepos(targets, { query: 'x', backend: 'ripgrep', path: join(tmp, 'no-bin') }),
    ).rejects.toMatchObject({
      code: 'validation',
    });
    if (hasRg) expect((await grepInfo({ path: PATH })).ripgrep.version).toMatch(/^ripgrep \d/);
  });

  it('rejects an invalid regular expression', async () => {
    await expect(
      grepRepos(targets, { query: '(', regex: true, backend: 'builtin', path: PATH }),
    ).rejects.toMatchObject({
      code: 'validation',
    });
  });
});
