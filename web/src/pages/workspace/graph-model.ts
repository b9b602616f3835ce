// The graphs as plain elements for the canvas: the workspace graph (projects, repositories; manual, inferred and
// structure edges) and a component's neighbourhood (declared relationships and same-repo depends_on), with
// positions computed here for large graphs (a force layout of 5,000 nodes would freeze the page). Pure.
import type {
  ComponentGraph,
  EdgeSource,
  GraphEdge,
  GraphNode,
  WorkspaceGraph,
} from '../../api/workspace-page';

export const EDGE_SOURCES: readonly EdgeSource[] = ['manual', 'inferred', 'structure'];

/** What each edge source means, and how it is drawn (the legend and the canvas use the same words). */
export const EDGE_LEGEND: Record<EdgeSource, { label: string; line: string; meaning: string }> = {
  manual: { label: 'Manual', line: 'solid', meaning: 'declared in the manifest (graph.relationships)' },
  inferred: {
    label: 'Inferred',
    line: 'dashed',
    meaning: 'found in package manifests and imports, with evidence',
  },
  structure: { label: 'Structure', line: 'dotted', meaning: 'a project contains a repository' },
};

export const COMPONENT_EDGE_LEGEND: Record<
  'declared' | 'depends_on',
  { label: string; line: string; meaning: string }
> = {
  declared: { label: 'Declared', line: 'solid', meaning: 'a relationship of the manifest' },
  depends_on: {
    label: 'depends_on',
    line: 'dashed',
    meaning: 'a component’s depends_on in the same repository',
  },
};

export interface ElementNode {
  id: string;
  label: string;
  classes: string[];
  position?: { x: number; y: number };
}

export interface ElementEdge {
  id: string;
  source: string;
  target: string;
  label: string;
  classes: string[];
}

export interface Elements {
  nodes: ElementNode[];
  edges: ElementEdge[];
}

/** Graphs up to this many nodes get a force layout; larger ones the computed positions below. */
export const FORCE_LAYOUT_MAX = 300;

/**
 * Projects on a grid, each project's repositories on a sunflower spiral around it (golden angle): compact,
 * no overlap, the same picture on every load.
 */
export function clusterPositions(nodes: readonly GraphNode[]): Map<string, { x: number; y: number }> {
  const byProject = new Map<string, GraphNode[]>();
  for (const n of nodes) {
    const key = n.kind === 'project' ? n.label : (n.project ?? '');
    if (!byProject.has(key)) byProject.set(key, []);
    if (n.kind !== 'project') byProject.get(key)!.push(n);
  }
  const spread = 28;
  const biggest = Math.max(1, ...[...byProject.values()].map((l) => l.length));
  const cell = 2 * spread * Math.sqrt(biggest) + 160;
  const cols = Math.max(1, Math.ceil(Math.sqrt(byProject.size)));
  const out = new Map<string, { x: number; y: number }>();
  let p = 0;
  for (const [project, repos] of byProject) {
    const cx = (p % cols) * cell;
    const cy = Math.floor(p / cols) * cell;
    out.set(`project:${project}`, { x: cx, y: cy });
    repos.forEach((n, i) => {
      const r = spread * Math.sqrt(i + 2);
      const a = i * 2.39996;
      out.set(n.id, { x: cx + r * Math.cos(a), y: cy + r * Math.sin(a) });
    });
    p++;
  }
  return out;
}

/** How far a layout is stretched along one axis at most to match its canvas (a chain of two nodes stays a chain). */
export const MAX_STRETCH = 4;

/**
 * The scale of a layout's x or y (one of them is 1) that gives its box the canvas's proportions, so a fit fills
 * the canvas instead of leaving bands on two sides: layouts come out near square, canvases are wide (or tall on a
 * phone). Positions only: nodes and labels keep their size.
 */
export function stretchToCanvas(
  box: { w: number; h: number },
  canvas: { w: number; h: number },
): { sx: number; sy: number } {
  if (canvas.w <= 0 || canvas.h <= 0) return { sx: 1, sy: 1 };
  const have = Math.max(box.w, 1) / Math.max(box.h, 1);
  const want = canvas.w / canvas.h;
  return have < want
    ? { sx: Math.min(want / have, MAX_STRETCH), sy: 1 }
    : { sx: 1, sy: Math.min(have / want, MAX_STRETCH) };
}

/** Elements of the workspace graph; `missing` names repositories not on disk (drawn hollow). */
export function workspaceElements(graph: WorkspaceGraph, missing: ReadonlySet<string> = new Set()): Elements {
  const ids = new Set(graph.nodes.map((n) => n.id));
  // Large graphs keep these positions; small ones start the force layout from them (the same picture each load).
  const positions = clusterPositions(graph.nodes);
  const nodes = graph.nodes.map((n) => ({
    id: n.id,
    label: n.label,
    classes: [n.kind, ...(n.kind === 'repo' && n.identity && missing.has(n.identity) ? ['missing'] : [])],
    ...(positions.get(n.id) ? { position: positions.get(n.id)! } : {}),
  }));
  const edges = graph.edges
    .filter((e) => ids.has(e.from_id) && ids.has(e.to_id))
    .map((e) => ({
      id: e.id,
      source: e.from_id,
      target: e.to_id,
      label: e.label ?? e.type,
      classes: [e.source],
    }));
  return { nodes, edges };
}

/** Elements of a component's neighbourhood; the origin is marked, distance rings come from the layout. */
export function componentElements(graph: ComponentGraph): Elements {
  const nodes = graph.nodes.map((n) => ({
    id: n.id,
    label: n.component ?? n.repo ?? n.identity,
    classes: [n.kind === 'component' ? 'component' : 'repo', ...(n.id === graph.origin ? ['origin'] : [])],
  }));
  const ids = new Set(nodes.map((n) => n.id));
  const edges = graph.edges
    .filter((e) => ids.has(e.from) && ids.has(e.to))
    .map((e, i) => ({
      id: `c${i}:${e.from}->${e.to}:${e.type}`,
      source: e.from,
      target: e.to,
      label: e.type,
      classes: [e.origin === 'declared' ? 'declared' : 'depends-on'],
    }));
  return { nodes, edges };
}

/** Edges per source among those shown. */
export function countBySource(edges: readonly GraphEdge[], shown: ReadonlySet<EdgeSource>) {
  const out: Record<EdgeSource, { total: number; shown: number }> = {
    manual: { total: 0, shown: 0 },
    inferred: { total: 0, shown: 0 },
    structure: { total: 0, shown: 0 },
  };
  for (const e of edges) {
    const c = out[e.source];
    if (!c) continue;
    c.total++;
    if (shown.has(e.source)) c.shown++;
  }
  return out;
}

/** `apps/web/package.json:13 (npm @example/sdk; provided by packages/sdk/package.json:2)`. */
export function evidenceText(ev: NonNullable<GraphEdge['evidence']>[number]): string {
  const at = `${ev.file}${ev.line ? `:${ev.line}` : ''}`;
  const what = [ev.ecosystem, ev.name].filter(Boolean).join(' ');
  const by = ev.provided_by
    ? `provided by ${ev.provided_by.file}${ev.provided_by.line ? `:${ev.provided_by.line}` : ''}`
    : '';
  const extra = [what, by].filter(Boolean).join('; ');
  return extra ? `${at} (${extra})` : at;
}
