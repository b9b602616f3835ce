import type { CiDescriptor, CiFileDetail, CiProvider } from '../ci/index.js';

export const TERRAIN_DETAILS = ['manifest', 'enriched'] as const;
export type TerrainDetail = (typeof TERRAIN_DETAILS)[number];

export const TERRAIN_DEFAULT_LIMIT = 500;
/** The spec's limit (Limits: Terrain `limit` max 5000). */
export const TERRAIN_MAX_LIMIT = 5000;

export type BranchKind = 'default' | 'develop' | 'hotfix' | 'feature' | 'detached' | 'other';

/** Git state of one checkout, from one `git status --porcelain=v2 --branch` (and the head commit's time). */
export interface TerrainGit {
  branch: string | null;
  /** The manifest's `default_branch`, else what origin/HEAD names, else null. */
  default_branch: string | null;
  branch_kind: BranchKind | null;
  head: string | null;
  /** Upstream tracking branch (`origin/main`), null when none. */
  upstream: string | null;
  /** Commits ahead of / behind the upstream; null without one. */
  ahead: number | null;
  behind: number | null;
  /** Anything changed, staged, untracked or unmerged. */
  dirty: boolean;
  /** Every status entry (staged, modified, untracked, unmerged). */
  uncommitted_count: number;
  staged_count: number;
  modified_count: number;
  untracked_count: number;
  /** Unmerged paths (a merge, rebase or cherry-pick stopped on conflicts). */
  merge_conflicts: number;
  detached_head: boolean;
  head_commit_at: string | null;
  head_commit_age_days: number | null;
  /** Why git could not say (the first line git printed). */
  error?: string;
}

export type ActivityLevel = 'active' | 'recent' | 'inactive' | 'abandoned';

/** Commit recency of HEAD's history. */
export interface TerrainActivity {
  last_commit_at: string | null;
  commits_24h: number;
  commits_7d: number;
  commits_30d: number;
  /** More commits in the last 30 days than were counted (the count is a floor). */
  capped: boolean;
  /** active: a commit in 24 h; recent: in 7 days; inactive: in 30 days; abandoned: none in 30 days. */
  level: ActivityLevel;
  /** Animation strength of the activity pulse, 0..1. */
  pulse: number;
}

export interface InstalledAgentDir {
  vendor: string;
  /** Repository-relative folder. */
  path: string;
  /** Agent files (agent vendors) or skill folders (skill vendors) in it. */
  count: number;
}

/** What a coding agent finds in the checkout and the manifest. File fields are null in `manifest` detail. */
export interface TerrainAgent {
  has_agent_instructions: boolean;
  has_agent_profile: boolean;
  has_agents_md: boolean | null;
  has_claude_md: boolean | null;
  has_llms_txt: boolean | null;
  has_copilot_instructions: boolean | null;
  has_readme: boolean | null;
  has_docs: boolean | null;
  installed_agents: InstalledAgentDir[] | null;
  /** AGENTS.md .5 + llms.txt .25 + README .15 + docs/ .1 (capped at 1); null in `manifest` detail. */
  documentation_score: number | null;
  /** ready: instructions an agent reads (AGENTS.md, CLAUDE.md, copilot instructions or manifest instructions); partial: only docs; none. */
  readiness: 'ready' | 'partial' | 'none' | null;
}

/** The CI beacon: what the manifest records and which systems the checkout's files belong to. */
export interface TerrainCi {
  declared: CiDescriptor | null;
  /** Systems whose configuration files are in the checkout; null in `manifest` detail or without a checkout. */
  detected: CiProvider[] | null;
  /** declared | detected | both | mismatch (declared provider not among detected) | none; null when unknown. */
  beacon: 'declared' | 'detected' | 'both' | 'mismatch' | 'none' | null;
  /** The declared file is not in the checkout (null when unknown). */
  config_missing: boolean | null;
}

/** With include_pipelines: what each CI file names. hub makes no network calls, so run status stays unknown. */
export interface TerrainPipeline {
  status: 'unknown';
  providers: Array<{ provider: CiProvider; files: CiFileDetail[] }>;
}

export interface Ownership {
  team: string | null;
  owner: string | null;
  /** What the heatmap colours by: team, else owner. */
  key: string;
  source: 'repo_tags' | 'project_tags';
}

export interface Coordinates {
  x: number;
  y: number;
  /** Elevation (the visual's), 0 in `manifest` detail. */
  z: number;
  region: string;
}

export interface TerrainVisual {
  state: string;
  state_label: string;
  /** Bulge (local work) above 0, depression (behind remote) below; clamped to [-3, 4]. */
  elevation: number;
  darken: number;
  fade: number;
  /** 1 draws conflict cracks. */
  crack: number;
  pulse: number;
  /** Colour group of the tile: the state, or the branch kind on a non-default branch. */
  color: string;
}

export interface DependencyCounts {
  declared_in: number;
  declared_out: number;
  inferred_in: number;
  inferred_out: number;
  /** Same-repository component depends_on edges. */
  internal: number;
}

export interface TerrainNode {
  id: string;
  repo_id: string;
  project_name: string;
  repo_name: string;
  label: string;
  description: string | null;
  /** Checkout folder relative to the workspace root. */
  repo_path: string;
  /** `path` as the manifest writes it; null for url-only repositories. */
  configured_path: string | null;
  url: string | null;
  exists: boolean;
  local_status: 'synced' | 'configured_missing' | 'outside_workspace';
  /** Null in `manifest` detail (no look at `.git`). */
  is_git_repo: boolean | null;
  tags: Record<string, string | number | boolean>;
  ownership: Ownership | null;
  components: number;
  coordinates: Coordinates;
  ci: TerrainCi;
  pipeline: TerrainPipeline | null;
  git: TerrainGit | null;
  activity: TerrainActivity | null;
  agent: TerrainAgent;
  dependencies: DependencyCounts;
  visual: TerrainVisual;
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
  /** Inferred edges: the file that proves it. */
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

export interface TerrainResult {
  ok: true;
  fetched_at: string;
  detail_level: TerrainDetail;
  project_filter: string | null;
  include_pipelines: boolean;
  include_inferred: boolean;
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
  /** Inferred edges: whether a source was wired in (see inferredDependencies) and how many it gave. */
  inferred: { requested: boolean; available: boolean; edge_count: number };
  /** Enriched only: how git was run. */
  enrichment: { parallel: number; git_repos: number; git_errors: number } | null;
}
