// Hooks of the workspace routes the shell and the Workspace page's first version use.
import { useRoute } from './query';

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
}

/** GET /v2/workspace/summary: the workspace name shown in the header, and counts. */
export function useWorkspaceSummary() {
  return useRoute<WorkspaceSummary>('/v2/workspace/summary', undefined, { staleTime: 60_000 });
}

/** GET /v2/workspace/repos: slim rows of every repository. */
export function useRepos(query?: { project?: string; limit?: number; offset?: number }) {
  return useRoute<RepoPage>('/v2/workspace/repos', query);
}
