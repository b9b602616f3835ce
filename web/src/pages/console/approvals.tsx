// Pending approvals with Approve and Deny: each decision is confirmed in a dialog (with an optional note and who
// decides), sent to POST /v3/ops/approvals/{id}/resolve, and the queue and the events feed are read again.
import { useId, useState } from 'react';
import { type ApprovalRequest, usePendingApprovals, useResolveApproval } from '../../api/console';
import { liveFeed } from '../../api/live-events';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { QueryState } from '../../components/query-state';
import { RelativeTime } from '../../components/relative-time';
import { type Column, VirtualTable } from '../../components/virtual-table';

type Decision = 'approved' | 'denied';

function payloadText(p: Record<string, unknown>): string {
  const s = JSON.stringify(p);
  return s === '{}' ? '—' : s;
}

export function Approvals({ refetchInterval }: { refetchInterval: number | false }) {
  const id = useId();
  const approvals = usePendingApprovals(refetchInterval);
  const resolve = useResolveApproval();
  const [asking, setAsking] = useState<{ request: ApprovalRequest; decision: Decision } | undefined>();
  const [note, setNote] = useState('');
  const [by, setBy] = useState('');
  const [done, setDone] = useState<string | undefined>();
  const ask = (request: ApprovalRequest, decision: Decision) => {
    resolve.reset();
    setNote('');
    setAsking({ request, decision });
  };
  const columns: Column<ApprovalRequest>[] = [
    {
      key: 'action',
      header: 'Action',
      render: (r) => (
        <span title={`${r.action}\n${r.id}`}>
          <strong>{r.action}</strong> <code className="muted">{r.id}</code>
        </span>
      ),
    },
    { key: 'by', header: 'Requested by', width: '9rem', render: (r) => r.requested_by },
    { key: 'at', header: 'Requested', width: '7.5rem', render: (r) => <RelativeTime iso={r.created_at} /> },
    {
      key: 'payload',
      header: 'Payload',
      width: '10rem',
      render: (r) => <code title={JSON.stringify(r.payload, null, 2)}>{payloadText(r.payload)}</code>,
    },
    {
      key: 'decide',
      header: <span className="sr-only">Decision</span>,
      width: '10.5rem',
      render: (r) => (
        <span className="row-actions">
          <button type="button" aria-label={`Approve ${r.action}`} onClick={() => ask(r, 'approved')}>
            Approve
          </button>
          <button type="button" aria-label={`Deny ${r.action}`} onClick={() => ask(r, 'denied')}>
            Deny
          </button>
        </span>
      ),
    },
  ];
  const verb = asking?.decision === 'approved' ? 'Approve' : 'Deny';
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>
        Pending approvals{' '}
        {approvals.data && <span className="muted">({approvals.data.requests.length})</span>}
      </h2>
      {done && (
        <p className="ok-note" role="status">
          {done}
        </p>
      )}
      <QueryState query={approvals} label="Loading approvals…">
        {(d) => (
          <VirtualTable
            rows={d.requests}
            columns={columns}
            rowKey={(r) => r.id}
            label="Pending approvals"
            height="30vh"
            rowHeight={40}
            empty="Nothing waits for approval."
          />
        )}
      </QueryState>
      <ConfirmDialog
        open={asking !== undefined}
        title={asking ? `${verb} “${asking.request.action}”?` : ''}
        confirmLabel={verb}
        tone={asking?.decision === 'denied' ? 'danger' : 'default'}
        busy={resolve.isPending}
        error={resolve.error ?? undefined}
        onCancel={() => setAsking(undefined)}
        onConfirm={() => {
          if (!asking) return;
          const { request, decision } = asking;
          resolve.mutate(
            { id: request.id, decision, note: note.trim() || undefined, by: by.trim() || undefined },
            {
              onSuccess: (r) => {
                setAsking(undefined);
                setDone(`${r.request.id} ${r.request.status}: ${r.request.action}`);
                void liveFeed.refresh();
              },
            },
          );
        }}
      >
        {asking && (
          <>
            <p>
              Requested by <strong>{asking.request.requested_by}</strong>,{' '}
              <RelativeTime iso={asking.request.created_at} />. A decision is final: resolving twice is
              refused.
            </p>
            {Object.keys(asking.request.payload).length > 0 && (
              <pre className="payload">{JSON.stringify(asking.request.payload, null, 2)}</pre>
            )}
            <label>
              Note (optional)
              <textarea rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
            </label>
            <label>
              Decided by (optional)
              <input value={by} onChange={(e) => setBy(e.target.value)} placeholder="your name" />
            </label>
          </>
        )}
      </ConfirmDialog>
    </section>
  );
}
