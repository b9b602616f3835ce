// Derived working sets on real files and real git checkouts, through the built CLI: the spec's six numbered rules,
// refresh, exclude, the refusals, and a save that keeps every line it does not change.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { diffLines } from 'diff';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTempDir, makeGitRepo, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

const MANIFEST = `# Platform workspace (hand-written: keep the comments)
workspace:
  name: acme
  projects:
    - name: core   # the main project
      repos:
        - name: api
          path: ./core/api      # shared checkout
          description: The API
          tags: {team: backend, tier: 1}
          components:
            - {name: server, path: services/server, kind: service}
            - {name: client, path: packages/client, depends_on: [server]}
            - {name: worker, path: services/worker, depends_on: [server]}
        - name: lib
          path: ./core/lib
          components:
            - {name: util, path: util}
        - name: web
          path: ./core/web
          components:
            - {name: ui, path: ui}
graph:
  relationships:
    # worker needs the lib's util
    - {id: w-util, from: {project: core, repo: api, component: worker}, to: {project: core, repo: lib, component: util}, type: depends_on}
    - {id: util-web, from: {project: core, repo: lib, component: util}, to: {project: core, repo: web}, type: depends_on}
`;

let dir: string;
let ws: string;
let manifest: string;

beforeAll(() => {
  dir = createTempDir('hub-derived-');
  ws = join(dir, 'ws');
  makeGitRepo(join(ws, 'core', 'api'), {
    'services/server/main.go': 'package main\n',
    'services/worker/main.go': 'package main\n',
    'packages/client/package.json': '{}\n',
  });
  makeGitRepo(join(ws, 'core', 'lib'), { 'util/x.go': 'package util\n' });
  makeGitRepo(join(ws, 'core', 'web'), { 'ui/index.ts': 'export {}\n' });
  manifest = join(ws, '.hub.yml');
});
afterAll(() => removeTempDir(dir));
beforeEach(() => writeFileSync(manifest, MANIFEST));

const hub = (args: string[]) => runHub([...args, '--json'], { cwd: ws });

function ok(args: string[]) {
  const r = hub(args);
  expect(r.code, `${args.join(' ')}\n${r.stdout}${r.stderr}`).toBe(0);
  return r.json();
}

/** The derived project as the manifest now holds it. */
function project(name: string) {
  return parse(readFileSync(manifest, 'utf8')).workspace.projects.find(
    (p: { name: string }) => p.name === name,
  );
}
const names = (repo: { components?: Array<{ name: string }> }) => (repo.components ?? []).map((c) => c.name);

describe('project derived create', () => {
  it('rule 1: a two-segment selection copies the whole components list', () => {
    const r = ok(['project', 'derived', 'create', '-n', 'set', '--from', 'core/api']);
    expect(r).toMatchObject({
      project: 'set',
      operation: 'created',
      repos: [{ name: 'api', components: 'all' }],
    });
    const p = project('set');
    expect(p.derived).toEqual({ enabled: true, sources: [{ project: 'core', repos: ['api'] }] });
    expect(p.repos[0]).toMatchObject({
      name: 'api',
      path: './core/api',
      description: 'The API',
      tags: { team: 'backend', tier: 1 },
      derived_from: { project: 'core', repo: 'api' },
    });
    expect(names(p.repos[0])).toEqual(['server', 'client', 'worker']);
    expect(Date.parse(p.repos[0].derived_from.refreshed_at)).not.toBeNaN();
    expect(runHub(['config', 'validate'], { cwd: ws }).code).toBe(0);
  });

  it('rule 2: a three-segment selection copies that one component and records derived.sources[].components', () => {
    ok(['project', 'derived', 'create', '-n', 'set', '--from', 'core/api/client']);
    const p = project('set');
    expect(p.derived.sources).toEqual([{ project: 'core', repos: ['api'], components: { api: ['client'] } }]);
    // client's depends_on names server, which the set does not take: dropped, or the copy would not validate.
    expect(p.repos[0].components).toEqual([{ name: 'client', path: 'packages/client' }]);
    expect(runHub(['config', 'validate'], { cwd: ws }).code).toBe(0);
  });

  it('rule 3: --include-dependencies adds the outbound depends_on neighbours at depth 1', () => {
    const r = ok([
      'project',
      'derived',
      'create',
      '-n',
      'set',
      '--from',
      'core/api/worker',
      '--include-dependencies',
    ]);
    expect(r.repos.map((x: { from: string }) => x.from)).toEqual(['core/api', 'core/lib']);
    const p = project('set');
    expect(p.derived.sources).toEqual([
      { project: 'core', repos: ['api', 'lib'], components: { api: ['worker', 'server'], lib: ['util'] } },
    ]);
    expect(names(p.repos[0])).toEqual(['server', 'worker']);
    expect(p.repos[0].components[1].depends_on).toEqual(['server']);
    // util -> web is depth 2 from worker: not taken.
    expect(p.repos.map((x: { name: string }) => x.name)).toEqual(['api', 'lib']);
  });

  it('keeps every line of the file it does not add', () => {
    ok(['project', 'derived', 'create', '-n', 'set', '--from', 'core/lib']);
    const after = readFileSync(manifest, 'utf8');
    const removed = diffLines(MANIFEST, after).filter((p) => p.removed);
    expect(removed).toEqual([]);
    expect(after.startsWith(MANIFEST.split('graph:')[0]!)).toBe(true);
  });

  it('refuses an existing name, an unknown source and a bad selection, writing nothing', () => {
    const taken = hub(['project', 'derived', 'create', '-n', 'core', '--from', 'core/api']);
    expect(taken.code).toBe(1);
    expect(taken.json().error).toMatchObject({ code: 'refused', details: { rule: 'already_exists' } });
    const ghost = hub(['project', 'derived', 'create', '-n', 'set', '--from', 'core/apii']);
    expect(ghost.json().error.code).toBe('not_found');
    expect(ghost.json().error.details.suggestions).toContain('core/api');
    const comp = hub(['project', 'derived', 'create', '-n', 'set', '--from', 'core/api/nope']);
    expect(comp.json().error).toMatchObject({ code: 'not_found', details: { field: 'component' } });
    const shape = hub(['project', 'derived', 'create', '-n', 'set', '--from', 'core']);
    expect(shape.json().error.details).toMatchObject({ field: 'from', rule: 'selection_shape' });
    const clash = hub(['project', 'derived', 'create', '-n', 'set', '--from', 'core/api', '--repo', 'lib']);
    expect(clash.json().error.details).toMatchObject({ field: 'repo', rule: 'from_conflict' });
    expect(readFileSync(manifest, 'utf8')).toBe(MANIFEST);
  });
});

