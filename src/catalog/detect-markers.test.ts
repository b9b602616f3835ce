// What detect reads inside the markers (issue 26): a root that names a package is a component, a workspace root
// is not; examples, benchmarks, fuzz targets and tests carry their role; kinds come from the markers themselves.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWorkspace, removeTempDir } from '../../test/fixtures/index.js';
import { readManifestFile } from '../model/manifest-file.js';
import { Catalog } from './catalog.js';
import { type Candidate, detectInRepo, roleOf } from './detect.js';

const json = (v: unknown) => `${JSON.stringify(v)}\n`;

const REPOS: Record<string, Record<string, string>> = {
  'npm-workspaces': {
    'package.json': json({ name: 'root', private: true, workspaces: ['packages/*'] }),
    'packages/a/package.json': json({ name: '@w/a', main: 'index.js' }),
  },
  'pnpm-root': {
    'package.json': json({ name: 'pnpm-root', private: true }),
    'pnpm-workspace.yaml': "packages: ['libs/*']\n",
    'libs/a/package.json': json({ name: '@p/a', bin: { a: 'a.js' } }),
  },
  'published-root-with-workspaces': {
    // Not private: the root is itself published, workspaces or not.
    'package.json': json({ name: 'pub', workspaces: ['plugins/*'], exports: './index.js' }),
    'plugins/x/package.json': json({ name: 'pub-x' }),
  },
  'cargo-virtual': {
    'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n',
    'crates/lib/Cargo.toml': '[package]\nname = "lib"\n\n[lib]\n',
    'crates/bin/Cargo.toml': '[package]\nname = "bin"\n',
    'crates/bin/src/main.rs': 'fn main() {}\n',
  },
  'uv-workspace': {
    'pyproject.toml': '[tool.uv.workspace]\nmembers = ["packages/*"]\n',
    'packages/one/pyproject.toml': '[project]\nname = "one"\n',
  },
  'maven-aggregator': {
    'pom.xml':
      '<project><artifactId>parent</artifactId><packaging>pom</packaging><modules><module>web</module></modules></project>\n',
    'web/pom.xml': '<project><artifactId>web</artifactId><packaging>war</packaging></project>\n',
  },
  'gradle-multi': {
    'build.gradle': "plugins { id 'base' }\n",
    'settings.gradle': "include ':app'\n",
    'app/build.gradle': "plugins {\n  id 'application'\n}\n",
  },
  stubs: {
    'package.json': json({ name: 'stubs', main: 'index.js' }),
    'src/esm/package.json': json({ type: 'module' }),
    'src/cjs/package.json': json({ type: 'commonjs' }),
    'app/package.json': json({ private: true, scripts: { start: 'node .' } }),
  },
  'unnamed-root': {
    'package.json': json({ private: true, devDependencies: { lint: '1' } }),
    'site/package.json': json({ name: 'site', private: true }),
  },
  roles: {
    'go.mod': 'module example.com/roles\n',
    'roles.go': 'package roles\n',
    'examples/basic/go.mod': 'module example.com/roles/examples/basic\n',
    'benchmarks/go.mod': 'module example.com/roles/benchmarks\n',
    'fuzz/Cargo.toml': '[package]\nname = "roles-fuzz"\n\n[[bin]]\nname = "t"\n',
    'internal/testdata/mod/go.mod': 'module example.com/fixture\n',
    'tutorials/intro/go.mod': 'module example.com/roles/tutorials/intro\n',
    'exp/go.mod': 'module example.com/roles/exp\n',
  },
  kinds: {
    'Cargo.toml': '[package]\nname = "kinds"\n',
    'src/lib.rs': '\n',
    'tool/Cargo.toml': '[package]\nname = "tool"\n',
    'tool/src/main.rs': 'fn main() {}\n',
    'svc/go.mod': 'module example.com/svc\n',
    'svc/main.go': '// Command svc.\n\n//go:build linux\n\npackage main\n',
    'gocmds/go.mod': 'module example.com/gocmds\n',
    'gocmds/cmd/x/.keep': '',
    'dotnet/App.csproj':
      '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><OutputType>Exe</OutputType></PropertyGroup></Project>\n',
    'dotnet-lib/Lib.csproj': '<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup/></Project>\n',
    'js-cli/package.json': json({ name: 'js-cli', bin: 'cli.js' }),
    'js-app/package.json': json({ name: 'js-app', private: true, dependencies: { react: '18' } }),
    'py/pyproject.toml': '[build-system]\nrequires = ["setuptools"]\n',
    'py/setup.py': 'from setuptools import setup\nsetup()\n',
    'broken/package.json': '{ not json',
  },
  kinds2: {
    // A directory named like the repository: the root keeps the repository's name.
    'package.json': json({ name: '@k/kinds2' }),
    'kinds2/package.json': json({ name: 'inner' }),
  },
};

const ws = buildWorkspace({
  projects: [{ name: 'p', repos: Object.entries(REPOS).map(([name, files]) => ({ name, files })) }],
});
afterAll(() => removeTempDir(ws.root));
const catalog = new Catalog(readManifestFile(ws.manifestPath));
const detect = (repo: string): Candidate[] => detectInRepo(catalog, catalog.repoById.get(`p/${repo}`)!);
const rows = (repo: string) => detect(repo).map((c) => [c.path, c.kind, c.role ?? '-']);

