import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { ManifestCache, repoListThawCount } from '../model/manifest-cache.js';
import type { ManifestFile } from '../model/manifest-file.js';
import type { Manifest } from '../model/manifest-schema.js';
import { Catalog } from './catalog.js';
import { resolveComponent } from './resolve.js';

const comps = (...paths: string[]) => paths.map((path, i) => ({ name: `c${i}`, path }));

/** Layouts where the owner is not simply "the one repo whose path prefixes the file". */
const MANIFEST = {
  version: 1,
  workspace: {
    name: 'ws',
    projects: [
      {
        name: 'p1',
        repos: [
          { name: 'outer', path: 'code', components: comps('.', 'svc') },
          { name: 'u', url: 'https://example.com/u.git', components: comps('lib') },
          { name: 'odd', path: './x/../weird/', components: comps('src') },
          { name: 'up', path: '../sibling', components: comps('.') },
        ],
      },
      // A derived working set sharing p1/outer's checkout: the first declared keeps the path.
      { name: 'p2', repos: [{ name: 'outer-wip', path: 'code', components: comps('svc') }] },
      // Nested in another project's checkout: the deeper repo wins.
      { name: 'p3', repos: [{ name: 'inner', path: 'code/inner', components: comps('.', 'pkg') }] },
      // The same repository listed in two projects, after them; and one repo of its own.
      {
        name: 'p4',
        repos: [
          { name: 'inner', path: 'code/inner', components: comps('pkg') },
          { name: 'other', path: 'other', components: comps('a/b') },
        ],
      },
      { name: 'p5', repos: [{ name: 'codex', path: 'codex', components: comps('.') }] },
      // Shares the checkout of an earlier project through a path that is not plain.
      { name: 'p6', repos: [{ name: 'other-again', path: 'other/.', components: comps('a') }] },
    ],
  },
} as Manifest;

let dir: string;
let manifestPath: string;
beforeEach(() => {
  dir = createTempDir('hub-resolve-cached-');
  manifestPath = join(dir, 'ws', '.hub.yml');
  writeFileSync(join(dir, 'stand-in'), '');
});
afterEach(() => removeTempDir(dir));

function fileOf(manifest: Manifest): ManifestFile {
  return { path: manifestPath, root: join(dir, 'ws'), manifest, legacy: [] };
}

/** A catalog over the manifest as a warm cache gives it back (projects' repo lists thawed on first use). */
function cachedCatalog(): Catalog {
  const cache = new ManifestCache(join(dir, 'cache'), 'b1', () => Date.now() + 60_000);
  const st = statSync(join(dir, 'stand-in'));
  cache.set(manifestPath, st, 'h1', MANIFEST, []);
  const hit = cache.get(manifestPath, st, () => 'h1');
  expect(hit).toBeDefined();
  return new Catalog(fileOf(hit!.manifest));
}

const ws = (rel: string) => join(dir, 'ws', rel);

describe('path-only resolve on a cached multi-project manifest', () => {
  // [path, how many projects' repo lists the cached catalog may parse]
  const cases: Array<[() => string, number]> = [
    [() => ws('other/a/b/c.go'), 1],
    [() => ws('code/svc/main.go'), 1],
    [() => ws('code/inner/pkg/x.go'), 1],
    [() => ws('code/inner'), 1],
    [() => ws('codex/y'), 1],
    [() => ws('p1/u/lib/z'), 1],
    [() => ws('weird/src/a'), 1],
    [() => join(dir, 'sibling', 'f'), 1],
    [() => ws('nowhere/file'), 0],
    [() => '/elsewhere/file', 0],
  ];

  it.each(cases.map(([p, n], i) => [i, p, n] as const))(
    'case %i answers as the uncached catalog and thaws only the owning project',
    (_i, pathOf, thaws) => {
      const path = pathOf();
      const catalog = cachedCatalog();
      const before = repoListThawCount();
      const got = resolveComponent(catalog, { path, base: ws('.') });
      expect(repoListThawCount() - before).toBe(thaws);
      expect(got).toEqual(resolveComponent(new Catalog(fileOf(MANIFEST)), { path, base: ws('.') }));
      if (thaws) expect(got.repository).not.toBeNull();
    },
  );

  it('names the expected owners (deepest checkout, first declared among equals)', () => {
    const owner = (rel: string) => resolveComponent(cachedCatalog(), { path: ws(rel), base: ws('.') }).id;
    expect(owner('code/svc/main.go')).toBe('p1/outer/c1');
    expect(owner('code/inner/pkg/x.go')).toBe('p3/inner/c1');
    expect(owner('other/a/b/x')).toBe('p4/other/c0');
    expect(owner('codex/q')).toBe('p5/codex/c0');
  });

  it('answers as the uncached catalog after other lookups indexed some projects', () => {
    const catalog = cachedCatalog();
    catalog.reposMatching('p4');
    const path = ws('code/inner/pkg/x.go');
    expect(resolveComponent(catalog, { path, base: ws('.') })).toEqual(
      resolveComponent(new Catalog(fileOf(MANIFEST)), { path, base: ws('.') }),
    );
  });

  it('reads a relative path that no checkout holds across every repository, as uncached', () => {
    const path = 'pkg/x.go';
    const base = join(dir, 'elsewhere');
    const uncached = () => resolveComponent(new Catalog(fileOf(MANIFEST)), { path, base });
    expect(() => resolveComponent(cachedCatalog(), { path, base })).toThrow();
    expect(() => uncached()).toThrow();
  });
});
