import { mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDemo } from '../../examples/demo-workspace.mjs';
import { createTempDir, makeGitRepo, removeTempDir } from '../../test/fixtures/index.js';
import { lineOf, oneRepo, REPO, useValidateWorkspace } from '../../test/fixtures/validate-workspace.js';
import { readManifestFile } from '../model/manifest-file.js';
import { Catalog } from './catalog.js';
import { validateCatalog } from './validate.js';

describe('validateCatalog: components, paths and dependencies', () => {
  const ws = useValidateWorkspace();
  const { run } = ws;

  it('accepts a valid manifest with no problems', () => {
    const text = oneRepo(`            - name: a
              path: a
              depends_on: [b]
            - name: b
              path: ./b/
            - name: root
              path: .
`);
    expect(run(text)).toEqual([]);
  });

  it('reports duplicate component names', () => {
    const text = oneRepo(`            - name: a
              path: a
            - name: a
              path: b
`);
    const problems = run(text);
    expect(problems).toEqual([
      {
        rule: 'duplicate_component',
        path: `${REPO}.components[1].name`,
        line: lineOf(text, '- name: a', 2),
        column: expect.any(Number),
        message: expect.stringContaining("duplicate component name 'a' in p/r"),
      },
    ]);
    expect(problems[0]!.message).toContain(`${REPO}.components[0]`);
  });

  it('reports duplicate normalized paths (svc and ./svc/)', () => {
    const text = oneRepo(`            - name: one
              path: svc
            - name: two
              path: ./svc/
            - name: three
              path: svc//.
`);
    const problems = run(text);
    expect(problems.map((p) => [p.rule, p.path, p.line])).toEqual([
      ['duplicate_path', `${REPO}.components[1].path`, lineOf(text, 'path: ./svc/')],
      ['duplicate_path', `${REPO}.components[2].path`, lineOf(text, 'path: svc//.')],
    ]);
    expect(problems[0]!.message).toBe("component path './svc/' normalizes to 'svc', already used by 'one'");
  });

  it('reports a path escaping the repo root lexically (even without filesystem checks)', () => {
    const text = oneRepo(`            - name: up
              path: ../x
            - name: deep
              path: a/../../y
            - name: abs
              path: /etc
`);
    for (const filesystem of [true, false]) {
      const problems = run(text, { filesystem });
      expect(problems.map((p) => [p.rule, p.path, p.line])).toEqual([
        ['path_escapes', `${REPO}.components[0].path`, lineOf(text, 'path: ../x')],
        ['path_escapes', `${REPO}.components[1].path`, lineOf(text, 'path: a/../../y')],
        ['path_escapes', `${REPO}.components[2].path`, lineOf(text, 'path: /etc')],
      ]);
      expect(problems[0]!.message).toContain("'../x' escapes the root of p/r");
    }
  });

  it('reports a path escaping through a symlink with filesystem:true only', () => {
    mkdirSync(join(ws.outside, 'target'), { recursive: true });
    symlinkSync(join(ws.outside, 'target'), join(ws.root, 'p/r/link'));
    // A symlink that stays inside the repo is fine.
    symlinkSync(join(ws.root, 'p/r/a'), join(ws.root, 'p/r/alias'));
    const text = oneRepo(`            - name: linked
              path: link
            - name: aliased
              path: alias
`);
    const problems = run(text, { filesystem: true });
    expect(problems.map((p) => [p.rule, p.path, p.line])).toEqual([
      ['path_escapes', `${REPO}.components[0].path`, lineOf(text, 'path: link')],
    ]);
    expect(problems[0]!.message).toContain('through a symlink');
    expect(problems[0]!.message).toContain(join(ws.outside, 'target'));
    expect(run(text, { filesystem: false })).toEqual([]);
  });

  it('judges nested paths segment by segment: a symlinked parent leaving the repo, one staying, a file on the way', () => {
    mkdirSync(join(ws.outside, 'target/deep'), { recursive: true });
    mkdirSync(join(ws.root, 'p/r/a/inner/deeper'), { recursive: true });
    // The parent of the component is the symlink; the component directory itself is plain.
    symlinkSync(join(ws.outside, 'target'), join(ws.root, 'p/r/out'));
    symlinkSync(join(ws.root, 'p/r/a'), join(ws.root, 'p/r/in'));
    // A symlink below a plain directory that points outside, and one to a file.
    symlinkSync(ws.outside, join(ws.root, 'p/r/a/inner/away'));
    symlinkSync(join(ws.root, 'p/r/file.txt'), join(ws.root, 'p/r/a/filelink'));
    const text = oneRepo(`            - name: out-deep
              path: out/deep
            - name: in-deep
              path: in/inner/deeper
            - name: plain-deep
              path: a/inner/deeper
            - name: away
              path: a/inner/away/target
            - name: through-file
              path: file.txt/x
            - name: file-link
              path: a/filelink
            - name: plain-shared
              path: a/inner
`);
    const problems = run(text, { filesystem: true });
    expect(problems.map((p) => [p.rule, p.path])).toEqual([
      ['path_escapes', `${REPO}.components[0].path`],
      ['path_escapes', `${REPO}.components[3].path`],
      ['missing_directory', `${REPO}.components[4].path`],
      ['missing_directory', `${REPO}.components[5].path`],
    ]);
    expect(problems[0]!.message).toContain(join(ws.outside, 'target/deep'));
    expect(problems[1]!.message).toContain(join(ws.outside, 'target'));
    expect(problems[2]!.message).toContain("component directory 'file.txt/x' does not exist in p/r");
    expect(problems[3]!.message).toContain("component path 'a/filelink' in p/r is not a directory");
  });

  it('reports unknown depends_on names at the list item', () => {
    const text = oneRepo(`            - name: a
              path: a
              depends_on:
                - b
                - ghost
            - name: b
              path: b
              depends_on: [other-repo-comp]
`);
    const problems = run(text);
    expect(problems.map((p) => [p.rule, p.path, p.line])).toEqual([
      ['unknown_dependency', `${REPO}.components[0].depends_on[1]`, lineOf(text, '- ghost')],
      ['unknown_dependency', `${REPO}.components[1].depends_on[0]`, lineOf(text, '[other-repo-comp]')],
    ]);
    expect(problems[0]!.message).toBe(
      "component 'a' depends on unknown component 'ghost' (same-repo names only)",
    );
  });

  it('does not resolve depends_on across repos', () => {
    makeGitRepo(join(ws.root, 'p/s'), { 'x/README.md': '\n' });
    const text = `workspace:
  projects:
    - name: p
      repos:
        - name: r
          path: ./p/r
          components:
            - { name: a, path: a, depends_on: [x] }
        - name: s
          path: ./p/s
          components:
            - { name: x, path: x }
`;
    expect(run(text).map((p) => [p.rule, p.path])).toEqual([
      ['unknown_dependency', `${REPO}.components[0].depends_on[0]`],
    ]);
  });

  it('reports a same-repo cycle once and prints it', () => {
    const text = oneRepo(`            - name: a
              path: a
              depends_on: [b]
            - name: b
              path: b
              depends_on: [a]
`);
    const problems = run(text);
    expect(problems).toEqual([
      {
        rule: 'dependency_cycle',
        path: `${REPO}.components[0].depends_on`,
        line: lineOf(text, 'depends_on: [b]'),
        column: expect.any(Number),
        message: 'dependency cycle in p/r: a -> b -> a',
      },
    ]);
  });

  it('reports longer cycles and self-dependencies', () => {
    const text = oneRepo(`            - name: a
              path: a
              depends_on: [b]
            - name: b
              path: b
              depends_on: [c]
            - name: c
              path: c
              depends_on: [a]
            - name: svc
              path: svc
              depends_on: [svc]
`);
    const problems = run(text);
    expect(problems.map((p) => [p.rule, p.path, p.line, p.message])).toEqual([
      [
        'dependency_cycle',
        `${REPO}.components[0].depends_on`,
        lineOf(text, 'depends_on: [b]'),
        'dependency cycle in p/r: a -> b -> c -> a',
      ],
      [
        'dependency_cycle',
        `${REPO}.components[3].depends_on`,
        lineOf(text, 'depends_on: [svc]'),
        'dependency cycle in p/r: svc -> svc',
      ],
    ]);
  });

  it('reports a missing component directory when the checkout exists', () => {
    const text = oneRepo(`            - name: gone
              path: not/there
            - name: file
              path: file.txt
            - name: ok
              path: a
`);
    const problems = run(text);
    expect(problems.map((p) => [p.rule, p.path, p.line])).toEqual([
      ['missing_directory', `${REPO}.components[0].path`, lineOf(text, 'path: not/there')],
      ['missing_directory', `${REPO}.components[1].path`, lineOf(text, 'path: file.txt')],
    ]);
    expect(problems[0]!.message).toContain("component directory 'not/there' does not exist in p/r");
    expect(problems[1]!.message).toContain('is not a directory');
    // Without filesystem checks nothing is reported.
    expect(run(text, { filesystem: false })).toEqual([]);
  });

  it('does not report missing directories of an uncloned (url-only) repo', () => {
    const text = `workspace:
  projects:
    - name: p
      repos:
        - name: remote
          url: https://example.com/remote.git
          components:
            - name: api
              path: services/api
        - name: missing-checkout
          path: ./p/not-cloned
          components:
            - name: web
              path: apps/web
`;
    expect(run(text)).toEqual([]);
  });

  it('does report missing directories of a url repo once it is checked out at <project>/<name>', () => {
    makeGitRepo(join(ws.root, 'p/remote'), { 'services/api/go.mod': '\n' });
    const text = `workspace:
  projects:
    - name: p
      repos:
        - name: remote
          url: https://example.com/remote.git
          components:
            - name: api
              path: services/api
            - name: web
              path: apps/web
`;
    expect(run(text).map((p) => [p.rule, p.path, p.line])).toEqual([
      [
        'missing_directory',
        'workspace.projects[0].repos[0].components[1].path',
        lineOf(text, 'path: apps/web'),
      ],
    ]);
  });
});

describe('validateCatalog on the demo workspace', () => {
  it('finds no problems (the url-only repo is skipped by the directory check)', () => {
    const tmp = createTempDir('hub-validate-demo-');
    try {
      const demo = createDemo(join(tmp, 'demo'));
      const catalog = new Catalog(readManifestFile(demo.manifestPath));
      expect(
        validateCatalog(catalog, { filesystem: true, reservedNames: ['worktrees', 'campaigns'] }),
      ).toEqual([]);
      // Removing a catalogued directory is then reported with its line.
      rmSync(join(demo.root, 'platform/gateway/helm/gateway'), { recursive: true });
      const text = readFileSync(demo.manifestPath, 'utf8');
      const problems = validateCatalog(new Catalog(readManifestFile(demo.manifestPath)), {
        filesystem: true,
      });
      expect(problems.map((p) => [p.rule, p.path, p.line])).toEqual([
        [
          'missing_directory',
          'workspace.projects[0].repos[1].components[1].path',
          lineOf(text, 'path: helm/gateway'),
        ],
      ]);
    } finally {
      removeTempDir(tmp);
    }
  });
});
