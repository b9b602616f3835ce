import type { Ecosystem } from './declarations.js';
import type { ScanSkip } from './scan-repo.js';

export const NODE_KINDS = ['project', 'repo'] as const;
export const PRESENCES = ['known', 'indexed', 'materialized'] as const;
export type Presence = (typeof PRESENCES)[number];
export const EDGE_SOURCES = ['manual', 'inferred', 'structure'] as const;
export type EdgeSource = (typeof EDGE_SOURCES)[number];

/** A node of the workspace graph: a project, or a repository (of the workspace, or external). */
export interface WorkspaceNode {
  /** `project:<name>`, `repo:<project>/<repo>`, or `repo:<provider>://<org>/<repo>` for an indexed repository. */
  id: string;
  label: string;
  kind: 'project' | 'repo';
  /** Only for repositories with an external identity: known (named), indexed (org index), materialized. */
  presence?: Presence;
  /** `<project>` for a project, `<project>/<repo>` for a workspace repository, `<provider>://<org>/<repo>` else. */
  identity: string;
  /** `manifest` for projects; from the clone URL for repositories (github, gitlab, ..., `local` without one). */
  provider: string;
  project?: string;
  /** Manifest-relative checkout path; absent for an external repository (no local path). */
  path?: string;
  url?: string;
  description?: string;
}

/** One file line that proves an inferred edge. */
export interface Evidence {
  ecosystem: Ecosystem;
  /** The package, module, chart, artifact or URL the file names. */
  name: string;
  /** The file that says so, relative to the depending repository, and where. */
  file: string;
  line?: number;
  scope?: string;
  /** What the other end publishes under that name (its file), or `.hub.yml` for a URL from the manifest. */
  provided_by: { file: string; line?: number };
  /** Set when several repositories publish the name: how many (an edge goes to each, same project first). */
  candidates?: number;
}

export interface WorkspaceEdge {
  /** `structure:<repo id>`, `manual:<relationship id>`, `inferred:<from>-><to>:<type>`. */
  id: string;
  from_id: string;
  to_id: string;
  type: string;
  label?: string;
  source: EdgeSource;
  /** Manual edges: the relationship's id, status and provenance, and component endpoints when it names them. */
  relationship_id?: string;
  status?: string;
  provenance?: string;
  from_component?: string;
  to_component?: string;
  /** Inferred edges (and manual edges inference confirms): the files that prove it (first 20). */
  evidence?: Evidence[];
  evidence_count?: number;
}

/** A manual relationship to look at again: an endpoint that names nothing, or inference says otherwise. */
export interface StaleManual {
  relationship_id: string;
  reason: 'endpoint_missing' | 'contradicted';
  message: string;
  endpoint?: 'from' | 'to';
}

export interface InferenceReport {
  repos_scanned: number;
  /** Repositories not on disk (nothing to read) or outside the workspace (not read). */
  repos_missing: number;
  repos_outside: string[];
  files_read: number;
  skipped: Array<ScanSkip & { repo: string }>;
  skipped_count: number;
}

export interface WorkspaceGraph {
  ok: true;
  nodes: WorkspaceNode[];
  edges: WorkspaceEdge[];
  manual_edge_count: number;
  inferred_edge_count: number;
  structure_edge_count: number;
  stale_manual: StaleManual[];
  /** Present when inference ran. */
  inference?: InferenceReport;
}

/**
 * A repository known outside the workspace (the organization index): the port the org index fills. The graph
 * shows each as a repo node without a local path; one whose URL or `repo_id` matches a workspace repository is
 * that repository, materialized, keeping its external identity.
 */
export interface ExternalRepo {
  identity: string;
  provider: string;
  organization: string;
  name: string;
  url?: string;
  presence: Presence;
  /** `<project>/<repo>` of the workspace repository it was materialized as. */
  repo_id?: string;
  description?: string;
}
