import type { WorkspaceEdge, WorkspaceGraph, WorkspaceNode } from './graph-types.js';

export const EXPORT_FORMATS = ['json', 'mermaid', 'dot'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * Labels come from manifests and package files anyone may write: every character that could end a quoted label
 * or start markup is written as an entity (Mermaid) or escaped (DOT), and line breaks become spaces, so a label
 * can never add a node, an edge, a `click` handler or a style of its own.
 */
const mermaidText = (s: string) =>
  s.replace(/[\r\n\t]+/g, ' ').replace(/["#<>&`|[\]{}()\\;]/g, (c) => `#${c.charCodeAt(0)};`);
const dotText = (s: string) => s.replace(/[\r\n\t]+/g, ' ').replace(/[\\"]/g, (c) => `\\${c}`);

/** Structure edges become groups (Mermaid subgraphs, DOT clusters) rather than arrows. */
function layout(graph: WorkspaceGraph) {
  const groups = new Map<string, WorkspaceNode[]>();
  const grouped = new Set<string>();
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  for (const e of graph.edges) {
    if (e.source !== 'structure') continue;
    const child = byId.get(e.to_id);
    if (!child) continue;
    const list = groups.get(e.from_id) ?? [];
    list.push(child);
    groups.set(e.from_id, list);
    grouped.add(e.to_id);
  }
  const loose = graph.nodes.filter((n) => !grouped.has(n.id) && !(n.kind === 'project' && groups.has(n.id)));
  const arrows = graph.edges.filter((e) => e.source !== 'structure');
  return { groups, loose, arrows, byId };
}

const edgeText = (e: WorkspaceEdge) => e.label ?? e.type;

/** A Mermaid flowchart: projects as subgraphs, manual edges solid, inferred dotted, deprecated ones crossed. */
export function toMermaid(graph: WorkspaceGraph): string {
  const { groups, loose, arrows, byId } = layout(graph);
  const ids = new Map(graph.nodes.map((n, i) => [n.id, `n${i}`]));
  const node = (n: WorkspaceNode) =>
    n.kind === 'project'
      ? `${ids.get(n.id)}[["${mermaidText(n.label)}"]]`
      : n.path === undefined
        ? `${ids.get(n.id)}(["${mermaidText(n.label)}"])`
        : `${ids.get(n.id)}["${mermaidText(n.label)}"]`;
  const lines = ['flowchart LR'];
  for (const [projectId, members] of groups) {
    const p = byId.get(projectId);
    lines.push(`  subgraph ${ids.get(projectId)}["${mermaidText(p?.label ?? projectId)}"]`);
    for (const m of members) lines.push(`    ${node(m)}`);
    lines.push('  end');
  }
  for (const n of loose) lines.push(`  ${node(n)}`);
  for (const e of arrows) {
    const from = ids.get(e.from_id);
    const to = ids.get(e.to_id);
    if (!from || !to) continue;
    const arrow = e.source === 'inferred' ? '-.->' : e.status === 'deprecated' ? '--x' : '-->';
    lines.push(`  ${from} ${arrow}|"${mermaidText(edgeText(e))}"| ${to}`);
  }
  return `${lines.join('\n')}\n`;
}

/** Graphviz DOT: projects as clusters, manual edges solid, inferred dashed, deprecated dotted and grey. */
export function toDot(graph: WorkspaceGraph): string {
  const { groups, loose, arrows, byId } = layout(graph);
  const q = (s: string) => `"${dotText(s)}"`;
  const node = (n: WorkspaceNode) =>
    `${q(n.id)} [label=${q(n.label)}${n.path === undefined ? ', style=dashed' : ''}]`;
  const lines = ['digraph workspace {', '  rankdir=LR;', '  node [shape=box];'];
  let c = 0;
  for (const [projectId, members] of groups) {
    lines.push(`  subgraph cluster_${c++} {`, `    label=${q(byId.get(projectId)?.label ?? projectId)};`);
    for (const m of members) lines.push(`    ${node(m)};`);
    lines.push('  }');
  }
  for (const n of loose) lines.push(`  ${node(n)};`);
  for (const e of arrows) {
    const style =
      e.source === 'inferred'
        ? ', style=dashed'
        : e.status === 'deprecated'
          ? ', style=dotted, color=gray'
          : '';
    lines.push(`  ${q(e.from_id)} -> ${q(e.to_id)} [label=${q(edgeText(e))}${style}];`);
  }
  lines.push('}');
  return `${lines.join('\n')}\n`;
}
