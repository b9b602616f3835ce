import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, git, removeTempDir } from '../../test/fixtures/index.js';
import { Catalog } from '../catalog/index.js';
import { readManifestFile } from '../model/index.js';
import { buildSnapshot } from './repomix.js';
import { loadTokenCounter } from './tokens.js';

let tmp: string;
let catalog: Catalog;
let root: string;

beforeAll(() => {
  tmp = createTempDir('hub-repomix-');
  const ws = buildWorkspace({
    root: join(tmp, 'ws'),
    projects: [
      {
        name: 'p',
        repos: [
          {
            name: 'r',
            files: {
              '.gitignore': 'secret/\n*.log\n!keep.log\n',
              'README.md': '# r\n\nA service.\n',
              'package.json': '{"name":"r"}\n',
              'package-lock.json': '{"lockfileVersion":3}\n',
              'config/app.yaml': 'port: 8080\n',
              'api/openapi.yaml': 'openapi: 3.0.0\n',
              'src/index.ts': 'export const x = 1;\n',
              'src/util.ts': `export const y = '${'y'.repeat(3000)}';\n`,
              'src/util.test.ts': 'test("y", () => {});\n',
              'docs/guide.md': 'guide\n',
              'img.bin': 'a\u0000b',
              'node_modules/dep/index.js': 'module.exports = 1;\n',
              'dist/out.js': 'built\n',
              'keep.log': 'kept\n',
            },
            components: [{ name: 'src', path: 'src' }],
          },
          { name: 'other', files: { 'x.ts': 'x\n' }, components: [{ name: 'x', path: '.' }] },
        ],
      },
    ],
    relationships: [
      {
        id: 'calls',
        from: { project: 'p', repo: 'other', component: 'x' },
        to: { project: 'p', repo: 'r', component: 'src' },
        type: 'calls',
      },
    ],
  });
  root = ws.repoDirs['p/r']!;
  // Ignored or untracked content the snapshot must not pick up.
  writeFileSync(join(root, 'debug.log'), 'ignored\n');
  writeFileSync(join(root, 'src', 'wip.ts'), 'export const wip = true;\n');
  writeFileSync(join(root, '.gitignore'), 'secret/\n*.log\n!keep.log\n');
  git(root, ['add', '.gitignore']);
  catalog = new Catalog(readManifestFile(ws.manifestPath));
});
afterAll(() => removeTempDir(tmp));

const counter = loadTokenCounter();
const paths = (s: { files: Array<{ path: string }> }) => s.files.map((f) => f.path);

describe('context repomix', () => {
  it('bugfix-local: uncommitted first, source and tests, .gitignore and dependency folders honoured', async () => {
    const s = await buildSnapshot(catalog, counter, { profile: 'bugfix-local', project: 'p', repo: 'r' });
    expect(paths(s)[0]).toBe('src/wip.ts');
    expect(s.files[0]!.reason).toBe('uncommitted change');
    expect(paths(s)).toEqual(
      expect.arrayContaining([
        'src/index.ts',
        'src/util.ts',
        'src/util.test.ts',
        'package.json',
        'README.md',
      ]),
    );
    for (const p of [
      'debug.log',
      'package-lock.json',
      'node_modules/dep/index.js',
      'dist/out.js',
      'docs/guide.md',
      'img.bin',
    ])
      expect(paths(s)).not.toContain(p);
    expect(s.total_tokens).toBe((await counter).count(s.text));
    expect(s.text).toContain('## src/index.ts');
  });

  it('config-edit picks configuration, cross-repo-impact contracts and crossing relationships', async () => {
    const config = await buildSnapshot(catalog, counter, { profile: 'config-edit', project: 'p', repo: 'r' });
    expect(paths(config)).toEqual(
      expect.arrayContaining(['config/app.yaml', 'package.json', 'api/openapi.yaml']),
    );
    expect(paths(config)).not.toContain('src/index.ts');
    const impact = await buildSnapshot(catalog, counter, {
      profile: 'cross-repo-impact',
      project: 'p',
      repo: 'r',
    });
    expect(paths(impact)[0]).toBe('api/openapi.yaml');
    expect(paths(impact)).toContain('src/index.ts');
    expect(paths(impact)).not.toContain('src/util.ts');
    expect(impact.relationships).toEqual([
      { from: 'component:p/other/x', to: 'component:p/r/src', type: 'calls', origin: 'declared' },
    ]);
  });

  it('keeps the packed text under the ceiling and says what it left out', async () => {
    for (const max of [64, 150, 400, 900]) {
      const s = await buildSnapshot(catalog, counter, {
        profile: 'bugfix-local',
        project: 'p',
        repo: 'r',
        maxTokens: max,
      });
      expect(s.total_tokens).toBeLessThanOrEqual(max);
      expect(s.total_tokens).toBe((await counter).count(s.text));
    }
    const small = await buildSnapshot(catalog, counter, {
      profile: 'bugfix-local',
      project: 'p',
      repo: 'r',
      maxTokens: 200,
    });
    expect(small.omitted).toContainEqual({ path: 'src/util.ts', reason: 'budget' });
    expect(small.omitted_count).toBeGreaterThan(0);
  });

  it('narrows to a component and refuses unknown targets', async () => {
    const s = await buildSnapshot(catalog, counter, {
      profile: 'bugfix-local',
      project: 'p',
      repo: 'r',
      component: 'src',
    });
    expect(paths(s).every((p) => p.startsWith('src/'))).toBe(true);
    expect(s.component).toBe('p/r/src');
    await expect(
      buildSnapshot(catalog, counter, {
        profile: 'bugfix-local',
        project: 'p',
        repo: 'r',
        component: 'nope',
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      buildSnapshot(catalog, counter, { profile: 'bugfix-local', project: 'p', repo: 'zz' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
