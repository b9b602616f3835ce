// The line an evidence cites is the line of the table (or group) it names, never the first line that happens to
// hold the same name (issue 26: a crate in two Cargo tables cited the first occurrence for both).
import { describe, expect, it } from 'vitest';
import { parseCargo } from './parse-cargo.js';
import { parseGoMod } from './parse-go.js';
import { parseVersionCatalog } from './parse-gradle.js';
import { parsePyproject } from './parse-python.js';

const cited = (d: { requires: Array<{ name: string; line?: number; scope?: string }> }) =>
  d.requires.map((r) => [r.name, r.scope, r.line]);

describe('cited lines', () => {
  it('cargo: a crate under [target.cfg.dependencies] and [dev-dependencies] cites each table', () => {
    const text = [
      '# serde-like is used by the derive tests below', // 1
      '[package]', // 2
      'name = "app-crate"', // 3
      '', // 4
      '[dependencies]', // 5
      'anyhow = "1"', // 6
      'tokio.workspace = true', // 7
      '', // 8
      "[target.'cfg(any())'.dependencies]", // 9
      'serde-like = { version = "1", path = "../serde" }', // 10
      '', // 11
      '[dev-dependencies]', // 12
      'serde-like = "1"', // 13
      '', // 14
      '[build-dependencies.serde-like]', // 15
      'version = "1"', // 16
      '', // 17
      '[features]', // 18
      'std = ["serde-like/std"]', // 19
      '', // 20
    ].join('\n');
    const d = parseCargo(text, 'Cargo.toml');
    expect(d.provides[0]).toMatchObject({ name: 'app-crate', line: 3 });
    expect(cited(d)).toEqual([
      ['anyhow', 'dependencies', 6],
      ['tokio', 'dependencies', 7],
      ['serde-like', 'dev-dependencies', 13],
      ['serde-like', 'build-dependencies', 15],
      ['serde-like', 'target.cfg(any()).dependencies', 10],
    ]);
  });

  it('cargo: a package name mentioned in a comment first still cites the name key', () => {
    const d = parseCargo('# demo: the demo crate\n[package]\nname = "demo"\n', 'Cargo.toml');
    expect(d.provides[0]?.line).toBe(3);
  });

  it('python: one requirement in two dependency groups cites each group; a comment naming it is skipped', () => {
    const text = [
      '# flasklike: built on werkzeug-like', // 1
      '[project]', // 2
      'name = "flasklike"', // 3
      'dependencies = [', // 4
      '    "werkzeug-like>=3.0",', // 5
      ']', // 6
      '', // 7
      '[project.optional-dependencies]', // 8
      "async = ['werkzeug-like[async]']", // 9
      '', // 10
      '[dependency-groups]', // 11
      'dev = ["pytest", "werkzeug-like"]', // 12
      'tests = [', // 13
      '    "pytest",', // 14
      '    "werkzeug-like",', // 15
      ']', // 16
      '', // 17
      '[tool.poetry.group.docs.dependencies]', // 18
      'werkzeug-like = "^3"', // 19
      '', // 20
    ].join('\n');
    const d = parsePyproject(text, 'pyproject.toml');
    expect(d.provides[0]).toMatchObject({ name: 'flasklike', line: 3 });
    expect(cited(d)).toEqual([
      ['werkzeug-like', 'dependencies', 5],
      ['werkzeug-like', 'optional-dependencies.async', 9],
      ['pytest', 'dependency-groups.dev', 12],
      ['werkzeug-like', 'dependency-groups.dev', 12],
      ['pytest', 'dependency-groups.tests', 14],
      ['werkzeug-like', 'dependency-groups.tests', 15],
      ['werkzeug-like', 'tool.poetry.group.docs.dependencies', 19],
    ]);
  });

  it('gradle version catalog: a library alias that is also a version alias cites the library', () => {
    const text =
      '[versions]\ncore = "1.0"\n\n[libraries]\ncore = { module = "com.acme:core", version.ref = "core" }\n';
    expect(cited(parseVersionCatalog(text, 'gradle/libs.versions.toml'))).toEqual([
      ['com.acme:core', 'libraries', 5],
    ]);
  });

  it('go: requirements marked `// indirect` (as Go reads the mark) say indirect, the others require', () => {
    const text = [
      'module example.com/golib', // 1
      '', // 2
      'require example.com/single v1.0.0 // indirect', // 3
      '', // 4
      'require (', // 5
      '\texample.com/gotool v1.3.0', // 6
      '\texample.com/assets v0.1.0 //indirect', // 7
      '\texample.com/noted v0.1.0 // indirect; kept for a fix', // 8
      '\texample.com/pinned v0.2.0 // pinned, not indirect', // 9
      ')', // 10
    ].join('\n');
    expect(cited(parseGoMod(text, 'go.mod'))).toEqual([
      ['example.com/single', 'indirect', 3],
      ['example.com/gotool', 'require', 6],
      ['example.com/assets', 'indirect', 7],
      ['example.com/noted', 'indirect', 8],
      ['example.com/pinned', 'require', 9],
    ]);
  });
});
