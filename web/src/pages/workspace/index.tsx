// First version of the Workspace page (the workspace engineer replaces it): the repositories of
// /v2/workspace/repos in a virtualised table.
import { useState } from 'react';
import { type RepoRow, useRepos } from '../../api/workspace';
import { Badge } from '../../components/badge';
import { QueryState } from '../../components/query-state';
import { Tabs } from '../../components/tabs';
import { type Column, VirtualTable } from '../../components/virtual-table';

type View = 'repositories' | 'explorer' | 'search' | 'graph';
const VIEWS = [
  { id: 'repositories', label: 'Repositories' },
  { id: 'explorer', label: 'Explorer' },
  { id: 'search', label: 'Search' },
  { id: 'graph', label: 'Graph' },
] as const;

const COLUMNS: readonly Column<RepoRow>[] = [
  { key: 'id', header: 'Repository', render: (r) => r.id },
  { key: 'project', header: 'Project', width: '10rem', render: (r) => r.project },
  {
    key: 'exists',
    header: 'Presence',
    width: '7rem',
    render: (r) => (r.exists ? <Badge tone="ok">synced</Badge> : <Badge tone="warn">missing</Badge>),
  },
  {
    key: 'tags',
    header: 'Tags',
    render: (r) =>
      Object.entries(r.tags)
        .map(([k, v]) => (v === true ? k : `${k}=${v}`))
        .join(' '),
  },
];

export default function WorkspacePage() {
  const [view, setView] = useState<View>('repositories');
  const repos = useRepos();
  return (
    <section>
      <h1>Workspace</h1>
      <Tabs tabs={VIEWS} value={view} onChange={setView} label="Workspace views">
        {view === 'repositories' ? (
          <QueryState query={repos} label="Loading repositories…">
            {(page) => (
              <>
                <p className="muted">{page.total} repositories</p>
                <VirtualTable label="Repositories" rows={page.repos} columns={COLUMNS} rowKey={(r) => r.id} />
              </>
            )}
          </QueryState>
        ) : (
          <p className="muted">This view is not built yet.</p>
        )}
      </Tabs>
    </section>
  );
}
