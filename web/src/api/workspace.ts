// Hooks of the workspace routes the shell and the Workspace page's first version use.
import { useRoute, useWholeList } from './query';

export interface WorkspaceSummary {
  workspace_name: string;
  manifest_valid: boolean;
  counts: { projects: number; repos: number; present: number; components: number };
}

export interface RepoRow {
  id: string;
  project: string;
  repo: string;
  path: string;
  url: string | null;
  exists: boolean;
  tags: Record<string, string | boolean | number>;
  components: number;
}

export interface RepoPage {
  total: number;
  offset: number;
  repos: RepoRow[];
  next_offset?: number | null;
  truncated?: boolean;
}

/** GET /v2/workspace/summary: the workspace name shown in the header, and counts. */
export function useWorkspaceSummary() {
  return useRoute<WorkspaceSummary>('/v2/workspace/summary', undefined, { staleTime: 60_000 });
}

/** GET /v2/workspace/repos: slim rows of every repository (every page of them). */
export function useRepos(query?: { project?: string }) {
  return useWholeList<RepoPage>('/v2/workspace/repos', 'repos', query);
}
