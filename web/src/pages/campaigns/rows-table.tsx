// A campaign's rows: repository (and role), status, the row's objective, merge request, note and board item,
// sorted by status (what needs attention first) or by repository, and narrowed to one status. A row's `mr` and
// its board item's `url` come from the file, so only http(s) URLs become links.
import { useId, useMemo, useState } from 'react';
import type { RowStatus, StatusRow } from '../../api/campaigns';
import { Badge, type BadgeTone } from '../../components/badge';
import { SafeLink } from '../../components/safe-link';
import { type Column, VirtualTable } from '../../components/virtual-table';

export const ROW_TONE: Record<RowStatus, BadgeTone> = {
  pending: 'neutral',
  routed: 'neutral',
  'mr-open': 'info',
  merged: 'ok',
  blocked: 'danger',
};

/** Status order of the "by status" sort: blocked first, merged last. */
const ATTENTION: readonly RowStatus[] = ['blocked', 'mr-open', 'routed', 'pending', 'merged'];

const OBJECTIVE_TONE: Record<string, BadgeTone> = {
  done: 'ok',
  in_progress: 'info',
  blocked: 'danger',
  cancelled: 'warn',
};

const rowRef = (r: Pick<StatusRow, 'project' | 'repo'>) => `${r.project}/${r.repo}`;

const COLUMNS: Column<StatusRow>[] = [
  {
    key: 'repo',
    header: 'Repository',
    width: '12rem',
    render: (r) => (
      <span title={rowRef(r)}>
        <code>{rowRef(r)}</code>
        {r.role && <span className="muted"> {r.role}</span>}
      </span>
    ),
  },
  {
    key: 'status',
    header: 'Status',
    width: '6.5rem',
    render: (r) => <Badge tone={ROW_TONE[r.status]}>{r.status}</Badge>,
  },
  {
    key: 'objective',
    header: 'Objective',
    width: '8rem',
    render: (r) =>
      r.objective ? (
        <span title={r.objective.id}>
          <Badge tone={OBJECTIVE_TONE[r.objective.status] ?? 'neutral'}>{r.objective.status}</Badge>
          {r.objective.approval_id && <span className="muted"> approval</span>}
        </span>
      ) : (
        <span className="muted" title="campaign expand makes one objective per row">
          none
        </span>
      ),
  },
  {
    key: 'mr',
    header: 'Merge request',
    minWidth: '10rem',
    wrap: true,
    render: (r) => (r.mr ? <SafeLink url={r.mr} /> : <span className="muted">—</span>),
  },
  {
    key: 'note',
    header: 'Note',
    minWidth: '10rem',
    wrap: true,
    render: (r) => r.note ?? <span className="muted">—</span>,
  },
  {
    key: 'board',
    header: 'Board item',
    width: '9rem',
    wrap: true,
    render: (r) =>
      r.work_item ? (
        <span title={[r.work_item.provider, r.work_item.state].filter(Boolean).join(': ')}>
          {r.work_item.url ? (
            <SafeLink url={r.work_item.url} label={`#${r.work_item.id}`} />
          ) : (
            `#${r.work_item.id}`
          )}
          {r.work_item.state && <span className="muted"> {r.work_item.state}</span>}
        </span>
      ) : (
        <span className="muted">—</span>
      ),
  },
];

type Sort = 'status' | 'repository';

export function RowsTable({ rows }: { rows: readonly StatusRow[] }) {
  const id = useId();
  const [sort, setSort] = useState<Sort>('status');
  const [only, setOnly] = useState<RowStatus | ''>('');
  const counts = useMemo(() => {
    const m = new Map<RowStatus, number>();
    for (const r of rows) m.set(r.status, (m.get(r.status) ?? 0) + 1);
    return m;
  }, [rows]);
  const shown = useMemo(() => {
    const list = only ? rows.filter((r) => r.status === only) : [...rows];
    const byRef = (a: StatusRow, b: StatusRow) => rowRef(a).localeCompare(rowRef(b));
    return sort === 'status'
      ? list.sort((a, b) => ATTENTION.indexOf(a.status) - ATTENTION.indexOf(b.status) || byRef(a, b))
      : list.sort(byRef);
  }, [rows, sort, only]);
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>
        Repositories <span className="muted">({rows.length})</span>
      </h3>
      <div className="filter cmp-row-controls">
        <label htmlFor={`${id}-sort`}>Sort by</label>
        <select id={`${id}-sort`} value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
          <option value="status">status</option>
          <option value="repository">repository</option>
        </select>
        <label htmlFor={`${id}-only`}>Show</label>
        <select id={`${id}-only`} value={only} onChange={(e) => setOnly(e.target.value as RowStatus | '')}>
          <option value="">every status ({rows.length})</option>
          {ATTENTION.map((s) => (
            <option key={s} value={s}>
              {s} ({counts.get(s) ?? 0})
            </option>
          ))}
        </select>
      </div>
      <VirtualTable
        rows={shown}
        columns={COLUMNS}
        rowKey={rowRef}
        label="Campaign rows"
        height="45vh"
        empty={rows.length === 0 ? 'This campaign has no repositories.' : 'No row has this status.'}
      />
    </section>
  );
}
