import type { Catalog } from '../catalog/index.js';
import type { DependencyCounts, TerrainDependency } from './types.js';

const BROKEN = /broken|missing|failed/i;
const OUTDATED = /outdated|stale|deprecated/i;

/** Health from the edge's words (the earlier product's rule): broken, outdated, else healthy. */
export function healthOf(type: string, label: string | null, status?: string): TerrainDependency['health'] {
  const words = `${type} ${label ?? ''} ${status ?? ''}`;
  if (BROKEN.test(words)) return 'broken';
  if (OUTDATED.test(words)) return 'outdated';
  return 'healthy';
}

const repoNode = (project: string, repo: string) => `repo:${project}/${repo}`;

/**
 * Repository-to-repository edges the manifest declares (`graph.relationships`; component endpoints count for
 * their repository), without the edges inside one repository, deduplicated on (from, to, type). Only the
 * manifest is read. `consumer_count` is filled by `withConsumers`.
 */
export function declaredDependencies(catalog: Catalog): TerrainDependency[] {
  const out: TerrainDependency[] = [];
  const seen = new Set<string>();
  for (const rel of catalog.file.manifest.graph?.relationships ?? []) {
    const { from, to } = rel;
    if (!from.project || !from.repo || !to.project || !to.repo) continue;
    const a = repoNode(from.project, from.repo);
    const b = repoNode(to.project, to.repo);
    if (a === b || !catalog.repoById.has(`${from.project}/${from.repo}`)) continue;
    if (!catalog.repoById.has(`${to.project}/${to.repo}`)) continue;
    const key = `${a}\u0000${b}\u0000${rel.type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const label = rel.label ?? null;
    out.push({
      id: `dep:${rel.id}`,
      from_id: a,
      to_id: b,
      type: rel.type,
      label,
      source: 'manual',
      health: healthOf(rel.type, label, rel.status === 'deprecated' ? 'deprecated' : undefined),
      consumer_count: 0,
    });
  }
  return out;
}

/** Sets each edge's consumer_count: how many edges point at its target (its in-degree). */
export function withConsumers(edges: TerrainDependency[]): TerrainDependency[] {
  const inDegree = new Map<string, number>();
  for (const e of edges) inDegree.set(e.to_id, (inDegree.get(e.to_id) ?? 0) + 1);
  return edges.map((e) => ({ ...e, consumer_count: inDegree.get(e.to_id) ?? 0 }));
}

/** Per-node counts of declared and inferred edges. */
export function dependencyCounts(
  edges: readonly TerrainDependency[],
): Map<string, Omit<DependencyCounts, 'internal'>> {
  const out = new Map<string, Omit<DependencyCounts, 'internal'>>();
  const of = (id: string) => {
    let c = out.get(id);
    if (!c) {
      c = { declared_in: 0, declared_out: 0, inferred_in: 0, inferred_out: 0 };
      out.set(id, c);
    }
    return c;
  };
  for (const e of edges) {
    if (e.source === 'manual') {
      of(e.from_id).declared_out++;
      of(e.to_id).declared_in++;
    } else {
      of(e.from_id).inferred_out++;
      of(e.to_id).inferred_in++;
    }
  }
  return out;
}
