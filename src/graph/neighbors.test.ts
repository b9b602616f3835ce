// A bare name that a project and a repository share (a project `serde` and its repository `serde`, issue 26)
// resolves to the repository, and the answer says so; it never picks the project silently.
import { describe, expect, it } from 'vitest';
import type { WorkspaceGraph, WorkspaceNode } from './graph-types.js';
import { neighbors } from './neighbors.js';

const project = (name: string): WorkspaceNode => ({
  id: `project:${name}`,
  label: name,
  kind: 'project',
  identity: name,
  provider: 'manifest',
});
const repo = (p: string, name: string): WorkspaceNode => ({
  id: `repo:${p}/${name}`,
  label: name,
  kind: 'repo',
  identity: `${p}/${name}`,
  provider: 'github',
  project: p,
});

function graph(nodes: WorkspaceNode[]): WorkspaceGraph {
  return {
    ok: true,
    nodes,
    edges: nodes
      .filter((n) => n.kind === 'repo')
      .map((n) => ({
        id: `structure:${n.identity}`,
        from_id: `project:${n.project}`,
        to_id: n.id,
        type: 'contains',
        source: 'structure' as const,
      })),
    manual_edge_count: 0,
    inferred_edge_count: 0,
    structure_edge_count: nodes.filter((n) => n.kind === 'repo').length,
    stale_manual: [],
  };
}

describe('graph neighbors: a name a project and a repository share', () => {
  const g = graph([project('serde'), project('rust'), repo('rust', 'serde'), repo('serde', 'serde-json')]);

  it('prefers the repository and says which project it did not pick', () => {
    const r = neighbors(g, { node: 'serde' });
    expect(r.origin).toBe('repo:rust/serde');
    expect(r.note).toContain('project:serde');
    expect(r.note).toContain('repo:rust/serde');
  });

  it('an id, or a name only one node has, needs no note', () => {
    expect(neighbors(g, { node: 'project:serde' })).toMatchObject({ origin: 'project:serde' });
    expect(neighbors(g, { node: 'project:serde' }).note).toBeUndefined();
    expect(neighbors(g, { node: 'rust' }).origin).toBe('project:rust');
    expect(neighbors(g, { node: 'rust' }).note).toBeUndefined();
    expect(neighbors(g, { node: 'serde-json' }).note).toBeUndefined();
  });

  it('two repositories of that name are ambiguous, the project listed with them', () => {
    const two = graph([project('serde'), repo('rust', 'serde'), repo('mirror', 'serde')]);
    expect(() => neighbors(two, { node: 'serde' })).toThrow(
      /repo:rust\/serde, repo:mirror\/serde.*project:serde|project:serde.*repo:rust\/serde/,
    );
  });
});
