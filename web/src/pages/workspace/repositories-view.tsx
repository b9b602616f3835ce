// Repositories: every repository with its project, path, presence, git state and tags, and counts on top.
import { useMemo } from 'react';
import { Link } from 'wouter';
import type { GitIndex } from '../../api/workspace-page';
import { type Column, VirtualTable } from '../../components/virtual-table';
import { OpenStatus, RowOpenActions, useOpenAction } from './open-actions';
import { GitCell, Presence, TagList } from './repo-cells';
import type { RepoIndex, WorkspaceRow } from './repo-index';

interface GitCounts {
  dirty: number;
  ahead: number;
  behind: number;
  conflicts: number;
}

function countGit(git: GitIndex | undefined): GitCounts | undefined {
  if (!git) return undefined;
  const c = { dirty: 0, ahead: 0, behind: 0, conflicts: 0 };
  for (const g of git.byId.values()) {
    if (!g) continue;
    if (g.dirty) c.dirty++;
    if (g.ahead) c.ahead++;
    if (g.behind) c.behind++;
    if (g.merge_conflicts) c.conflicts++;
  }
  return c;
}

const n = (x: number) => x.toLocaleString('en');

export function RepositoriesView({
  index,
  git,
  gitLoading,
  onRefresh,
}: {
  index: RepoIndex;
  git: GitIndex | undefined;
  gitLoading: boolean;
  onRefresh: () => void;
}) {
  const counts = useMemo(() => countGit(git), [git]);
  const { open, outcome, pending, clear } = useOpenAction();
  const columns = useMemo<Column<WorkspaceRow>[]>(
    () => [
      {
        key: 'repo',
        header: 'Repository',
        width: '11rem',
        render: (r) => (
          <Link href={`/explorer?repo=${encodeURIComponent(r.id)}`} title={r.description ?? undefined}>
            {r.repo}
          </Link>
        ),
      },
      { key: 'project', header: 'Project', width: '9rem', render: (r) => r.project },
      { key: 'path', header: 'Path', render: (r) => <code title={r.absPath ?? r.path}>{r.path}</code> },
      { key: 'presence', header: 'Presence', width: '6.5rem', render: (r) => <Presence row={r} /> },
      { key: 'git', header: 'Git', width: '11rem', render: (r) => <GitCell row={r} git={git} /> },
      {
        key: 'tags',
        header: 'Tags',
        wrap: true,
        minWidth: '14rem',
        render: (r) => <TagList tags={r.mergedTags} />,
      },
      {
        key: 'open',
        header: 'Open',
        width: '14rem',
        render: (r) => <RowOpenActions row={r} onOpen={open} pending={pending === r.id} />,
      },
    ],
    [git, open, pending],
  );
  return (
    <div className="ws-repos">
      <div className="ws-toolbar">
        <ul className="stats" aria-label="Counts">
          <li>
            <strong>{n(index.total)}</strong> repositories
          </li>
          <li>
            <strong>{n(index.projects.length)}</strong> projects
          </li>
          {index.complete && (
            <>
              <li>
                <strong>{n(index.synced)}</strong> synced
              </li>
              <li>
                <strong>{n(index.total - index.synced)}</strong> not on disk
              </li>
            </>
          )}
          {counts && (
            <li>
              git: <strong>{n(counts.dirty)}</strong> with changes, <strong>{n(counts.ahead)}</strong> ahead,{' '}
              <strong>{n(counts.behind)}</strong> behind, <strong>{n(counts.conflicts)}</strong> in conflict
            </li>
          )}
          {!index.complete && <li className="muted">loading {n(index.total)} rows…</li>}
          {index.complete && gitLoading && <li className="muted">git state loading…</li>}
        </ul>
        <button type="button" onClick={onRefresh}>
          Refresh
        </button>
      </div>
      <OpenStatus outcome={outcome} onClear={clear} />
      <VirtualTable
        label="Repositories"
        rows={index.rows}
        columns={columns}
        rowKey={(r) => r.id}
        rowHeight={34}
        height="calc(100vh - 15rem)"
        empty="This workspace has no repository yet."
      />
    </div>
  );
}