describe('project derived include', () => {
  it('rule 4: a second component on an already-derived repo merges into both lists', () => {
    ok(['project', 'derived', 'create', '-n', 'set', '--from', 'core/api/client']);
    const r = ok(['project', 'derived', 'include', '-n', 'set', '--from', 'core/api/server']);
    expect(r).toMatchObject({ operation: 'merged', repo: { components: ['client', 'server'] } });
    const p = project('set');
    expect(p.derived.sources[0].components).toEqual({ api: ['client', 'server'] });
    // Source order; client's depends_on on server comes back now that server is taken.
    expect(p.repos[0].components).toEqual([
      { name: 'server', path: 'services/server', kind: 'service' },
      { name: 'client', path: 'packages/client', depends_on: ['server'] },
    ]);
    expect(ok(['project', 'derived', 'include', '-n', 'set', '--from', 'core/api/server']).operation).toBe(
      'noop',
    );
  });

  it('rule 5: a two-segment include on an existing repo widens it to the full source list', () => {
    ok(['project', 'derived', 'create', '-n', 'set', '--from', 'core/api/client']);
    const r = ok(['project', 'derived', 'include', '-n', 'set', '--from', 'core/api']);
    expect(r).toMatchObject({ operation: 'widened', repo: { components: 'all' } });
    const p = project('set');
    expect(p.derived.sources).toEqual([{ project: 'core', repos: ['api'] }]);
    expect(names(p.repos[0])).toEqual(['server', 'client', 'worker']);
    expect(ok(['project', 'derived', 'include', '-n', 'set', '--from', 'core/api/client']).operation).toBe(
      'noop',
    );
  });

  it('adds a new repo, taking the MCP form of the selection (project, repo, component) too', () => {
    ok(['project', 'derived', 'create', '-n', 'set', '--from', 'core/api']);
    const r = ok(['project', 'derived', 'include', '-n', 'set', '--project', 'core', '--repo', 'web']);
    expect(r.operation).toBe('added');
    expect(project('set').derived.sources).toEqual([{ project: 'core', repos: ['api', 'web'] }]);
  });

  it('refuses a project that is not a derived set', () => {
    const r = hub(['project', 'derived', 'include', '-n', 'core', '--from', 'core/web']);
    expect(r.json().error).toMatchObject({ code: 'refused', details: { rule: 'not_derived' } });
  });
});

