// resolveComponent on single-repo, application-manifest and nested-repository layouts (multi-repo cases: resolve.test.ts).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BuiltWorkspace,
  buildWorkspace,
  createTempDir,
  makeGitRepo,
  removeTempDir,
  thrown,
  writeManifest,
} from '../../test/fixtures/index.js';
import { ValidationError } from '../infra/index.js';
import { parseManifestText, readManifestFile } from '../model/manifest-file.js';
import { Catalog } from './catalog.js';
import { resolveComponent } from './resolve.js';

describe('resolveComponent on a single-repo workspace', () => {
  let ws: BuiltWorkspace;
  let catalog: Catalog;
  beforeAll(() => {
    ws = buildWorkspace({
      projects: [
        {
          name: 'solo',
          repos: [
            {
              name: 'app',
              files: { 'svc/x/package.json': '{}\n' },
              components: [
                { name: 'svc', path: 'svc' },
                { name: 'x', path: 'svc/x' },
              ],
            },
          ],
        },
      ],
    });
    catalog = new Catalog(readManifestFile(ws.manifestPath));
  });
  afterAll(() => removeTempDir(ws.root));

  it('reads a relative path as repo-relative without filters', () => {
    const r = resolveComponent(catalog, { path: 'svc/x/index.ts', base: ws.root });
    expect(r).toMatchObject({ mode: 'repo_relative', repository: 'solo/app', id: 'solo/app/x' });
  });

  it('rejects an escaping relative path', () => {
    const err = thrown(() => resolveComponent(catalog, { path: '../other', base: ws.root }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.details?.rule).toBe('cross_repo');
  });

  it('still maps absolute paths through the filesystem', () => {
    const r = resolveComponent(catalog, { path: join(ws.repoDirs['solo/app']!, 'svc/y'), base: '/' });
    expect(r).toMatchObject({ mode: 'filesystem', id: 'solo/app/svc' });
  });

  it('normalizes svc//x and ./svc/', () => {
    expect(resolveComponent(catalog, { path: 'svc//x', base: ws.root }).id).toBe('solo/app/x');
    expect(resolveComponent(catalog, { path: './svc/', base: ws.root }).id).toBe('solo/app/svc');
  });
});

describe('resolveComponent on an application manifest', () => {
  let root: string;
  let catalog: Catalog;
  const APP = `# Application manifest: project and repo are the manifest name.
kind: application
name: checkout
paths:
  - path: web # name defaults to the basename
    kind: application
  - path: ./worker/
    name: payment-worker
    kind: worker
components:
  - name: api
    path: api
    kind: service
  - name: shared
    path: libs/shared
    kind: library
  - name: api-v2
    path: api/v2
  # ref-only: not catalog members
  - name: identity
    ref: platform/identity
  - name: ui-kit
    ref: storefront/web/ui
`;

  beforeAll(() => {
    root = createTempDir('hub-app-');
    makeGitRepo(root, {
      'web/src/main.ts': 'export {};\n',
      'worker/main.py': '\n',
      'api/go.mod': 'module api\n',
      'api/v2/handler.go': 'package v2\n',
      'libs/shared/index.ts': 'export {};\n',
    });
    const manifestPath = writeManifest(root, APP);
    catalog = new Catalog(parseManifestText(APP, manifestPath));
  });
  afterAll(() => removeTempDir(root));

  it('catalogs paths[] and local components[] with project = repo = name', () => {
    expect(catalog.isApplication).toBe(true);
    expect(catalog.repos.map((r) => r.id)).toEqual(['checkout/checkout']);
    expect(catalog.repos[0]!.root).toBe(root);
    expect(catalog.components.map((c) => c.id)).toEqual([
      'checkout/checkout/web',
      'checkout/checkout/payment-worker',
      'checkout/checkout/api',
      'checkout/checkout/shared',
      'checkout/checkout/api-v2',
    ]);
    expect(catalog.componentById.get('checkout/checkout/payment-worker')?.path).toBe('worker');
    expect(catalog.componentById.get('checkout/checkout/web')?.yamlPath).toEqual(['paths', 0]);
    expect(catalog.componentById.get('checkout/checkout/api')?.yamlPath).toEqual(['components', 0]);
  });

  it('does not catalog ref-only components', () => {
    expect(catalog.componentById.has('checkout/checkout/identity')).toBe(false);
    expect(catalog.componentById.has('checkout/checkout/ui-kit')).toBe(false);
    expect(catalog.componentsByName.has('identity')).toBe(false);
  });

  it('resolves repo-relative paths (one repo) and absolute paths', () => {
    expect(resolveComponent(catalog, { path: 'web/src/main.ts', base: '/' })).toMatchObject({
      matched: true,
      mode: 'repo_relative',
      repository: 'checkout/checkout',
      id: 'checkout/checkout/web',
    });
    expect(resolveComponent(catalog, { path: join(root, 'worker/main.py'), base: '/' })).toMatchObject({
      mode: 'filesystem',
      id: 'checkout/checkout/payment-worker',
    });
    expect(resolveComponent(catalog, { path: 'libs/shared', base: root }).id).toBe(
      'checkout/checkout/shared',
    );
  });

  it('picks the nested component', () => {
    expect(resolveComponent(catalog, { path: 'api/v2/handler.go', base: root }).id).toBe(
      'checkout/checkout/api-v2',
    );
    expect(resolveComponent(catalog, { path: 'api/go.mod', base: root }).id).toBe('checkout/checkout/api');
  });

  it('accepts project/repo equal to the manifest name', () => {
    const r = resolveComponent(catalog, { path: 'web', base: root, project: 'checkout', repo: 'checkout' });
    expect(r.id).toBe('checkout/checkout/web');
  });

  it('misses an uncatalogued path', () => {
    expect(resolveComponent(catalog, { path: 'docs/x.md', base: root }).matched).toBe(false);
  });
});

describe('resolveComponent with nested repositories', () => {
  let root: string;
  let catalog: Catalog;
  beforeAll(() => {
    root = createTempDir('hub-nested-');
    makeGitRepo(join(root, 'outer'), { 'src/a.ts': '\n' });
    mkdirSync(join(root, 'outer/vendor'), { recursive: true });
    makeGitRepo(join(root, 'outer/vendor/inner'), { 'lib/b.ts': '\n' });
    const text = `workspace:
  projects:
    - name: p
      repos:
        - name: outer
          path: ./outer
          components:
            - { name: outer-root, path: . }
        - name: inner
          path: ./outer/vendor/inner
          components:
            - { name: lib, path: lib }
`;
    catalog = new Catalog(parseManifestText(text, writeManifest(root, text)));
  });
  afterAll(() => removeTempDir(root));

  it('maps a path to the most specific checkout', () => {
    const r = resolveComponent(catalog, { path: join(root, 'outer/vendor/inner/lib/b.ts'), base: root });
    expect(r).toMatchObject({ repository: 'p/inner', id: 'p/inner/lib', relative_path: 'lib/b.ts' });
    expect(resolveComponent(catalog, { path: join(root, 'outer/src/a.ts'), base: root }).id).toBe(
      'p/outer/outer-root',
    );
  });
});
