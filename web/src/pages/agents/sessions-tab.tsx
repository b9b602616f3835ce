// Sessions: the digest of what changed since the last session boundary (new commits, uncommitted work) for the
// workspace or one project, and the active objective (the one set on the session, else the most recently
// updated in-progress objective). GET /v3/ops/session is a pure read: only `session begin` moves the boundary.
import { useId, useMemo, useState } from 'react';
import { type RepoChange, useObjectives, useSessionDigest } from '../../api/agents';
import { useRepos } from '../../api/workspace';
import { Badge } from '../../components/badge';
import { QueryState } from '../../components/query-state';
import { RelativeTime } from '../../components/relative-time';
import { VirtualTable } from '../../components/virtual-table';
import { ObjectiveCard } from './objectives-tab';

function state(c: RepoChange) {
  if (c.error) return <Badge tone="danger">{c.error}</Badge>;
  if (!c.is_git_repo) return <Badge>not a git repository</Badge>;
  if (c.dirty) return <Badge tone="warn">{c.changes} uncommitted</Badge>;
  return <Badge tone="ok">clean</Badge>;
}

const COLUMNS = [
  {
    key: 'repo',
    header: 'Repository',
    width: '14rem',
    render: (c: RepoChange) => <code>{c.repository}</code>,
  },
  { key: 'branch', header: 'Branch', width: '10rem', render: (c: RepoChange) => c.branch ?? '—' },
  { key: 'state', header: 'Working tree', width: '10rem', render: state },
  { key: 'commits', header: 'New commits', width: '10rem', render: (c: RepoChange) => c.commit_count },
  {
    key: 'subjects',
    header: 'Recent commits',
    render: (c: RepoChange) => (
      <span title={c.recent_subjects.join('\n')}>{c.recent_subjects.join(' · ') || '—'}</span>
    ),
  },
];

function ActiveObjective({ id, refetchInterval }: { id: string | null; refetchInterval: number | false }) {
  const objectives = useObjectives(refetchInterval);
  if (!id)
    return <p className="muted">No active objective: none is set on the session and none is in progress.</p>;
  const o = objectives.data?.objectives.find((x) => x.id === id);
  return o ? (
    <ObjectiveCard o={o} active />
  ) : (
    <p>
      <code>{id}</code>
    </p>
  );
}

export function SessionsTab({ refetchInterval }: { refetchInterval: number | false }) {
  const id = useId();
  const [project, setProject] = useState('');
  const [changedOnly, setChangedOnly] = useState(false);
  const repos = useRepos();
  const projects = useMemo(() => [...new Set((repos.data?.repos ?? []).map((r) => r.project))], [repos.data]);
  const digest = useSessionDigest(project || undefined, refetchInterval);
  return (
    <div className="sessions">
      <div className="sessions__controls">
        <label htmlFor={`${id}-project`}>
          Project{' '}
          <select id={`${id}-project`} value={project} onChange={(e) => setProject(e.target.value)}>
            <option value="">All projects</option>
            {projects.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          <input type="checkbox" checked={changedOnly} onChange={(e) => setChangedOnly(e.target.checked)} />{' '}
          Only repositories with changes
        </label>
      </div>
      <QueryState query={digest} label="Reading the session digest…">
        {(d) => {
          const rows = changedOnly
            ? d.repo_changes.filter((c) => c.commit_count > 0 || c.dirty)
            : d.repo_changes;
          const changed = d.repo_changes.filter((c) => c.commit_count > 0 || c.dirty).length;
          return (
            <>
              <section className="digest" aria-labelledby={`${id}-digest`}>
                <h2 id={`${id}-digest`}>Digest</h2>
                <ul className="stats">
                  <li>
                    {d.first_session ? (
                      'First session: no boundary yet, everything counts as new'
                    ) : (
                      <>
                        Since the last session, <RelativeTime iso={d.since} />
                      </>
                    )}
                  </li>
                  <li>
                    <strong>{changed}</strong> of {d.repo_changes.length} repositories changed
                  </li>
                  <li>
                    {d.manifest_changed ? (
                      <Badge tone="warn">manifest changed</Badge>
                    ) : (
                      <Badge>manifest unchanged</Badge>
                    )}
                  </li>
                </ul>
                {d.truncated && (
                  <p className="warn-note">
                    Only the first 200 repositories are read; narrow it to a project.
                  </p>
                )}
              </section>
              <section aria-labelledby={`${id}-active`}>
                <h2 id={`${id}-active`}>Active objective</h2>
                <ActiveObjective id={d.active_objective_id} refetchInterval={refetchInterval} />
              </section>
              <section aria-labelledby={`${id}-changes`}>
                <h2 id={`${id}-changes`}>Repositories</h2>
                <VirtualTable
                  rows={rows}
                  columns={COLUMNS}
                  rowKey={(c) => c.repository}
                  label="Repository changes since the last session"
                  height="50vh"
                  empty="No repository has changed since the last session."
                />
              </section>
            </>
          );
        }}
      </QueryState>
    </div>
  );
}
