import type { OpRunner } from './op-runner.js';

/** One repository as `workspace repo list` reports it. */
export interface RepoRow {
  id: string;
  project: string;
  repo: string;
  path: string;
  url: string | null;
  exists: boolean;
  tags: Record<string, string>;
  components: number;
}

interface RepoPage {
  repos: RepoRow[];
  next_offset: number | null;
}

/**
 * Every repository in scope, through the registry's `workspace.repo.list` a page at a time (an unknown project or
 * repository fails there, with the nearest names).
 */
export async function listRepoRows(
  ops: OpRunner,
  scope: { project?: string; repo?: string } = {},
): Promise<RepoRow[]> {
  const rows: RepoRow[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const { result }: { result: RepoPage } = await ops.run<RepoPage>('workspace.repo.list', {
      ...scope,
      limit: 500,
      offset,
    });
    rows.push(...result.repos);
    offset = result.next_offset;
  }
  return rows;
}

/** Projects in manifest order, each with its repositories. */
export function projectsOf(rows: RepoRow[]): Map<string, RepoRow[]> {
  const by = new Map<string, RepoRow[]>();
  for (const r of rows) {
    const list = by.get(r.project);
    if (list) list.push(r);
    else by.set(r.project, [r]);
  }
  return by;
}

/** The preview of a repository shown under the finder's list. */
export function repoPreview(r: RepoRow): string {
  const tags = Object.entries(r.tags)
    .map(([k, v]) => (v ? `${k}=${v}` : k))
    .join(', ');
  return [
    `${r.id}: ${r.exists ? 'on disk' : 'not on disk (hub project sync)'}, ${r.components} component(s)`,
    `path: ${r.path}`,
    ...(r.url ? [`url:  ${r.url}`] : []),
    ...(tags ? [`tags: ${tags}`] : []),
  ].join('\n');
}
