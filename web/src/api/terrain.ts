// GET /v3/ops/terrain for the Repository Terrain page: every page of `detail=manifest` first (no git: the tiles
// appear at once, at the server's layout; a small first page, then the rest), then every page of
// `detail=enriched` (git, CI, activity, agent readiness, inferred arcs), each enriched page replacing its
// repositories' manifest rows as it arrives.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { api } from './client';

export type TerrainDetail = 'manifest' | 'enriched';
export type BranchKind = 'default' | 'develop' | 'hotfix' | 'feature' | 'detached' | 'other';

export interface TerrainGit {
  branch: string | null;
  default_branch: string | null;
  branch_kind: BranchKind | null;
  head: string | null;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
  dirty: boolean;
  uncommitted_count: number;
  staged_count: number;
  modified_count: number;
  untracked_count: number;
  merge_conflicts: number;
  detached_head: boolean;
  head_commit_at: string | null;
  head_commit_age_days: number | null;
  error?: string;
}

export interface TerrainActivity {
  last_commit_at: string | null;
  commits_24h: number;
  commits_7d: number;
  commits_30d: number;
  capped: boolean;
  level: 'active' | 'recent' | 'inactive' | 'abandoned';
  pulse: number;
}

export interface TerrainAgent {
  has_agent_instructions: boolean;
  has_agent_profile: boolean;
  has_agents_md: boolean | null;
  has_claude_md: boolean | null;
  has_llms_txt: boolean | null;
  has_copilot_instructions: boolean | null;
  has_readme: boolean | null;
  has_docs: boolean | null;
  installed_agents: Array<{ vendor: string; path: string; count: number }> | null;
  documentation_score: number | null;
  readiness: 'ready' | 'partial' | 'none' | null;
}

export type CiBeacon = 'declared' | 'detected' | 'both' | 'mismatch' | 'none';

export interface TerrainCi {
  declared: { provider: string; workflow?: string; pipeline?: string; url?: string } | null;
  detected: string[] | null;
  beacon: CiBeacon | null;
  config_missing: boolean | null;
}

export interface TerrainNode {
  id: string;
  repo_id: string;
  project_name: string;
  repo_name: string;
  label: string;
  description: string | null;
  repo_path: string;
  configured_path: string | null;
  url: string | null;
  exists: boolean;
  local_status: 'synced' | 'configured_missing' | 'outside_workspace';
  is_git_repo: boolean | null;
  tags: Record<string, string | number | boolean>;
  ownership: { team: string | null; owner: string | null; key: string; source: string } | null;
  components: number;
  coordinates: { x: number; y: number; z: number; region: string };
  ci: TerrainCi;
  pipeline: { status: string; providers: Array<{ provider: string; files: unknown[] }> } | null;
  git: TerrainGit | null;
  activity: TerrainActivity | null;
  agent: TerrainAgent;
  dependencies: {
    declared_in: number;
    declared_out: number;
    inferred_in: number;
    inferred_out: number;
    internal: number;
  };
  visual: {
    state: string;
    state_label: string;
    elevation: number;
    darken: number;
    fade: number;
    crack: number;
    pulse: number;
    color: string;
  };
}

export interface TerrainDependency {
  id: string;
  from_id: string;
  to_id: string;
  type: string;
  label: string | null;
  source: 'manual' | 'inferred';
  health: 'healthy' | 'outdated' | 'broken';
  consumer_count: number;
  evidence?: string;
}

export interface TerrainRegion {
  id: string;
  label: string;
  project_name: string;
  min_x: number;
  max_x: number;
  min_y: number;
  max_y: number;
}

export interface TerrainPage {
  ok: true;
  fetched_at: string;
  detail_level: TerrainDetail;
  project_filter: string | null;
  total: number;
  offset: number;
  limit: number;
  node_count: number;
  truncated: boolean;
  next_offset: number | null;
  projects: Array<{ name: string; repo_count: number }>;
  nodes: TerrainNode[];
  dependencies: TerrainDependency[];
  regions: TerrainRegion[];
  inferred: { requested: boolean; available: boolean; edge_count: number };
  enrichment: { parallel: number; git_repos: number; git_errors: number } | null;
}

