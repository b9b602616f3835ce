// Routes of the Workspace page (Repositories, Explorer, Search, Graph) and their types: the repository index in
// pages, git state from enriched terrain, metadata search and content grep, the workspace and component graphs,
// and the default open action.
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { api } from './client';
import { useRoute, useWholeList } from './query';

export type TagValue = string | number | boolean;
export type Tags = Record<string, TagValue>;

/** One repository of `GET /v2/workspace/list`. */
export interface ListRepo {
  id: string;
  project: string;
  repo: string;
  /** Checkout folder relative to the workspace root. */
  path: string;
  url: string | null;
  description: string | null;
  status: 'synced' | 'missing';
  exists: boolean;
  tags: Tags;
  components: number;
}

export interface ListProject {
  name: string;
  description: string | null;
  repo_count: number;
  /** The project's own tags (absent on a server older than this UI). */
  tags?: Tags;
}

export interface WorkspaceListPage {
  total: number;
  offset: number;
  limit: number;
  truncated: boolean;
  next_offset: number | null;
  projects: ListProject[];
  repos: ListRepo[];
  workspace?: { name: string | null; root: string };
}

/** The first page is small so rows show at once; the rest come in the route's largest pages. */
export const FIRST_PAGE = 500;
export const NEXT_PAGE = 5000;

/**
 * Every repository of the workspace, page after page of `GET /v2/workspace/list` (no git: presence only). The
 * next page is fetched as soon as one arrives; `pages` grows until `hasNextPage` is false.
 */
export function useWorkspaceIndex() {
  const q = useInfiniteQuery({
    queryKey: ['/v2/workspace/list', 'all'],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) =>
      api<WorkspaceListPage>('/v2/workspace/list', {
        query:
          pageParam === 0
            ? { limit: FIRST_PAGE, include_workspace: true }
            : { offset: pageParam, limit: NEXT_PAGE },
        signal,
      }),
    getNextPageParam: (last) => last.next_offset ?? undefined,
  });
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = q;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  return q;
}

/** Git state of one checkout, from enriched terrain (null fields: not known). */
export interface GitState {
  branch: string | null;
  default_branch: string | null;
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
  head_commit_age_days: number | null;
  error?: string;
}

interface TerrainGitNode {
  repo_id: string;
  is_git_repo: boolean | null;
  git: GitState | null;
}

interface TerrainGitPage {
  total: number;
  next_offset: number | null;
  nodes: TerrainGitNode[];
}

export interface GitIndex {
  /** repo id -> git state; null: no git repository there (or no checkout). */
  byId: ReadonlyMap<string, GitState | null>;
  complete: boolean;
}

/**
 * Git state of every checkout: `GET /v3/ops/terrain?detail=enriched` in pages of 5,000 (the only route that runs
 * git status), without inferred arcs. Asked for only when `enabled` (some checkout is on disk).
 */
export function useGitIndex(enabled: boolean) {
  const q = useInfiniteQuery({
    queryKey: ['/v3/ops/terrain', { detail: 'enriched', include_inferred: false }],
    initialPageParam: 0,
    enabled,
    queryFn: ({ pageParam, signal }) =>
      api<TerrainGitPage>('/v3/ops/terrain', {
        query: { detail: 'enriched', include_inferred: false, limit: 5000, offset: pageParam || undefined },
        signal,
      }),
    getNextPageParam: (last) => last.next_offset ?? undefined,
  });
  const { hasNextPage, isFetchingNextPage, isError, fetchNextPage } = q;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  const index = useMemo<GitIndex | undefined>(() => {
    if (!q.data) return undefined;
    const byId = new Map<string, GitState | null>();
    for (const page of q.data.pages) for (const n of page.nodes) byId.set(n.repo_id, n.git);
    return { byId, complete: !q.hasNextPage };
  }, [q.data, q.hasNextPage]);
  return { ...q, index };
}

export interface SearchHit {
  type: 'project' | 'repo' | 'component';
  id: string;
  path: string;
  score: number;
  matched: string[];
}

