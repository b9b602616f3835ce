import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../examples/demo-workspace.mjs';
import {
  type BuiltWorkspace,
  buildWorkspace,
  createTempDir,
  git,
  removeTempDir,
  writeFiles,
} from '../../test/fixtures/index.js';
import { readManifestFile } from '../model/manifest-file.js';
import { Catalog, type CatalogRepo } from './catalog.js';
import {
  type Candidate,
  detectInRepo,
  HIGH_CONFIDENCE_MARKERS,
  KIND_HINTS,
  kindHint,
  languageOf,
  SKIP_DIRS,
} from './detect.js';

const byPath = (cands: Candidate[]) => Object.fromEntries(cands.map((c) => [c.path, c]));

function repoOf(catalog: Catalog, id: string): CatalogRepo {
  const r = catalog.repoById.get(id);
  if (!r) throw new Error(`no repo ${id}`);
  return r;
}

describe('detectInRepo', () => {
  let ws: BuiltWorkspace;
  let catalog: Catalog;
  let manifestBefore: Buffer;

  beforeAll(() => {
    ws = buildWorkspace({
      projects: [
        {
          name: 'p',
          repos: [
            {
              name: 'mono',
              files: {
                // One marker each.
                'apps/web/package.json': '{"name":"web"}\n',
                'packages/ui/package.json': '{"name":"ui"}\n',
                'services/api/go.mod': 'module api\n',
                'services/py/pyproject.toml': '[project]\nname = "py"\n',
                'libs/core/Cargo.toml': '[package]\nname = "core"\n',
                'internal/auth/pom.xml': '<project/>\n',
                'infra/net/build.gradle': '\n',
                'terraform/modules/vpc/package.json': '{"name":"vpc"}\n',
                'tools/dotnet/App.csproj': '<Project/>\n',
                'misc/thing/go.mod': 'module thing\n',
                // Nested Helm charts.
                'helm/identity/Chart.yaml': 'apiVersion: v2\nname: identity\n',
                'charts/base/Chart.yaml': 'apiVersion: v2\nname: base\n',
                // Chart.yaml elsewhere is not a marker; neither is a chart directly under helm/.
                'ops/x/Chart.yaml': 'apiVersion: v2\n',
                // deploy/<name>/Chart.yaml is a chart too (issue 15).
                'deploy/x/Chart.yaml': 'apiVersion: v2\n',
                'helm/Chart.yaml': 'apiVersion: v2\n',
                // Two markers in one directory.
                'services/mixed/package.json': '{}\n',
                'services/mixed/pyproject.toml': '\n',
                // Nested inside another candidate.
                'services/api/plugins/auth/go.mod': 'module auth\n',
                // Skipped directories.
                'node_modules/left-pad/package.json': '{}\n',
                'apps/web/node_modules/react/package.json': '{}\n',
                'dist/bundle/package.json': '{}\n',
                '.hidden/tool/package.json': '{}\n',
                // Not a marker.
                'docs/readme/README.md': '# docs\n',
                'packages/notes/package.json.bak': '{}\n',
                // A second basename "web" and a second "api".
                'packages/web/package.json': '{"name":"web-pkg"}\n',
                'apps/api/package.json': '{"name":"api-app"}\n',
              },
              components: [
                // Catalogued with a non-normalized path: still recognised.
                { name: 'web-app', path: './apps/web/', kind: 'application' },
                { name: 'api', path: 'services/api', kind: 'service' },
              ],
            },
            { name: 'single', files: { 'package.json': '{"name":"single"}\n', 'src/index.ts': '\n' } },
            {
              name: 'rooted',
              files: { 'go.mod': 'module rooted\n', 'cmd/tool/go.mod': 'module tool\n' },
            },
            { name: 'empty', files: { 'README.md': '# nothing\n' } },
            { name: 'remote', url: 'https://example.com/remote.git' },
          ],
        },
      ],
    });
    // A marker inside .git must never be read as a component.
    const gitDir = join(ws.repoDirs['p/mono']!, '.git');
    mkdirSync(join(gitDir, 'modules/sub'), { recursive: true });
    writeFileSync(join(gitDir, 'modules/sub/package.json'), '{}\n');
    manifestBefore = readFileSync(ws.manifestPath);
    catalog = new Catalog(readManifestFile(ws.manifestPath));
  });
  afterAll(() => removeTempDir(ws.root));

  it('exposes the spec markers, kind hints and skipped dirs', () => {
    expect(HIGH_CONFIDENCE_MARKERS).toEqual(
      expect.arrayContaining([
        'package.json',
        'pyproject.toml',
        'go.mod',
        'Cargo.toml',
        'pom.xml',
        'build.gradle',
      ]),
    );
    expect(KIND_HINTS).toMatchObject({
      apps: 'application',
      packages: 'package',
      services: 'service',
      libs: 'library',
      internal: 'library',
      infra: 'infrastructure',
      terraform: 'infrastructure',
      helm: 'infrastructure',
      charts: 'infrastructure',
    });
    expect(SKIP_DIRS.has('node_modules')).toBe(true);
    expect(SKIP_DIRS.has('.git')).toBe(true);
  });

  it.each([
    ['apps/web', ['package.json']],
    ['packages/ui', ['package.json']],
    ['services/api', ['go.mod']],
    ['services/py', ['pyproject.toml']],
    ['libs/core', ['Cargo.toml']],
    ['internal/auth', ['pom.xml']],
    ['infra/net', ['build.gradle']],
    ['tools/dotnet', ['App.csproj']],
    ['services/mixed', ['package.json', 'pyproject.toml']],
  ])('detects %s by its markers %j', (path, markers) => {
    const c = byPath(detectInRepo(catalog, repoOf(catalog, 'p/mono')))[path];
    expect(c).toBeDefined();
    expect(c!.markers).toEqual(markers);
    expect(c!.confidence).toBe('high');
    expect(c!.project).toBe('p');
    expect(c!.repo).toBe('mono');
  });

  it.each([
    ['apps/web', 'application'],
    ['apps/api', 'application'],
    ['packages/ui', 'package'],
    ['services/api', 'service'],
    ['services/py', 'service'],
    ['libs/core', 'library'],
    ['internal/auth', 'library'],
    ['infra/net', 'infrastructure'],
    ['terraform/modules/vpc', 'infrastructure'],
    ['helm/identity', 'infrastructure'],
    ['charts/base', 'infrastructure'],
    ['deploy/x', 'infrastructure'],
    // No hinting folder: the marker says (a project without an Exe output type is a library).
    ['tools/dotnet', 'library'],
    ['misc/thing', 'unknown'],
    // The closest hinting directory wins: services/api/plugins/auth is under services/.
    ['services/api/plugins/auth', 'service'],
  ])('gives %s the kind %s', (path, kind) => {
    expect(byPath(detectInRepo(catalog, repoOf(catalog, 'p/mono')))[path]?.kind).toBe(kind);
  });

  it('detects nested helm/<name>/Chart.yaml and charts/<name>/Chart.yaml as infrastructure', () => {
    const found = byPath(detectInRepo(catalog, repoOf(catalog, 'p/mono')));
    expect(found['helm/identity']).toMatchObject({
      kind: 'infrastructure',
      markers: ['Chart.yaml'],
      name: 'identity',
    });
    expect(found['charts/base']).toMatchObject({
      kind: 'infrastructure',
      markers: ['Chart.yaml'],
      name: 'base',
    });
  });

  it('ignores Chart.yaml outside helm/<name>, charts/<name> and deploy/<name>', () => {
    const paths = detectInRepo(catalog, repoOf(catalog, 'p/mono')).map((c) => c.path);
    expect(paths).toContain('deploy/x');
    expect(paths).not.toContain('ops/x');
    expect(paths).not.toContain('helm');
  });

  it('skips node_modules, .git, build output and hidden directories', () => {
    const paths = detectInRepo(catalog, repoOf(catalog, 'p/mono')).map((c) => c.path);
    for (const p of paths) {
      expect(p).not.toMatch(/(^|\/)node_modules(\/|$)/);
      expect(p).not.toMatch(/(^|\/)\.git(\/|$)/);
      expect(p).not.toMatch(/^dist\//);
      expect(p).not.toMatch(/^\.hidden/);
    }
    expect(paths).not.toContain('docs/readme');
    expect(paths).not.toContain('packages/notes');
  });

  it('returns exactly the expected candidates, sorted by path', () => {
    const paths = detectInRepo(catalog, repoOf(catalog, 'p/mono')).map((c) => c.path);
    expect(paths).toEqual(
      [
        'apps/api',
        'apps/web',
        'charts/base',
        'deploy/x',
        'helm/identity',
        'infra/net',
        'internal/auth',
        'libs/core',
        'misc/thing',
        'packages/ui',
        'packages/web',
        'services/api',
        'services/api/plugins/auth',
        'services/mixed',
        'services/py',
        'terraform/modules/vpc',
        'tools/dotnet',
      ].sort((a, b) => a.localeCompare(b)),
    );
  });

  it('marks already catalogued paths (normalized) and keeps their catalogued names', () => {
    const found = byPath(detectInRepo(catalog, repoOf(catalog, 'p/mono')));
    expect(found['apps/web']).toMatchObject({ already_catalogued: true, name: 'web-app' });
    expect(found['services/api']).toMatchObject({ already_catalogued: true, name: 'api' });
    expect(found['packages/ui']?.already_catalogued).toBe(false);
    expect(found['services/api/plugins/auth']?.already_catalogued).toBe(false);
  });

  it('names a new candidate by its basename', () => {
    const found = byPath(detectInRepo(catalog, repoOf(catalog, 'p/mono')));
    expect(found['packages/ui']?.name).toBe('ui');
    expect(found['libs/core']?.name).toBe('core');
    // "web" is free: the catalogued apps/web is named web-app.
    expect(found['packages/web']?.name).toBe('web');
  });

  it('gives a dashed-path name when the basename is already taken', () => {
    const found = byPath(detectInRepo(catalog, repoOf(catalog, 'p/mono')));
    // "api" is a catalogued component name, so apps/api cannot be "api".
    expect(found['apps/api']?.name).toBe('apps-api');
    const names = detectInRepo(catalog, repoOf(catalog, 'p/mono')).map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('de-duplicates names between new candidates too', () => {
    const found = byPath(detectInRepo(catalog, repoOf(catalog, 'p/mono')));
    // services/api/plugins/auth ("auth") and internal/auth share a basename.
    const auths = [found['internal/auth']!.name, found['services/api/plugins/auth']!.name].sort();
    expect(auths).toContain('auth');
    expect(auths.some((n) => n === 'internal-auth' || n === 'services-api-plugins-auth')).toBe(true);
  });

  it('offers the repo root when it names a package, first, beside the packages inside', () => {
    const single = detectInRepo(catalog, repoOf(catalog, 'p/single'));
    expect(single).toEqual([
      {
        project: 'p',
        repo: 'single',
        name: 'single',
        path: '.',
        kind: 'library',
        markers: ['package.json'],
        language: 'javascript',
        package: 'single',
        confidence: 'high',
        already_catalogued: false,
      },
    ]);
    const rooted = detectInRepo(catalog, repoOf(catalog, 'p/rooted')).map((c) => c.path);
    expect(rooted).toEqual(['.', 'cmd/tool']);
  });

  it('finds nothing in a repo without markers or without a checkout', () => {
    expect(detectInRepo(catalog, repoOf(catalog, 'p/empty'))).toEqual([]);
    expect(detectInRepo(catalog, repoOf(catalog, 'p/remote'))).toEqual([]);
  });

  it('never writes the manifest nor the repository', () => {
    const mtime = statSync(ws.manifestPath).mtimeMs;
    for (const r of catalog.repos) detectInRepo(catalog, r);
    expect(readFileSync(ws.manifestPath).equals(manifestBefore)).toBe(true);
    expect(statSync(ws.manifestPath).mtimeMs).toBe(mtime);
    expect(git(ws.repoDirs['p/mono']!, ['status', '--porcelain'])).toBe('');
  });

  it('sees files added after the catalog was built (it scans the filesystem each time)', () => {
    const dir = ws.repoDirs['p/empty']!;
    writeFiles(dir, { 'services/late/Cargo.toml': '[package]\n' });
    const found = detectInRepo(catalog, repoOf(catalog, 'p/empty'));
    expect(found.map((c) => [c.path, c.kind, c.name])).toEqual([['services/late', 'service', 'late']]);
  });
});

describe('languageOf', () => {
  it('reads the language from the markers', () => {
    const file = (name: string) => ({ name, isFile: () => true }) as unknown as import('node:fs').Dirent;
    expect(languageOf(['go.mod'], [])).toBe('go');
    expect(languageOf(['package.json'], [file('package.json')])).toBe('javascript');
    expect(languageOf(['package.json'], [file('package.json'), file('tsconfig.json')])).toBe('typescript');
    expect(languageOf(['App.csproj'], [])).toBe('csharp');
    expect(languageOf(['package.json', 'pyproject.toml'], [])).toEqual(['javascript', 'python']);
    expect(languageOf(['Chart.yaml'], [])).toBeUndefined();
  });

  it('gives a Go command under cmd/ the kind application and the language go', () => {
    const ws = buildWorkspace({
      projects: [
        {
          name: 'p',
          repos: [{ name: 'g', files: { 'go.mod': 'module g\n', 'cmd/tool/go.mod': 'module t\n' } }],
        },
      ],
    });
    try {
      const catalog = new Catalog(readManifestFile(ws.manifestPath));
      expect(detectInRepo(catalog, repoOf(catalog, 'p/g'))).toEqual([
        expect.objectContaining({ path: '.', name: 'g', package: 'g', language: 'go' }),
        expect.objectContaining({
          path: 'cmd/tool',
          kind: 'application',
          language: 'go',
          markers: ['go.mod'],
        }),
      ]);
    } finally {
      removeTempDir(ws.root);
    }
  });
});

describe('kindHint', () => {
  it('uses the closest hinting parent directory, never the candidate itself', () => {
    expect(kindHint('apps/web')).toBe('application');
    expect(kindHint('services/api/plugins/auth')).toBe('service');
    expect(kindHint('libs/x/services/y')).toBe('service');
    expect(kindHint('services')).toBeUndefined();
    expect(kindHint('helm')).toBeUndefined();
    expect(kindHint('src/thing')).toBeUndefined();
    expect(kindHint('.')).toBeUndefined();
  });
});

describe('detectInRepo on the demo workspace', () => {
  it('finds the uncatalogued rate-limiter and analytics and marks the catalogued ones', () => {
    const tmp = createTempDir('hub-detect-demo-');
    try {
      const demo = createDemo(join(tmp, 'demo'));
      const before = readFileSync(demo.manifestPath);
      const catalog = new Catalog(readManifestFile(demo.manifestPath));
      const all = catalog.repos.flatMap((r) => detectInRepo(catalog, r));
      const fresh = all.filter((c) => !c.already_catalogued).map((c) => `${c.repo}:${c.path}:${c.kind}`);
      expect(fresh).toEqual(
        expect.arrayContaining(['gateway:services/rate-limiter:service', 'web:packages/analytics:package']),
      );
      const known = all.filter((c) => c.already_catalogued).map((c) => `${c.repo}/${c.name}`);
      expect(known).toEqual(
        expect.arrayContaining(['identity/api', 'identity/auth-plugin', 'identity/identity-chart', 'web/ui']),
      );
      expect(readFileSync(demo.manifestPath).equals(before)).toBe(true);
    } finally {
      removeTempDir(tmp);
    }
  });
});
