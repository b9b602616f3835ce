import { describe, expect, it } from 'vitest';
import { matchKey } from './declarations.js';
import { parseCargo } from './parse-cargo.js';
import { parseGoMod, parseGoWork } from './parse-go.js';
import { parseGradleBuild, parseGradleSettings, parseVersionCatalog } from './parse-gradle.js';
import { parseChart, parseGitmodules } from './parse-helm-git.js';
import { parsePom } from './parse-maven.js';
import { parseNpm } from './parse-npm.js';
import { parsePyproject, parseRequirements } from './parse-python.js';
import { providerOf, resolveSubmoduleUrl, urlKey } from './url-key.js';

const names = (list: Array<{ name: string }>) => list.map((d) => d.name);

describe('package file parsers', () => {
  it('npm: name, the four dependency sections with lines, workspaces', () => {
    const text = `{
  "name": "@acme/web",
  "workspaces": ["packages/*"],
  "dependencies": {
    "@acme/core": "^1.0.0",
    "react": "^18"
  },
  "devDependencies": { "@acme/lint-config": "1.0.0" }
}
`;
    const d = parseNpm(text, 'package.json');
    expect(d.provides).toEqual([{ ecosystem: 'npm', name: '@acme/web', file: 'package.json', line: 2 }]);
    expect(d.requires.map((r) => [r.name, r.scope, r.line])).toEqual([
      ['@acme/core', 'dependencies', 5],
      ['react', 'dependencies', 6],
      ['@acme/lint-config', 'devDependencies', 8],
    ]);
    expect(d.more).toEqual(['packages/*']);
  });

  it('go: module, single and block requires with their lines, comments ignored; go.work members', () => {
    const text = `module github.com/acme/api

go 1.22

require github.com/acme/core v1.2.0 // indirect

require (
\tgithub.com/acme/auth v0.3.0
\t// github.com/acme/old v1
\tgolang.org/x/net v0.20.0
)
`;
    const d = parseGoMod(text, 'go.mod');
    expect(d.provides[0]).toMatchObject({ name: 'github.com/acme/api', line: 1 });
    expect(d.requires.map((r) => [r.name, r.line])).toEqual([
      ['github.com/acme/core', 5],
      ['github.com/acme/auth', 8],
      ['golang.org/x/net', 10],
    ]);
    expect(parseGoWork('go 1.22\n\nuse (\n\t./api\n\t./worker\n)\nuse ./tools\n').more).toEqual([
      './api',
      './worker',
      './tools',
    ]);
  });

  it('python: PEP 621, optional deps, dependency groups, Poetry; names compare by PEP 503', () => {
    const text = `[project]
name = "Acme_Billing"
dependencies = ["acme-core>=1.0", "requests[socks] ; python_version>'3.8'"]

[project.optional-dependencies]
cli = ["acme.cli==2"]

[dependency-groups]
test = ["pytest"]

[tool.poetry.group.dev.dependencies]
acme-lint = "^1"
`;
    const d = parsePyproject(text, 'pyproject.toml');
    expect(d.provides[0]).toMatchObject({ name: 'Acme_Billing', line: 2 });
    expect(names(d.requires)).toEqual(['acme-core', 'requests', 'acme.cli', 'pytest', 'acme-lint']);
    expect(d.requires.find((r) => r.name === 'acme-lint')?.line).toBe(12);
    expect(matchKey('python', 'Acme_Billing')).toBe(matchKey('python', 'acme-billing'));
    expect(matchKey('python', 'acme.cli')).toBe(matchKey('python', 'ACME-CLI'));
    const poetry = parsePyproject(
      '[tool.poetry]\nname = "svc"\n[tool.poetry.dependencies]\npython = "^3.11"\nacme-core = { path = "../core" }\n',
      'pyproject.toml',
    );
    expect(poetry.provides[0]?.name).toBe('svc');
    expect(names(poetry.requires)).toEqual(['acme-core']);
  });

  it('requirements.txt: names with lines; options, comments and bare URLs skipped', () => {
    const text =
      '# pinned\nacme-core==1.0  # ours\n-r base.txt\n-e ../lib\ngit+https://x/y.git\nacme-auth @ https://x/a.whl\n';
    expect(parseRequirements(text, 'requirements.txt').requires.map((r) => [r.name, r.line])).toEqual([
      ['acme-core', 2],
      ['acme-auth', 6],
    ]);
  });

  it('cargo: package, dependency tables (renames, targets, workspace) and members', () => {
    const text = `[package]
name = "acme_api"

[dependencies]
serde = "1"
core = { package = "acme-core", path = "../core" }

[target.'cfg(unix)'.dev-dependencies]
acme-test = "0.1"

[workspace]
members = ["crates/*"]
[workspace.dependencies]
acme-auth = "1"
`;
    const d = parseCargo(text, 'Cargo.toml');
    expect(d.provides[0]).toMatchObject({ name: 'acme_api', line: 2 });
    expect(d.requires.map((r) => [r.name, r.line])).toEqual([
      ['serde', 5],
      ['acme-core', 6],
      ['acme-test', 9],
      ['acme-auth', 14],
    ]);
    expect(matchKey('cargo', 'acme_api')).toBe(matchKey('cargo', 'acme-api'));
    expect(d.more).toEqual(['crates/*']);
  });

  it('maven: coordinates with the inherited group, parent, dependencies, properties, modules', () => {
    const text = `<?xml version="1.0"?>
<!DOCTYPE project [<!ENTITY x "boom">]>
<project>
  <parent>
    <groupId>com.acme</groupId>
    <artifactId>acme-parent</artifactId>
  </parent>
  <artifactId>orders</artifactId>
  <properties><core.group>com.acme.core</core.group></properties>
  <modules><module>orders-api</module></modules>
  <dependencies>
    <dependency>
      <groupId>\${core.group}</groupId>
      <artifactId>core</artifactId>
    </dependency>
    <dependency>
      <groupId>\${project.groupId}</groupId>
      <artifactId>auth</artifactId>
    </dependency>
    <dependency>
      <groupId>\${unknown}</groupId>
      <artifactId>skipped</artifactId>
    </dependency>
  </dependencies>
</project>
`;
    const d = parsePom(text, 'pom.xml');
    expect(d.provides[0]).toMatchObject({ name: 'com.acme:orders', line: 8 });
    expect(d.requires.map((r) => [r.name, r.scope, r.line])).toEqual([
      ['com.acme:acme-parent', 'parent', 6],
      ['com.acme.core:core', 'dependencies', 14],
      ['com.acme:auth', 'dependencies', 18],
    ]);
    expect(d.more).toEqual(['orders-api']);
  });

  it('gradle: string and map notations, group plus rootProject.name, includes, version catalogs', () => {
    const build = `plugins { id 'java-library' }
group = 'com.acme'
repositories { maven { url "https://repo.example.com/maven" } }
dependencies {
    implementation 'com.acme:core:1.0'
    api("com.acme:auth:2.0")
    testImplementation group: 'com.acme', name: 'testkit', version: '1'
    implementation platform("com.acme:bom:1")
}
`;
    const d = parseGradleBuild(build, 'build.gradle', {
      dirName: 'payments',
      readSibling: (n) =>
        n === 'settings.gradle' ? "rootProject.name = 'acme-payments'\ninclude ':api', 'impl'\n" : undefined,
    });
    expect(d.provides.map((p) => [p.name, p.line])).toEqual([['com.acme:acme-payments', 2]]);
    expect(d.requires.map((r) => [r.name, r.line])).toEqual([
      ['com.acme:core', 5],
      ['com.acme:auth', 6],
      ['com.acme:bom', 8],
      ['com.acme:testkit', 7],
    ]);
    const noSettings = parseGradleBuild("group 'com.acme'\n", 'build.gradle', {
      dirName: 'ledger',
      readSibling: () => undefined,
    });
    expect(noSettings.provides[0]?.name).toBe('com.acme:ledger');
    expect(parseGradleSettings("include ':api', 'impl:web'\n").more).toEqual(['api', 'impl/web']);
    const catalog = parseVersionCatalog(
      '[libraries]\ncore = "com.acme:core:1.0"\nauth = { module = "com.acme:auth", version = "1" }\nkit = { group = "com.acme", name = "kit" }\n',
      'gradle/libs.versions.toml',
    );
    expect(catalog.requires.map((r) => [r.name, r.line])).toEqual([
      ['com.acme:core', 2],
      ['com.acme:auth', 3],
      ['com.acme:kit', 4],
    ]);
  });

  it('helm: chart name and dependencies with their repository', () => {
    const text = `apiVersion: v2
name: shop
version: 0.1.0
dependencies:
  - name: acme-common
    version: 1.x
    repository: file://../common
  - name: postgresql
    repository: https://charts.example.com
`;
    const d = parseChart(text, 'Chart.yaml');
    expect(d.provides[0]).toMatchObject({ name: 'shop', line: 2 });
    expect(d.requires.map((r) => [r.name, r.line, r.scope])).toEqual([
      ['acme-common', 5, 'dependencies (file://../common)'],
      ['postgresql', 8, 'dependencies (https://charts.example.com)'],
    ]);
  });

  it('git submodules: absolute and relative urls, matched by url key', () => {
    const text = `[submodule "vendor/core"]
\tpath = vendor/core
\turl = git@github.com:Acme/core.git
[submodule "lib"]
\tpath = lib
\turl = ../lib.git
`;
    const d = parseGitmodules(text, '.gitmodules', { repoUrl: 'https://github.com/acme/app.git' });
    expect(d.requires.map((r) => [r.name, r.line, r.scope])).toEqual([
      ['github.com/acme/core', 3, 'submodule vendor/core'],
      ['github.com/acme/lib', 6, 'submodule lib'],
    ]);
    expect(parseGitmodules(text, '.gitmodules', {}).requires).toHaveLength(1);
  });

  it('url keys: one key for every spelling of a clone url; providers', () => {
    const key = 'github.com/acme/core';
    for (const u of [
      'https://github.com/acme/core',
      'https://user:tok@github.com/Acme/core.git/',
      'git@github.com:acme/core.git',
      'ssh://git@github.com:22/acme/core.git',
      'git://github.com/acme/core',
    ])
      expect(urlKey(u), u).toBe(key);
    expect(urlKey('/srv/git/core.git')).toBe('file:/srv/git/core');
    expect(urlKey('file:///srv/git/core')).toBe('file:/srv/git/core');
    expect(providerOf(key)).toBe('github');
    expect(providerOf(urlKey('https://gitlab.example.com/a/b'))).toBe('gitlab');
    expect(providerOf(urlKey('https://dev.azure.com/o/p/_git/r'))).toBe('azure');
    expect(providerOf(undefined)).toBe('local');
    expect(resolveSubmoduleUrl('../x.git', 'git@github.com:acme/app.git')).toBe('git@github.com:acme/x.git');
  });
});
