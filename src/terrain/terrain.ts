import { relative } from 'node:path';
import { type Catalog, type CatalogRepo, type Checkouts, normalizeTags } from '../catalog/index.js';
import { declaredCi } from '../ci/index.js';
import { normalizeRelPath } from '../infra/index.js';
import type { ActivityCache } from './activity.js';
import { declaredDependencies, dependencyCounts, withConsumers } from './dependencies.js';
import { enrichNodes } from './enrich.js';
import { layoutTerrain } from './layout.js';
import { ownershipOf } from './ownership.js';
import { type AgentDir, manifestAgent } from './readiness.js';
import {
  TERRAIN_DEFAULT_LIMIT,
  TERRAIN_MAX_LIMIT,
  type TerrainDependency,
  type TerrainDetail,
  type TerrainNode,
  type TerrainResult,
} from './types.js';
import { visualOf } from './visual.js';

/**
 * The hook where inferred repository edges come in (the graph room's inference from package manifests): given
 * the catalog and the repositories in scope, the edges it can prove, `source: 'inferred'` with `evidence`.
 * Until one is passed, terrain reports `inferred.available: false` and only the manifest's edges.
 */
export type InferredDependencySource = (
  catalog: Catalog,
  repoIds: readonly string[],
) => Promise<TerrainDependency[]> | TerrainDependency[];

export interface TerrainOptions {
  detail: TerrainDetail;
  project?: string;
  offset?: number;
  limit?: number;
  includePipelines?: boolean;
  includeInferred?: boolean;
  checkouts: Checkouts;
  now: Date;
  /** Enriched: git processes at once (default: the caller's choice; see enrichNodes). */
  parallel?: number;
  activityCache?: ActivityCache;
  /** Enriched: where coding-agent vendors keep agents in a repository. */
  agentDirs?: readonly AgentDir[];
  /** Enriched with include_inferred: the inference hook. */
  inferred?: InferredDependencySource;
  onProgress?: (done: number, total: number) => void;
}

/** Checkout folder relative to the workspace root, as the layout groups it. */
function relPath(catalog: Catalog, r: CatalogRepo): string {
  // The written path, normalized, is the answer unless it climbs out (path.relative costs ~40 us a call).
  if (r.path) {
    const n = normalizeRelPath(r.path);
    if (!n.escapes) return n.path;
  } else if (r.kind === 'workspace') return `${r.project}/${r.name}`;
  return relative(catalog.file.root, r.root).split('\\').join('/') || '.';
}

function projectTags(catalog: Catalog): Map<string, Record<string, string | number | boolean>> {
  return new Map(
    (catalog.file.manifest.workspace?.projects ?? []).map((p) => [p.name, normalizeTags(p.tags)]),
  );
}

/** A node from the manifest and the checkout judge alone: no git, no CI file, nothing inside the checkout. */
function manifestNode(
  catalog: Catalog,
  r: CatalogRepo,
  state: 'present' | 'missing' | 'outside',
  place: { x: number; y: number; region: string },
  ownerTags: Record<string, string | number | boolean>,
): TerrainNode {
  const components = catalog.componentsByRepo.get(r.id) ?? [];
  const internal = components.reduce((n, c) => n + c.depends_on.length, 0);
  const node: TerrainNode = {
    id: `repo:${r.id}`,
    repo_id: r.id,
    project_name: r.project,
    repo_name: r.name,
    label: r.name,
    description: r.description ?? null,
    repo_path: relPath(catalog, r),
    configured_path: r.path ?? null,
    url: r.url ?? null,
    exists: state === 'present',
    local_status:
      state === 'present' ? 'synced' : state === 'missing' ? 'configured_missing' : 'outside_workspace',
    is_git_repo: null,
    tags: r.tags,
    ownership: ownershipOf(r.tags, ownerTags),
    components: components.length,
    coordinates: { x: place.x, y: place.y, z: 0, region: place.region },
    ci: { declared: declaredCi(r.raw?.ci), detected: null, beacon: null, config_missing: null },
    pipeline: null,
    git: null,
    activity: null,
    agent: manifestAgent({
      has_agent_instructions: Boolean(
        r.raw?.agent_instructions?.trim() || components.some((c) => c.raw.agent_instructions?.trim()),
      ),
      has_agent_profile: r.raw?.agent_profile !== undefined,
    }),
    dependencies: { declared_in: 0, declared_out: 0, inferred_in: 0, inferred_out: 0, internal },
    visual: visualOf({ local_status: 'synced', is_git_repo: null, git: null, activity: null }, false),
  };
  node.visual = visualOf(node, false);
  return node;
}

