import { didYouMean, GRAPH_MAX_DEPTH, parseDepth, parseDirection, suggestionText } from '../catalog/index.js';
import { AmbiguousError, NotFoundError } from '../infra/index.js';
import type { WorkspaceEdge, WorkspaceGraph, WorkspaceNode } from './graph-types.js';

export interface NeighborsInput {
  node: string;
  depth?: number | string;
  direction?: string;
}

export interface NeighborsResult {
  origin: string;
  depth: number;
  direction: 'out' | 'in' | 'both';
  nodes: Array<WorkspaceNode & { distance: number }>;
  edges: WorkspaceEdge[];
}

/**
 * The node a reference names: its id (`repo:p/r`, `project:p`), a repository id (`p/r`), an identity
 * (`github://org/repo`), or a name that only one repository or project has. An unknown name is a NotFoundError
 * with close names; a name several nodes share is an AmbiguousError listing their ids.
 */
export function findNode(graph: WorkspaceGraph, ref: string): WorkspaceNode {
  const r = ref.trim();
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const exact = byId.get(r) ?? byId.get(`repo:${r}`) ?? byId.get(`project:${r}`);
  if (exact) return exact;
  const same = graph.nodes.filter((n) => n.identity === r || n.label === r);
  const repos = same.filter((n) => n.kind === 'repo');
  const pick = repos.length > 0 ? repos : same;
  if (pick.length === 1) return pick[0]!;
  if (pick.length > 1)
    throw new AmbiguousError(
      `node '${r}' names ${pick.length} nodes (${pick.map((n) => n.id).join(', ')}); give the id`,
      { field: 'node', value: r, rule: 'unique_node', candidates: pick.map((n) => n.id) },
    );
  const suggestions = didYouMean(
    r,
    graph.nodes.flatMap((n) => [n.id, n.label, n.identity]),
  );
  throw new NotFoundError(`node '${r}' is not in the workspace graph${suggestionText(suggestions)}`, {
    field: 'node',
    value: r,
    rule: 'known_node',
    suggestions,
  });
}

/**
 * Breadth-first neighbourhood of one node, walked level by level without recursion: depth default 1, cap 5;
 * direction out (what it depends on or contains), in (what depends on or contains it), or both (default).
 */
export function neighbors(graph: WorkspaceGraph, input: NeighborsInput): NeighborsResult {
  const depth = parseDepth(input.depth, 1, GRAPH_MAX_DEPTH);
  const direction = parseDirection(input.direction);
  const origin = findNode(graph, input.node);
  const outAdj = new Map<string, WorkspaceEdge[]>();
  const inAdj = new Map<string, WorkspaceEdge[]>();
  const push = (m: Map<string, WorkspaceEdge[]>, k: string, e: WorkspaceEdge) => {
    const list = m.get(k);
    if (list) list.push(e);
    else m.set(k, [e]);
  };
  for (const e of graph.edges) {
    push(outAdj, e.from_id, e);
    push(inAdj, e.to_id, e);
  }
  const dist = new Map<string, number>([[origin.id, 0]]);
  const used = new Set<WorkspaceEdge>();
  let frontier = [origin.id];
  for (let d = 1; d <= depth && frontier.length > 0; d++) {
    const next: string[] = [];
    for (const id of frontier) {
      const steps: Array<[WorkspaceEdge, string]> = [];
      if (direction !== 'in') for (const e of outAdj.get(id) ?? []) steps.push([e, e.to_id]);
      if (direction !== 'out') for (const e of inAdj.get(id) ?? []) steps.push([e, e.from_id]);
      for (const [e, other] of steps) {
        used.add(e);
        if (!dist.has(other)) {
          dist.set(other, d);
          next.push(other);
        }
      }
    }
    frontier = next;
  }
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const nodes = [...dist].flatMap(([id, distance]) => {
    const n = byId.get(id);
    return n ? [{ ...n, distance }] : [];
  });
  return { origin: origin.id, depth, direction, nodes, edges: graph.edges.filter((e) => used.has(e)) };
}
