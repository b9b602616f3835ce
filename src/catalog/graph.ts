import { normalizeRelPath, ValidationError } from '../infra/index.js';
import type { Endpoint } from '../model/index.js';
import type { Catalog, CatalogComponent } from './catalog.js';
import { walkNeighborhood } from './graph-walk.js';
import { findComponent, type Scope } from './lookup.js';
import { longestMatch } from './resolve.js';

export const GRAPH_DIRECTIONS = ['out', 'in', 'both'] as const;
export type GraphDirection = (typeof GRAPH_DIRECTIONS)[number];
export const GRAPH_DEFAULT_DEPTH = 1;
export const GRAPH_MAX_DEPTH = 5;
export const GRAPH_DEFAULT_DIRECTION: GraphDirection = 'both';

export interface GraphNode {
  /** Resolver id: `component:<p>/<r>/<c>` or `repo:<p>/<r>`. */
  id: string;
  kind: 'component' | 'repo';
  identity: string;
  project: string;
  repo: string;
  component?: string;
  path?: string;
  distance: number;
}

export interface GraphEdge {
  from: string;
  to: string;
  type: string;
  origin: 'declared' | 'depends_on';
  relationship_id?: string;
  status?: string;
}

export interface GraphResult {
  origin: string;
  depth: number;
  direction: GraphDirection;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** Maps an endpoint to a node id; path-only endpoints go through the resolver. Undefined when unresolved. */
export function endpointNodeId(catalog: Catalog, ep: Endpoint): string | undefined {
  if (!ep.project || !ep.repo) return undefined;
  const repoId = `${ep.project}/${ep.repo}`;
  if (ep.component)
    return catalog.componentById.has(`${repoId}/${ep.component}`)
      ? `component:${repoId}/${ep.component}`
      : undefined;
  if (ep.path) {
    if (!catalog.repoById.has(repoId)) return undefined;
    const n = normalizeRelPath(ep.path);
    if (n.escapes) return undefined;
    const c = longestMatch(catalog, repoId, n.path);
    return c ? `component:${c.id}` : undefined;
  }
  if (catalog.repoById.has(repoId)) return `repo:${repoId}`;
  if (graphNodeKeys(catalog).has(`${ep.project}\u0000${ep.repo}`)) return `repo:${repoId}`;
  return undefined;
}

const nodeKeys = new WeakMap<Catalog, Set<string>>();

/**
 * `graph.nodes` as a set of `project\0repo`, once per catalog: asked per relationship endpoint, a scan of the list
 * made validation quadratic (50,000 relationships to 50,000 nodes: 2.5 billion comparisons).
 */
function graphNodeKeys(catalog: Catalog): Set<string> {
  let keys = nodeKeys.get(catalog);
  if (!keys) {
    keys = new Set((catalog.file.manifest.graph?.nodes ?? []).map((n) => `${n.project}\u0000${n.repo}`));
    nodeKeys.set(catalog, keys);
  }
  return keys;
}

/** Every edge of the catalog: declared relationships first, so they win over a duplicate depends_on edge. */
export function allEdges(catalog: Catalog): GraphEdge[] {
  const edges: GraphEdge[] = [];
  const seen = new Set<string>();
  const push = (e: GraphEdge) => {
    const key = `${e.from}\u0000${e.to}\u0000${e.type}`;
    if (seen.has(key)) return;
    seen.add(key);
    edges.push(e);
  };
  for (const rel of catalog.file.manifest.graph?.relationships ?? []) {
    const from = endpointNodeId(catalog, rel.from);
    const to = endpointNodeId(catalog, rel.to);
    if (!from || !to) continue;
    push({ from, to, type: rel.type, origin: 'declared', relationship_id: rel.id, status: rel.status });
  }
  for (const c of catalog.components) {
    for (const dep of c.depends_on) {
      const target = catalog.componentById.get(`${c.project}/${c.repo}/${dep}`);
      if (target)
        push({
          from: `component:${c.id}`,
          to: `component:${target.id}`,
          type: 'depends_on',
          origin: 'depends_on',
        });
    }
  }
  return edges;
}

export interface GraphInput extends Scope {
  component: string;
  depth?: number | string;
  direction?: string;
}

/** Parses depth: an integer >= 0, clamped to the cap of 5; anything else is a ValidationError. */
export function parseDepth(value: unknown, fallback: number, cap: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  // Only numbers and plain decimal strings: Number() would also take true, '0x3', '1e0' and ' '.
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d+$/.test(value.trim())
        ? Number(value)
        : Number.NaN;
  if (!Number.isInteger(n) || n < 0) {
    throw new ValidationError(`depth must be an integer from 0 to ${cap}; got '${String(value)}'`, {
      field: 'depth',
      value,
      rule: 'integer>=0',
    });
  }
  return Math.min(n, cap);
}

export function parseDirection(value: unknown): GraphDirection {
  if (value === undefined || value === null || value === '') return GRAPH_DEFAULT_DIRECTION;
  if (typeof value === 'string' && (GRAPH_DIRECTIONS as readonly string[]).includes(value))
    return value as GraphDirection;
  throw new ValidationError(
    `direction must be one of ${GRAPH_DIRECTIONS.join(', ')}; got '${String(value)}'`,
    {
      field: 'direction',
      value,
      allowed: [...GRAPH_DIRECTIONS],
    },
  );
}

function nodeFor(catalog: Catalog, id: string, distance: number): GraphNode {
  if (id.startsWith('component:')) {
    const c = catalog.componentById.get(id.slice('component:'.length)) as CatalogComponent;
    return {
      id,
      kind: 'component',
      identity: c.id,
      project: c.project,
      repo: c.repo,
      component: c.name,
      path: c.path,
      distance,
    };
  }
  const identity = id.slice('repo:'.length);
  const [project, repo] = identity.split('/') as [string, string];
  return { id, kind: 'repo', identity, project, repo, distance };
}

const COMPONENT_EDGE_ENDS = { from: (e: GraphEdge) => e.from, to: (e: GraphEdge) => e.to };

/** Breadth-first neighbourhood of one component over declared relationships and same-repo depends_on. */
export function componentGraph(
  catalog: Catalog,
  input: GraphInput,
  edges: GraphEdge[] = allEdges(catalog),
): GraphResult {
  const depth = parseDepth(input.depth, GRAPH_DEFAULT_DEPTH, GRAPH_MAX_DEPTH);
  const direction = parseDirection(input.direction);
  const origin = findComponent(catalog, input.component, input, 404);
  const originId = `component:${origin.id}`;
  const { dist, used } = walkNeighborhood(originId, edges, COMPONENT_EDGE_ENDS, depth, direction);
  const nodes = [...dist.entries()].map(([id, d]) => nodeFor(catalog, id, d));
  return { origin: originId, depth, direction, nodes, edges: edges.filter((e) => used.has(e)) };
}