/**
 * The terrain of a workspace: index rows with a layout and the manifest's dependency arcs (`manifest`: nothing
 * but the manifest and whether each checkout folder exists), or with git state, activity, CI beacon and agent
 * readiness read from the checkouts (`enriched`). The layout covers every repository in scope; nodes are one
 * page of it, and the dependencies are the edges touching that page.
 */
export async function buildTerrain(catalog: Catalog, opts: TerrainOptions): Promise<TerrainResult> {
  const all = catalog.reposMatching(opts.project);
  const offset = Math.max(0, opts.offset ?? 0);
  const limit = Math.min(Math.max(1, opts.limit ?? TERRAIN_DEFAULT_LIMIT), TERRAIN_MAX_LIMIT);
  const page = all.slice(offset, offset + limit);
  const enriched = opts.detail === 'enriched';
  const { placed, regions } = layoutTerrain(
    all.map((r) => ({ id: r.id, project: r.project, path: relPath(catalog, r) })),
  );
  const ptags = projectTags(catalog);
  const states = page.map((r) => opts.checkouts.of(r));
  const nodes = page.map((r, i) =>
    manifestNode(catalog, r, states[i]!.state, placed.get(r.id)!, ptags.get(r.project) ?? {}),
  );

  let edges = declaredDependencies(catalog);
  const inferredWanted = enriched && opts.includeInferred !== false;
  let inferredCount = 0;
  if (inferredWanted && opts.inferred) {
    const inferred = (
      await opts.inferred(
        catalog,
        all.map((r) => r.id),
      )
    ).map((e) => ({ ...e, source: 'inferred' as const }));
    inferredCount = inferred.length;
    edges = [...edges, ...inferred];
  }
  edges = withConsumers(edges);
  const counts = dependencyCounts(edges);
  for (const n of nodes) Object.assign(n.dependencies, counts.get(n.id) ?? {});

  let enrichment: TerrainResult['enrichment'] = null;
  if (enriched) {
    enrichment = await enrichNodes(
      nodes,
      page.map((r, i) => {
        const s = states[i]!;
        return { repo: r, dir: s.state === 'present' ? s.dir : undefined };
      }),
      {
        now: opts.now,
        parallel: opts.parallel,
        includePipelines: Boolean(opts.includePipelines),
        activityCache: opts.activityCache,
        agentDirs: opts.agentDirs ?? [],
        onProgress: opts.onProgress,
      },
    );
  }

  const onPage = new Set(nodes.map((n) => n.id));
  const counted = new Map<string, number>();
  for (const r of all) counted.set(r.project, (counted.get(r.project) ?? 0) + 1);
  const end = offset + nodes.length;
  return {
    ok: true,
    fetched_at: opts.now.toISOString(),
    detail_level: opts.detail,
    project_filter: opts.project ?? null,
    include_pipelines: Boolean(opts.includePipelines),
    include_inferred: opts.includeInferred !== false,
    total: all.length,
    offset,
    limit,
    node_count: nodes.length,
    truncated: end < all.length,
    next_offset: end < all.length ? end : null,
    projects: [...counted].map(([name, repo_count]) => ({ name, repo_count })),
    nodes,
    dependencies: edges.filter((e) => onPage.has(e.from_id) || onPage.has(e.to_id)),
    regions,
    inferred: {
      requested: inferredWanted,
      available: Boolean(inferredWanted && opts.inferred),
      edge_count: inferredCount,
    },
    enrichment,
  };
}
