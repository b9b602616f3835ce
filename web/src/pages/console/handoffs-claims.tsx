// Open handoffs (open or claimed, an expired claim shown released as every listing shows it) and live file
// claims, each with its holder and when it expires.
import { useId } from 'react';
import { type Claim, type Handoff, useClaims, useHandoffs } from '../../api/console';
import { Badge } from '../../components/badge';
import { ErrorBanner } from '../../components/error-banner';
import { Loading } from '../../components/loading';
import { QueryState } from '../../components/query-state';
import { RelativeTime } from '../../components/relative-time';
import { type Column, VirtualTable } from '../../components/virtual-table';

const HANDOFF_COLUMNS: Column<Handoff>[] = [
  {
    key: 'title',
    header: 'Handoff',
    render: (h) => (
      <span title={`${h.title}\n${h.id}`}>
        {h.title} <code className="muted">{h.id}</code>
      </span>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    width: '6rem',
    render: (h) => <Badge tone={h.status === 'claimed' ? 'info' : 'neutral'}>{h.status}</Badge>,
  },
  {
    key: 'holder',
    header: 'Holder',
    width: '8rem',
    render: (h) => h.claimed_by ?? <span className="muted">—</span>,
  },
  {
    key: 'expires',
    header: 'Expires',
    width: '7rem',
    render: (h) =>
      h.status === 'claimed' ? (
        <RelativeTime iso={h.claim_expires_at} empty="never" />
      ) : (
        <span className="muted">—</span>
      ),
  },
  { key: 'from', header: 'From', width: '6rem', render: (h) => h.created_by },
];

const CLAIM_COLUMNS: Column<Claim>[] = [
  { key: 'repo', header: 'Repository', width: '11rem', render: (c) => <code>{c.repository}</code> },
  {
    key: 'patterns',
    header: 'Paths',
    render: (c) => <code title={c.patterns.join('\n')}>{c.patterns.join(', ')}</code>,
  },
  { key: 'holder', header: 'Holder', width: '8rem', render: (c) => c.agent_id },
  {
    key: 'task',
    header: 'Task',
    width: '8rem',
    render: (c) => c.task_id ?? <span className="muted">—</span>,
  },
  {
    key: 'expires',
    header: 'Expires',
    width: '7rem',
    render: (c) => <RelativeTime iso={c.expires_at} empty="never" />,
  },
];

export function HandoffsAndClaims({ refetchInterval }: { refetchInterval: number | false }) {
  const id = useId();
  const open = useHandoffs('open', refetchInterval);
  const claimed = useHandoffs('claimed', refetchInterval);
  const claims = useClaims(refetchInterval);
  // Claimed first (someone holds them), then open.
  const handoffs = [...(claimed.data?.handoffs ?? []), ...(open.data?.handoffs ?? [])];
  return (
    <>
      <section className="panel" aria-labelledby={`${id}-handoffs`}>
        <h2 id={`${id}-handoffs`}>
          Open handoffs {open.data && claimed.data && <span className="muted">({handoffs.length})</span>}
        </h2>
        {open.isError || claimed.isError ? (
          <ErrorBanner
            error={open.error ?? claimed.error}
            onRetry={() => {
              void open.refetch();
              void claimed.refetch();
            }}
          />
        ) : open.isPending || claimed.isPending ? (
          <Loading label="Loading handoffs…" />
        ) : (
          <VirtualTable
            rows={handoffs}
            columns={HANDOFF_COLUMNS}
            rowKey={(h) => h.id}
            label="Open handoffs"
            height="35vh"
            empty="No open handoffs."
          />
        )}
      </section>
      <section className="panel" aria-labelledby={`${id}-claims`}>
        <h2 id={`${id}-claims`}>
          Claims {claims.data && <span className="muted">({claims.data.claims.length})</span>}
        </h2>
        <QueryState query={claims} label="Loading claims…">
          {(d) => (
            <VirtualTable
              rows={d.claims}
              columns={CLAIM_COLUMNS}
              rowKey={(c) => c.claim_id}
              label="Live claims"
              height="35vh"
              empty="No live claims."
            />
          )}
        </QueryState>
      </section>
    </>
  );
}
