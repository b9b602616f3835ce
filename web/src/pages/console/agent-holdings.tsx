// Worktrees and leases per agent: one virtualised table, rows grouped by agent (liveness from the agents
// registry), each worktree with where it stands and each lease with its task, branch and expiry.
import { useId, useMemo, useState } from 'react';
import {
  type AgentRecord,
  type Lease,
  useAgentRegistry,
  useLeases,
  useWorktrees,
  type Worktree,
} from '../../api/console';
import { Badge } from '../../components/badge';
import { ErrorBanner } from '../../components/error-banner';
import { Loading } from '../../components/loading';
import { RelativeTime } from '../../components/relative-time';
import { type Column, VirtualTable } from '../../components/virtual-table';

export interface HoldingRow {
  key: string;
  agent: string;
  live: boolean | undefined;
  kind: 'worktree' | 'lease';
  repository: string;
  task: string;
  branch: string | null;
  state: string;
  expires: string | null | undefined;
  path?: string;
}

/** Worktrees and leases as rows sorted by agent, then kind, repository and task. */
export function holdingRows(
  worktrees: readonly Worktree[],
  leases: readonly Lease[],
  agents: readonly AgentRecord[],
): HoldingRow[] {
  const live = new Map(agents.map((a) => [a.agent_id, a.live]));
  const rows: HoldingRow[] = [
    ...worktrees.map((w) => ({
      key: `w:${w.id}`,
      agent: w.agent_id,
      live: live.get(w.agent_id),
      kind: 'worktree' as const,
      repository: w.repository,
      task: w.task_id,
      branch: w.branch,
      state: w.state ?? w.status,
      expires: w.expires_at,
      path: w.current_path ?? w.path,
    })),
    ...leases.map((l) => ({
      key: `l:${l.lease_id}`,
      agent: l.agent_id,
      live: live.get(l.agent_id),
      kind: 'lease' as const,
      repository: l.repository,
      task: l.task_id,
      branch: l.branch,
      state: l.status,
      expires: l.expires_at,
    })),
  ];
  return rows.sort(
    (a, b) =>
      a.agent.localeCompare(b.agent) ||
      a.kind.localeCompare(b.kind) ||
      a.repository.localeCompare(b.repository) ||
      a.task.localeCompare(b.task),
  );
}

const STATE_TONE: Record<string, 'ok' | 'warn' | 'danger' | 'neutral'> = {
  present: 'ok',
  active: 'ok',
  moved: 'warn',
  missing: 'danger',
  pruned: 'danger',
  expired: 'warn',
  elsewhere: 'neutral',
};

const COLUMNS: Column<HoldingRow>[] = [
  {
    key: 'agent',
    header: 'Agent',
    width: '10rem',
    render: (r) => (
      <span>
        <strong>{r.agent}</strong>{' '}
        {r.live === undefined ? null : (
          <Badge tone={r.live ? 'ok' : 'neutral'}>{r.live ? 'live' : 'gone'}</Badge>
        )}
      </span>
    ),
  },
  { key: 'kind', header: 'Holds', width: '6rem', render: (r) => <Badge tone="info">{r.kind}</Badge> },
  { key: 'repo', header: 'Repository', width: '11rem', render: (r) => <code>{r.repository}</code> },
  { key: 'task', header: 'Task', width: '9rem', render: (r) => r.task },
  {
    key: 'branch',
    header: 'Branch',
    render: (r) => <code title={r.path}>{r.branch ?? (r.kind === 'worktree' ? 'detached' : '—')}</code>,
  },
  {
    key: 'state',
    header: 'State',
    width: '6.5rem',
    render: (r) => <Badge tone={STATE_TONE[r.state] ?? 'neutral'}>{r.state}</Badge>,
  },
  {
    key: 'expires',
    header: 'Expires',
    width: '7rem',
    render: (r) => <RelativeTime iso={r.expires} empty="—" />,
  },
];

export function AgentHoldings({ refetchInterval }: { refetchInterval: number | false }) {
  const id = useId();
  const worktrees = useWorktrees(refetchInterval);
  const leases = useLeases(refetchInterval);
  const agents = useAgentRegistry(refetchInterval);
  const [agent, setAgent] = useState('');
  const rows = useMemo(
    () => holdingRows(worktrees.data?.worktrees ?? [], leases.data?.leases ?? [], agents.data?.agents ?? []),
    [worktrees.data, leases.data, agents.data],
  );
  const names = useMemo(() => [...new Set(rows.map((r) => r.agent))], [rows]);
  const shown = agent ? rows.filter((r) => r.agent === agent) : rows;
  const failed = worktrees.error ?? leases.error;
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>
        Worktrees and leases by agent{' '}
        {worktrees.data && leases.data && (
          <span className="muted">
            ({worktrees.data.worktrees.length} worktrees, {leases.data.leases.length} leases, {names.length}{' '}
            agents)
          </span>
        )}
      </h2>
      <label className="filter" htmlFor={`${id}-agent`}>
        Agent{' '}
        <select id={`${id}-agent`} value={agent} onChange={(e) => setAgent(e.target.value)}>
          <option value="">All agents</option>
          {names.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        </select>
      </label>
      {failed ? (
        <ErrorBanner
          error={failed}
          onRetry={() => {
            void worktrees.refetch();
            void leases.refetch();
          }}
        />
      ) : worktrees.isPending || leases.isPending ? (
        <Loading label="Loading worktrees and leases…" />
      ) : (
        <VirtualTable
          rows={shown}
          columns={COLUMNS}
          rowKey={(r) => r.key}
          label="Worktrees and leases by agent"
          height="40vh"
          empty="No agent holds a worktree or a lease."
        />
      )}
    </section>
  );
}