describe('detect: roots', () => {
  it('a private npm or pnpm workspace root is no component; its members are', () => {
    expect(rows('npm-workspaces')).toEqual([['packages/a', 'package', '-']]);
    expect(rows('pnpm-root')).toEqual([['libs/a', 'library', '-']]);
  });

  it('a published root is a component even with workspaces, and comes first', () => {
    expect(rows('published-root-with-workspaces')).toEqual([
      ['.', 'library', '-'],
      ['plugins/x', 'library', '-'],
    ]);
  });

  it('a Cargo virtual manifest, a uv workspace, a Maven aggregator and a Gradle multi-project root are not', () => {
    expect(rows('cargo-virtual')).toEqual([
      ['crates/bin', 'application', '-'],
      ['crates/lib', 'library', '-'],
    ]);
    expect(rows('uv-workspace')).toEqual([['packages/one', 'package', '-']]);
    expect(rows('maven-aggregator')).toEqual([['web', 'application', '-']]);
    expect(rows('gradle-multi')).toEqual([['app', 'application', '-']]);
  });

  it('an unnamed root is a component only when nothing inside is one', () => {
    expect(rows('unnamed-root')).toEqual([['site', 'application', '-']]);
  });

  it('the root keeps the repository name; an inner folder of that name takes its path', () => {
    expect(detect('kinds2').map((c) => [c.path, c.name, c.package])).toEqual([
      ['.', 'kinds2', '@k/kinds2'],
      ['kinds2', 'kinds2-2', 'inner'],
    ]);
  });
});

describe('detect: what is not a package, and roles', () => {
  it('a package.json that declares nothing is no candidate; an unnamed one with scripts is', () => {
    expect(rows('stubs')).toEqual([
      ['.', 'library', '-'],
      ['app', 'application', '-'],
    ]);
  });

  it('examples, benchmarks, fuzz, tutorials and testdata carry their role; exp/ is a real module', () => {
    expect(rows('roles')).toEqual([
      ['.', 'library', '-'],
      ['benchmarks', 'unknown', 'benchmark'],
      ['examples/basic', 'unknown', 'example'],
      ['exp', 'unknown', '-'],
      ['fuzz', 'application', 'fuzz'],
      ['internal/testdata/mod', 'library', 'test'],
      ['tutorials/intro', 'unknown', 'example'],
    ]);
    expect(roleOf('.')).toBeUndefined();
    expect(roleOf('packages/core/__tests__/x')).toBe('test');
    expect(roleOf('Benchmarks')).toBe('benchmark');
  });
});

describe('detect: kinds from the markers', () => {
  it('reads bin, main packages, library and binary crates, output types, plugins and packaging', () => {
    expect(rows('kinds')).toEqual([
      ['.', 'library', '-'],
      ['broken', 'unknown', '-'],
      ['dotnet', 'application', '-'],
      ['dotnet-lib', 'library', '-'],
      ['gocmds', 'application', '-'],
      ['js-app', 'application', '-'],
      ['js-cli', 'cli', '-'],
      ['py', 'library', '-'],
      ['svc', 'application', '-'],
      ['tool', 'application', '-'],
    ]);
  });
});

describe('detect: markers are hostile input', () => {
  it('never follows a symlinked marker or source, never waits on a FIFO, reads at most 1 MiB', () => {
    const hostile = buildWorkspace({
      projects: [
        {
          name: 'h',
          repos: [
            {
              name: 'r',
              files: {
                'go.mod': 'module example.com/r\n',
                'big/package.json': `{"name": "big", "pad": "${'x'.repeat(1024 * 1024)}"}`,
                'crate/Cargo.toml': '[package]\nname = "crate"\n',
              },
            },
          ],
        },
      ],
    });
    try {
      const dir = hostile.repoDirs['h/r']!;
      const secret = join(hostile.root, 'secret.json');
      writeFileSync(secret, '{"name": "leaked", "bin": "x"}');
      mkdirSync(join(dir, 'linked'));
      symlinkSync(secret, join(dir, 'linked', 'package.json'));
      execFileSync('mkfifo', [join(dir, 'main.go')]);
      mkdirSync(join(dir, 'crate', 'src'));
      symlinkSync(join(hostile.root, 'secret.json'), join(dir, 'crate', 'src', 'lib.rs'));
      const c = new Catalog(readManifestFile(hostile.manifestPath));
      const found = detectInRepo(c, c.repoById.get('h/r')!);
      expect(found.map((x) => [x.path, x.kind, x.package ?? '-'])).toEqual([
        // The FIFO main.go is not read (no kind from it); the symlinked lib.rs is no library target.
        ['.', 'unknown', 'example.com/r'],
        // Over 1 MiB: not read, so it names nothing known, but it is a marker.
        ['big', 'unknown', '-'],
        ['crate', 'unknown', 'crate'],
      ]);
    } finally {
      removeTempDir(hostile.root);
    }
  });
});