export interface SearchResult {
  query: string;
  total: number;
  results: SearchHit[];
}

/** `GET /v2/workspace/search`: manifest metadata (names, paths, tags, descriptions, urls). */
export function useMetadataSearch(query: string) {
  return useRoute<SearchResult>('/v2/workspace/search', { query, limit: 100 }, { enabled: query.length > 0 });
}

export interface GrepMatch {
  repository: string;
  path: string;
  line: number;
  text: string;
}

export interface GrepResult {
  query: string;
  backend: string;
  matches: GrepMatch[];
  truncated: boolean;
  limit: number;
  repos_searched: number;
  repos_missing: string[];
  repos_refused: string[];
}

export interface GrepOptions {
  regex: boolean;
  ignoreCase: boolean;
}

/** `GET /v2/workspace/grep`: file contents of the checkouts, bounded. */
export function useGrep(q: string, opts: GrepOptions) {
  return useRoute<GrepResult>(
    '/v2/workspace/grep',
    { q, regex: opts.regex || undefined, ignore_case: opts.ignoreCase || undefined, limit: 200 },
    { enabled: q.length > 0 },
  );
}

export interface InferredEvidence {
  ecosystem?: string;
  name?: string;
  file: string;
  line?: number;
  scope?: string;
  provided_by?: { file: string; line?: number };
}

export type EdgeSource = 'manual' | 'inferred' | 'structure';

export interface GraphNode {
  id: string;
  label: string;
  kind: 'project' | 'repo' | string;
  identity?: string;
  project?: string;
  path?: string;
  url?: string;
  description?: string;
}

export interface GraphEdge {
  id: string;
  from_id: string;
  to_id: string;
  type: string;
  label?: string;
  source: EdgeSource;
  status?: string;
  relationship_id?: string;
  from_component?: string;
  to_component?: string;
  evidence?: InferredEvidence[];
  evidence_count?: number;
}

export interface WorkspaceGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
  manual_edge_count: number;
  inferred_edge_count: number;
  structure_edge_count: number;
}

/** `GET /v3/ops/graph` with every source: the view filters sources itself, so a toggle needs no new call. */
export function useWorkspaceGraph(enabled = true) {
  return useRoute<WorkspaceGraph>('/v3/ops/graph', undefined, { enabled });
}

export interface ComponentRow {
  id: string;
  project: string;
  repo: string;
  name: string;
  kind?: string;
  path: string;
  /** Names of components of the same repository it depends on. */
  depends_on?: string[];
}

export function useComponents() {
  return useWholeList<{ components: ComponentRow[] }>('/v3/ops/components', 'components');
}

export interface ComponentGraphNode {
  id: string;
  kind: 'component' | 'repo' | string;
  identity: string;
  project?: string;
  repo?: string;
  component?: string;
  path?: string;
  distance: number;
}

export interface ComponentGraphEdge {
  from: string;
  to: string;
  type: string;
  origin: 'declared' | 'depends_on' | string;
  relationship_id?: string;
  status?: string;
}

export interface ComponentGraph {
  origin: string;
  depth: number;
  direction: string;
  nodes: ComponentGraphNode[];
  edges: ComponentGraphEdge[];
}

export type GraphDirection = 'both' | 'out' | 'in';

/** `GET /v3/ops/components/graph`: the neighbourhood of one component. */
export function useComponentGraph(component: string, depth: number, direction: GraphDirection) {
  return useRoute<ComponentGraph>(
    '/v3/ops/components/graph',
    { component, depth, direction },
    { enabled: component.length > 0 },
  );
}

export interface OpenResult {
  opened: boolean;
  repository: string;
  path: string;
  editor: string;
}

/** `POST /v3/ops/open`: the configured editor on a managed checkout (the default open action). */
export function useOpenRepo() {
  return useMutation({
    mutationFn: (path: string) => api<OpenResult>('/v3/ops/open', { method: 'POST', body: { path } }),
  });
}