describe('project derived exclude', () => {
  it('rule 6: allow-lists stay per source repo; splitting a repo out of a multi-repo scope leaves its siblings alone', () => {
    ok(['project', 'derived', 'create', '-n', 'set', '--from', 'core/api']);
    ok(['project', 'derived', 'include', '-n', 'set', '--from', 'core/lib']);
    ok(['project', 'derived', 'include', '-n', 'set', '--from', 'core/web']);
    const before = readFileSync(manifest, 'utf8');
    const r = ok(['project', 'derived', 'exclude', '-n', 'set', '--repo', 'api', '--component', 'worker']);
    expect(r).toMatchObject({ operation: 'removed_component', repo: 'api', component: 'worker' });
    const p = project('set');
    expect(p.derived.sources).toEqual([
      { project: 'core', repos: ['api', 'lib', 'web'], components: { api: ['server', 'client'] } },
    ]);
    expect(names(p.repos[0])).toEqual(['server', 'client']);
    // The siblings' entries are byte-identical: only api's components and the sources changed.
    const after = readFileSync(manifest, 'utf8');
    const siblings = (t: string) => t.slice(t.indexOf('        - name: lib', t.indexOf('derived:')));
    expect(siblings(after)).toBe(siblings(before));
    // Including a component of lib now narrows nothing: lib still takes all of its list.
    expect(ok(['project', 'derived', 'include', '-n', 'set', '--from', 'core/lib/util']).operation).toBe(
      'noop',
    );
  });

  it('removes a repo and its source entry; refuses to empty an allow-list', () => {
    ok(['project', 'derived', 'create', '-n', 'set', '--from', 'core/api/client']);
    const last = hub([
      'project',
      'derived',
      'exclude',
      '-n',
      'set',
      '--repo',
      'api',
      '--component',
      'client',
    ]);
    expect(last.json().error.details).toMatchObject({ rule: 'empty_allow_list' });
    ok(['project', 'derived', 'exclude', '-n', 'set', '--repo', 'api']);
    const p = project('set');
    expect(p.repos).toEqual([]);
    expect(p.derived.sources).toEqual([]);
    expect(runHub(['config', 'validate'], { cwd: ws }).code).toBe(0);
  });
});

describe('project derived refresh', () => {
  it("copies the sources' identity and components again; local-only tags stay, membership does not change", () => {
    ok(['project', 'derived', 'create', '-n', 'set', '--from', 'core/api']);
    ok(['project', 'derived', 'include', '-n', 'set', '--from', 'core/lib/util']);
    // Local edits on the derived repo, then the source changes.
    let text = readFileSync(manifest, 'utf8');
    text = text.replace('            team: backend\n', '            team: backend\n            local: yes\n');
    text = text
      .replace(
        '          description: The API\n          tags: {team: backend, tier: 1}',
        '          description: The public API\n          tags: {team: platform, tier: 1}',
      )
      .replace(
        '            - {name: worker, path: services/worker, depends_on: [server]}\n',
        '            - {name: worker, path: services/worker, depends_on: [server]}\n            - {name: cli, path: cmd/cli}\n',
      )
      .replace(
        '            - {name: util, path: util}\n',
        '            - {name: util, path: util, kind: library}\n            - {name: extra, path: extra}\n',
      );
    writeFileSync(manifest, text);
    const r = ok(['project', 'derived', 'refresh', '-n', 'set']);
    expect(r).toMatchObject({ refreshed: ['api', 'lib'], missing_sources: [], missing_components: [] });
    const p = project('set');
    expect(p.repos[0]).toMatchObject({
      description: 'The public API',
      tags: { team: 'platform', tier: 1, local: 'yes' },
    });
    expect(names(p.repos[0])).toEqual(['server', 'client', 'worker', 'cli']);
    // lib takes util only: its new field comes, the source's new component does not.
    expect(p.repos[1].components).toEqual([{ name: 'util', path: 'util', kind: 'library' }]);
    expect(p.repos.length).toBe(2);
  });

  it('reports a source that is gone, and keeps its repo', () => {
    ok(['project', 'derived', 'create', '-n', 'set', '--from', 'core/web']);
    const text = readFileSync(manifest, 'utf8').replace(
      '        - name: web\n          path: ./core/web\n          components:\n            - {name: ui, path: ui}\n',
      '',
    );
    writeFileSync(
      manifest,
      text.replace(
        '    - {id: util-web, from: {project: core, repo: lib, component: util}, to: {project: core, repo: web}, type: depends_on}\n',
        '',
      ),
    );
    const r = ok(['project', 'derived', 'refresh', '-n', 'set']);
    expect(r).toMatchObject({ refreshed: [], missing_sources: ['core/web'] });
    expect(project('set').repos.map((x: { name: string }) => x.name)).toEqual(['web']);
  });
});

describe('validation and resolution', () => {
  it('requires derived_from on every repo of an enabled derived set', () => {
    writeFileSync(
      manifest,
      `${MANIFEST.replace('graph:', '    - name: set\n      derived: {enabled: true}\n      repos:\n        - {name: api, path: ./core/api}\ngraph:')}`,
    );
    const r = runHub(['config', 'validate', '--json'], { cwd: ws });
    expect(r.code).toBe(1);
    expect(r.json().problems).toContainEqual(expect.objectContaining({ rule: 'derived_from_required' }));
  });

  it("resolves a path in the shared checkout to the derived set's component when scoped to it", () => {
    ok(['project', 'derived', 'create', '-n', 'set', '--from', 'core/api/server']);
    const file = join(ws, 'core', 'api', 'services', 'server', 'main.go');
    expect(ok(['component', 'resolve', file]).id).toBe('core/api/server');
    expect(ok(['component', 'resolve', file, '--project', 'set']).id).toBe('set/api/server');
    const miss = ok([
      'component',
      'resolve',
      join(ws, 'core', 'api', 'packages', 'client'),
      '--project',
      'set',
    ]);
    expect(miss).toMatchObject({ matched: false, repository: 'set/api' });
  });
});
