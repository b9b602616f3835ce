import {
  didYouMean,
  GRAPH_MAX_DEPTH,
  parseDepth,
  parseDirection,
  suggestionText,
  walkNeighborhood,
} from '../catalog/index.js';
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
  /** Set when the name also named a project: which node was taken and how to ask for the other. */
  note?: string;
}

/**
 * The node a reference names: its id (`repo:p/r`, `project:p`), a repository id (`p/r`), an identity
 * (`github://org/repo`), or a name. A name that one repository and a project share is the repository (edges of
 * packages are between repositories) with a note saying so; a name several repositories share is an
 * AmbiguousError listing every node of that name; an unknown name is a NotFoundError with close names.
 */
export function resolveNode(graph: WorkspaceGraph, ref: string): { node: WorkspaceNode; note?: string } {
  const r = ref.trim();
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const exact = byId.get(r) ?? byId.get(`repo:${r}`);
  if (exact) return { node: exact };
  const project = byId.get(`project:${r}`);
  const same = graph.nodes.filter((n) => n.id !== project?.id && (n.identity === r || n.label === r));
  const repos = same.filter((n) => n.kind === 'repo');
  if (repos.length > 1 || (repos.length === 0 && same.length > 1)) {
    const all = [...(repos.length > 0 ? repos : same), ...(project ? [project] : [])];
    throw new AmbiguousError(
      `node '${r}' names ${all.length} nodes (${all.map((n) => n.id).join(', ')}); give the id`,
      { field: 'node', value: r, rule: 'unique_node', candidates: all.map((n) => n.id) },
    );
  }
  const one = repos[0] ?? same[0];
  if (one && project)
    return {
      node: one,
      note: `'${r}' names ${one.id} and ${project.id}; showing ${one.id} (give ${project.id} for the project)`,
    };
  if (one) return { node: one };
  if (project) return { node: project };
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

/** The node a reference names (see `resolveNode`), without the note. */
export function findNode(graph: WorkspaceGraph, ref: string): WorkspaceNode {
  return resolveNode(graph, ref).node;
}

const WORKSPACE_EDGE_ENDS = { from: (e: WorkspaceEdge) => e.from_id, to: (e: WorkspaceEdge) => e.to_id };

/**
 * Breadth-first neighbourhood of one node, walked level by level without recursion: depth default 1, cap 5;
 * direction out (what it depends on or contains), in (what depends on or contains it), or both (default).
 */
export function neighbors(graph: WorkspaceGraph, input: NeighborsInput): NeighborsResult {
  const depth = parseDepth(input.depth, 1, GRAPH_MAX_DEPTH);
  const direction = parseDirection(input.direction);
  const { node: origin, note } = resolveNode(graph, input.node);
  const { dist, used } = walkNeighborhood(origin.id, graph.edges, WORKSPACE_EDGE_ENDS, depth, direction);
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const nodes = [...dist].flatMap(([id, distance]) => {
    const n = byId.get(id);
    return n ? [{ ...n, distance }] : [];
  });
  const edges = graph.edges.filter((e) => used.has(e));
  return { origin: origin.id, depth, direction, nodes, edges, ...(note ? { note } : {}) };
}
