// The rows both repository views show: the workspace list's pages, flattened, each with its absolute checkout
// path, its tags merged with its project's, and what the Explorer filter matches on, computed once per load.
import { useMemo } from 'react';
import {
  type ListProject,
  type ListRepo,
  type Tags,
  useGitIndex,
  useWorkspaceIndex,
} from '../../api/workspace-page';
import { joinPath } from './editors';
import { type FilterableRow, indexRow } from './explorer-filter';

export interface WorkspaceRow extends ListRepo {
  /** Project tags under the repo's own (the repo's win). */
  mergedTags: Tags;
  projectDescription: string | null;
  /** Absolute checkout path (for the open actions); null until the workspace root is known. */
  absPath: string | null;
  filter: FilterableRow;
}

export interface RepoIndex {
  rows: WorkspaceRow[];
  byId: ReadonlyMap<string, WorkspaceRow>;
  projects: ListProject[];
  total: number;
  root: string | null;
  /** Every page has arrived. */
  complete: boolean;
  synced: number;
}

export function buildIndex(
  pages: readonly { repos: ListRepo[]; projects: ListProject[]; total: number }[],
  root: string | null,
  complete: boolean,
): RepoIndex {
  const projects = pages[0]?.projects ?? [];
  const projectByName = new Map(projects.map((p) => [p.name, p]));
  const rows: WorkspaceRow[] = [];
  const byId = new Map<string, WorkspaceRow>();
  let synced = 0;
  for (const page of pages)
    for (const r of page.repos) {
      const project = projectByName.get(r.project);
      const row: WorkspaceRow = {
        ...r,
        mergedTags: { ...(project?.tags ?? {}), ...r.tags },
        projectDescription: project?.description ?? null,
        absPath: root ? joinPath(root, r.path) : null,
        filter: indexRow(r, project),
      };
      if (r.exists) synced++;
      rows.push(row);
      byId.set(r.id, row);
    }
  return { rows, byId, projects, total: pages[0]?.total ?? 0, root, complete, synced };
}

/** The repository index and its git state (asked for once the rows say some checkout is on disk). */
export function useRepoIndex() {
  const list = useWorkspaceIndex();
  const pages = list.data?.pages;
  const complete = list.isSuccess && !list.hasNextPage;
  const index = useMemo(
    () => (pages ? buildIndex(pages, pages[0]?.workspace?.root ?? null, complete) : undefined),
    [pages, complete],
  );
  const git = useGitIndex(complete && (index?.synced ?? 0) > 0);
  return { list, index, git };
}
