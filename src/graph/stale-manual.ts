import type { Relationship } from '../model/index.js';
import { matchKey } from './declarations.js';
import type { StaleManual, WorkspaceEdge } from './graph-types.js';
import type { RepoScan } from './scan-repo.js';

/**
 * Relationship types that claim a package dependency, which package files can confirm or contradict. Types such
 * as `calls`, `deploys_with` or `uses` (a service over the network) say nothing package files could check.
 */
export const PACKAGE_DEPENDENCY_TYPES = ['depends_on', 'dependency', 'requires', 'imports'] as const;

/** Relationship types compare case-insensitively with `-`, `_` and space equal. */
export const normalizeType = (t: string) =>
  t
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, '_');

export interface StaleInput {
  relationships: readonly Relationship[];
  /** Each relationship's resolved endpoints (undefined when the endpoint names nothing). */
  resolved: ReadonlyArray<{ from?: string; to?: string }>;
  /** Inferred edges (before merging with manual ones); absent when inference did not run. */
  inferred?: readonly WorkspaceEdge[];
  /** Scans of the repositories read completely (present, inside, nothing skipped), by node id. */
  scans?: ReadonlyMap<string, RepoScan>;
  /** Node ids of repositories declared with a local `path` whose folder is gone from disk, with that path. */
  gone?: ReadonlyMap<string, string>;
}

/**
 * Manual relationships to look at again. Deprecated ones are never reported. `endpoint_missing`: an endpoint
 * names no repository, component or node, or names a repository declared with a local `path` whose folder is
 * gone (a url-only repository not cloned yet is not gone: `project sync` brings it). `contradicted` (only with inference, only for package-dependency
 * types, only when both repositories were read completely): inference proves the reverse dependency and not this
 * one; or the depending repository has package files of an ecosystem in which the other publishes a name, and
 * names none of them.
 */
export function staleManual(input: StaleInput): StaleManual[] {
  const out: StaleManual[] = [];
  const inferredPairs = new Set((input.inferred ?? []).map((e) => `${e.from_id}\u0000${e.to_id}`));
  input.relationships.forEach((rel, i) => {
    if (rel.status === 'deprecated') return;
    const { from, to } = input.resolved[i] ?? {};
    for (const [end, id] of [
      ['from', from],
      ['to', to],
    ] as const) {
      const path = id !== undefined ? input.gone?.get(id) : undefined;
      if (path !== undefined) {
        out.push({
          relationship_id: rel.id,
          reason: 'endpoint_missing',
          endpoint: end,
          message: `relationship '${rel.id}' ${end} is ${id}, declared at ${path}, which is gone from disk`,
        });
        continue;
      }
      if (id !== undefined) continue;
      const ep = rel[end];
      const named = [ep.project, ep.repo, ep.component].filter(Boolean).join('/') || '(empty)';
      out.push({
        relationship_id: rel.id,
        reason: 'endpoint_missing',
        endpoint: end,
        message: `relationship '${rel.id}' ${end} names ${named}, which is not in the workspace, graph.nodes or the organization index`,
      });
    }
    if (!from || !to || from === to || !input.inferred || !input.scans) return;
    if (!(PACKAGE_DEPENDENCY_TYPES as readonly string[]).includes(normalizeType(rel.type))) return;
    const a = input.scans.get(from);
    const b = input.scans.get(to);
    if (!a || !b || inferredPairs.has(`${from}\u0000${to}`)) return;
    if (inferredPairs.has(`${to}\u0000${from}`)) {
      out.push({
        relationship_id: rel.id,
        reason: 'contradicted',
        message: `relationship '${rel.id}' says ${from} depends on ${to}, but their package files say ${to} depends on ${from}`,
      });
      return;
    }
    const required = new Set(a.requires.map((r) => matchKey(r.ecosystem, r.name)));
    const checkable = b.provides.filter((p) => a.ecosystems.has(p.ecosystem));
    if (checkable.length === 0 || checkable.some((p) => required.has(matchKey(p.ecosystem, p.name)))) return;
    const p = checkable[0]!;
    out.push({
      relationship_id: rel.id,
      reason: 'contradicted',
      message: `relationship '${rel.id}' says ${from} depends on ${to}, but ${from}'s ${p.ecosystem} package files never name ${p.name} (published by ${to} in ${p.file})`,
    });
  });
  return out;
}
