import { describe, expect, it } from 'vitest';
import { thrown } from '../../test/fixtures/index.js';
import { Catalog } from '../catalog/index.js';
import { parseManifestText } from '../model/index.js';
import { detectCommands } from '../repo-commands/index.js';
import { COMPILE_MAX_DEPTH, compileSections } from './compile.js';

const catalog = new Catalog(
  parseManifestText(
    `workspace:
  name: w
  agent_profile: { skills: [base] }
  projects:
    - name: p
      repos:
        - name: r
          path: ./p/r
          components:
            - { name: a, path: a }
            - name: b
              path: b
              depends_on: [a]
              agent_profile: { skills: [extra] }
              commands: { test: 'make -C b check', serve: ./b/run }
            - { name: c, path: c, depends_on: [b] }
        - name: s
          path: ./p/s
          components:
            - { name: a, path: a }
`,
    '/w/.hub.yml',
  ),
);

const keys = (x: ReturnType<typeof compileSections>) => x.sections.map((s) => s.key);

describe('context compile sections', () => {
  it('stays repository-scoped without a component', () => {
    const out = compileSections(catalog, { project: 'p', repo: 'r' });
    expect(keys(out)).toEqual(['scope']);
    expect(out.component).toBeNull();
  });

  it('adds component, component_graph (depth 0 by default), effective_profile and component_commands', () => {
    const out = compileSections(
      catalog,
      { project: 'p', repo: 'r', component: 'b' },
      { detect: detectCommands },
    );
    expect(keys(out)).toEqual([
      'scope',
      'component',
      'component_graph',
      'effective_profile',
      'component_commands',
    ]);
    // Not on disk: the manifest's commands alone, named, with source manifest.
    expect(out.sections.find((s) => s.key === 'component_commands')!.value).toEqual([
      { kind: 'test', command: 'make -C b check', dir: 'b', source: 'manifest' },
      { name: 'serve', command: './b/run', dir: 'b', source: 'manifest' },
    ]);
    const graph = out.sections.find((s) => s.key === 'component_graph')!.value as {
      depth: number;
      nodes: unknown[];
    };
    expect(graph.depth).toBe(0);
    expect(graph.nodes).toHaveLength(1);
    const profile = out.sections.find((s) => s.key === 'effective_profile')!.value as { skills: string[] };
    expect(profile.skills).toEqual(['base', 'extra']);
    expect(out.sections.find((s) => s.key === 'component_graph')!.droppable).toBe(true);
  });

  it('caps the depth at 5 and rejects a bad depth', () => {
    const out = compileSections(catalog, { project: 'p', repo: 'r', component: 'p/r/c', depth: 9 });
    expect(out.depth).toBe(COMPILE_MAX_DEPTH);
    const graph = out.sections.find((s) => s.key === 'component_graph')!.value as { nodes: unknown[] };
    expect(graph.nodes).toHaveLength(3);
    expect(
      thrown(() => compileSections(catalog, { project: 'p', repo: 'r', component: 'a', depth: -1 })).code,
    ).toBe('validation');
  });

  it('errors on an unknown component and never falls back to the repository', () => {
    const err = thrown(() => compileSections(catalog, { project: 'p', repo: 'r', component: 'zzz' }));
    expect(err.code).toBe('not_found');
    // `a` exists in p/s only as another repository's component: still unknown in p/r's scope.
    expect(
      thrown(() => compileSections(catalog, { project: 'p', repo: 'r', component: 'p/r/zzz' })).code,
    ).toBe('not_found');
  });

  it('errors on a three-segment id that disagrees with project/repo', () => {
    const err = thrown(() => compileSections(catalog, { project: 'p', repo: 'r', component: 'p/s/a' }));
    expect(err.code).toBe('validation');
    expect(err.details).toMatchObject({ rule: 'id_scope_mismatch' });
  });

  it('checks the repository and the task pair', () => {
    expect(thrown(() => compileSections(catalog, { project: 'p', repo: 'nope' })).code).toBe('not_found');
    expect(thrown(() => compileSections(catalog, { project: 'p', repo: 'r', task_id: 't' })).code).toBe(
      'validation',
    );
    const out = compileSections(catalog, { project: 'p', repo: 'r', task_id: 't', graph_id: 'g' });
    expect(out.sections[1]).toEqual({ key: 'task', value: { graph_id: 'g', task_id: 't' } });
  });
});