/** What the page draws: the manifest rows with every enriched row that has arrived in their place. */
export interface TerrainData {
  nodes: TerrainNode[];
  dependencies: TerrainDependency[];
  regions: TerrainRegion[];
  projects: Array<{ name: string; repo_count: number }>;
  total: number;
  /** Enriched rows received so far (0 .. total). */
  enriched: number;
  /** `enriched` once every enriched page is in; `manifest` before. */
  detail: TerrainDetail;
}

export interface TerrainQuery {
  project?: string;
  /** Size of the first manifest page: small, so the first tiles show sooner on a big workspace. */
  firstLimit?: number;
  /** Page size of the other manifest pages (server max 5000). */
  manifestLimit?: number;
  /** Page size of the enriched pages: smaller pages show enrichment progress on big workspaces. */
  enrichedLimit?: number;
}

const PATH = '/v3/ops/terrain';

function useTerrainPages(
  detail: TerrainDetail,
  project: string | undefined,
  limits: { first: number; rest: number },
  enabled: boolean,
) {
  const query = useInfiniteQuery({
    queryKey: [PATH, { detail, project, limits }],
    queryFn: ({ pageParam, signal }) =>
      api<TerrainPage>(PATH, {
        query: { detail, project, limit: pageParam === 0 ? limits.first : limits.rest, offset: pageParam },
        signal,
      }),
    initialPageParam: 0,
    getNextPageParam: (last: TerrainPage) => last.next_offset ?? undefined,
    enabled,
    // On a reconnect only the manifest reads again by itself; the enriched pages follow its answer (above).
    refetchOnReconnect: detail === 'manifest',
    // The earlier product's: terrain never polls; the manifest is fresh for 15 s, the git state for 30 s.
    staleTime: detail === 'manifest' ? 15_000 : 30_000,
  });
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  const complete = query.isSuccess && !hasNextPage;
  return { query, complete };
}

/** Manifest first (every page), then enriched (every page, merged in as each arrives). */
export function useTerrain({
  project,
  firstLimit = 1000,
  manifestLimit = 5000,
  enrichedLimit = 2000,
}: TerrainQuery = {}) {
  // 5,000 manifest rows: one page answers in ~0.85 s, a page of 1,000 in ~0.3 s (then one more for the rest).
  const manifest = useTerrainPages('manifest', project, { first: firstLimit, rest: manifestLimit }, true);
  // Enriched only once this visit's manifest answer is in: a return visit finds both cached and stale, and the
  // manifest (read again) goes first; then enabling the enriched query reads it again (it is stale too).
  const manifestAnswered = manifest.complete && !manifest.query.isFetching;
  const enriched = useTerrainPages(
    'enriched',
    project,
    { first: enrichedLimit, rest: enrichedLimit },
    manifestAnswered,
  );

  const data = useMemo<TerrainData | undefined>(() => {
    const mPages = manifest.query.data?.pages;
    const first = mPages?.[0];
    if (!mPages || !first) return undefined;
    const nodes = mPages.flatMap((p) => p.nodes);
    const index = new Map(nodes.map((n, i) => [n.id, i]));
    const deps = new Map<string, TerrainDependency>();
    const ePages = manifest.complete ? (enriched.query.data?.pages ?? []) : [];
    let enrichedCount = 0;
    for (const p of ePages) {
      for (const n of p.nodes) {
        const i = index.get(n.id);
        if (i === undefined) continue;
        nodes[i] = n;
        enrichedCount++;
      }
    }
    // The manifest's declared arcs, then the enriched pages' (the same ids, plus the inferred arcs).
    for (const p of [...mPages, ...ePages]) for (const d of p.dependencies) deps.set(d.id, d);
    return {
      nodes,
      dependencies: [...deps.values()],
      regions: first.regions,
      projects: first.projects,
      total: first.total,
      enriched: enrichedCount,
      detail: enriched.complete ? 'enriched' : 'manifest',
    };
  }, [manifest.query.data, manifest.complete, enriched.query.data, enriched.complete]);

  return {
    data,
    manifest: manifest.query,
    enriched: enriched.query,
    error: manifest.query.error ?? enriched.query.error ?? null,
  };
}
