import type { Catalog } from '../catalog/index.js';
import { buildWorkspaceGraph, type WorkspaceEdge } from '../graph/index.js';
import { healthOf, type InferredDependencySource, type TerrainDependency } from '../terrain/index.js';
import type { OpContext } from './context.js';

/** `file:line` of the first proof, as terrain shows one line per arc. */
function evidenceLine(e: WorkspaceEdge): string | undefined {
  const ev = e.evidence?.[0];
  if (!ev) return undefined;
  return ev.line === undefined ? ev.file : `${ev.file}:${ev.line}`;
}

/**
 * Terrain's inferred arcs are the workspace graph's inferred edges (package files of npm, Go, Python, Cargo,
 * Maven/Gradle, Helm and submodules) between two repositories of the catalog. An edge that repeats a declared
 * relationship is already folded into it by the graph, so terrain never draws one arc twice; edges to external
 * nodes (curated or indexed) have no terrain cell and are left out.
 */
export function inferredDependencySource(ctx: OpContext): InferredDependencySource {
  return (catalog: Catalog): TerrainDependency[] => {
    const graph = buildWorkspaceGraph(catalog, ctx.checkouts(), {
      includeInferred: true,
      includeStructure: false,
    });
    const isRepo = (id: string) => id.startsWith('repo:') && catalog.repoById.has(id.slice('repo:'.length));
    const out: TerrainDependency[] = [];
    for (const e of graph.edges) {
      if (e.source !== 'inferred' || !isRepo(e.from_id) || !isRepo(e.to_id)) continue;
      const label = e.label ?? null;
      const evidence = evidenceLine(e);
      out.push({
        id: `dep:${e.id}`,
        from_id: e.from_id,
        to_id: e.to_id,
        type: e.type,
        label,
        source: 'inferred',
        health: healthOf(e.type, label),
        consumer_count: 0,
        ...(evidence ? { evidence } : {}),
      });
    }
    return out;
  };
}
