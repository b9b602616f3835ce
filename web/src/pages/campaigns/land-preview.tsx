// What `campaign land` would do now: the dry run the status answer carries in `landing` (the train's report:
// per repository the branch, the target, its old and new commit, the outcome and the cause of a stop). The page
// only reads it; landing stays `hub campaign land` (or POST /v3/ops/campaigns/{slug}/land), which moves every target or none.
import { useId } from 'react';
import type { TrainReport, TrainRowReport } from '../../api/campaigns';
import { Badge, type BadgeTone } from '../../components/badge';
import { type Column, VirtualTable } from '../../components/virtual-table';

const OUTCOME_TONE: Partial<Record<TrainRowReport['outcome'], BadgeTone>> = {
  would_merge: 'ok',
  landed: 'ok',
  up_to_date: 'neutral',
  held: 'neutral',
  blocked: 'warn',
  conflict: 'danger',
  validation_failed: 'danger',
  failed: 'danger',
  moved_elsewhere: 'warn',
  rolled_back: 'warn',
  rollback_blocked: 'danger',
};

const short = (sha: string | null) => (sha ? sha.slice(0, 8) : '—');

const COLUMNS: Column<TrainRowReport>[] = [
  { key: 'repo', header: 'Repository', width: '11rem', render: (r) => <code>{r.repository}</code> },
  {
    key: 'branch',
    header: 'Branch',
    minWidth: '11rem',
    wrap: true,
    render: (r) => (
      <span title={r.branch_sha ?? 'missing'}>
        <code>{r.branch}</code> <code className="muted">{short(r.branch_sha)}</code>
      </span>
    ),
  },
  {
    key: 'target',
    header: 'Target',
    minWidth: '11rem',
    wrap: true,
    // A dry run names the target's commit now; a landing also the commit it moved to.
    render: (r) => (
      <span title={`${r.old_sha ?? 'none'}${r.new_sha ? ` → ${r.new_sha}` : ''}`}>
        <code>{r.into}</code> <code className="muted">{short(r.old_sha)}</code>
        {r.new_sha && r.new_sha !== r.old_sha && (
          <>
            {' '}
            → <code>{short(r.new_sha)}</code>
          </>
        )}
      </span>
    ),
  },
  {
    key: 'outcome',
    header: 'Outcome',
    width: '8rem',
    render: (r) => <Badge tone={OUTCOME_TONE[r.outcome] ?? 'neutral'}>{r.outcome}</Badge>,
  },
  {
    key: 'cause',
    header: 'Cause',
    minWidth: '14rem',
    wrap: true,
    render: (r) =>
      r.cause ? (
        <div className="cmp-cause">
          <span>
            <code>{r.cause.code}</code> {r.cause.message}
          </span>
          {r.cause.files && r.cause.files.length > 0 && (
            <ul className="cmp-files" aria-label={`Files of ${r.repository}`}>
              {r.cause.files.map((f) => (
                <li key={f}>
                  <code>{f}</code>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : (
        <span className="muted">—</span>
      ),
  },
];

export function LandPreview({ landing, allMerged }: { landing: TrainReport | null; allMerged: boolean }) {
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>Land preview</h3>
      {landing === null ? (
        <p>{allMerged ? 'Every row is merged: nothing to land.' : 'No land preview in this answer.'}</p>
      ) : (
        <>
          <p className="cmp-land-summary">
            {landing.landed ? <Badge tone="ok">would land</Badge> : <Badge tone="danger">would stop</Badge>}{' '}
            {landing.message}
          </p>
          <p className="muted cmp-note">
            A dry run: nothing moved. <code>hub campaign land</code> moves every target or none.
          </p>
          <VirtualTable
            rows={landing.rows}
            columns={COLUMNS}
            rowKey={(r) => r.repository}
            label="Land preview rows"
            height="45vh"
            empty="No row to land."
          />
        </>
      )}
    </section>
  );
}
