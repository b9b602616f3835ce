// A campaign's progress: one bar split by row status (merged first, then open merge requests, routed, pending,
// blocked), with the merged share in its accessible name and each part's count in the legend, so the colours are
// never the only way to read it.
import type { CampaignSummary, RowStatus } from '../../api/campaigns';

type Counts = Pick<
  CampaignSummary,
  'repo_count' | 'pending_count' | 'routed_count' | 'open_mr_count' | 'merged_count' | 'blocked_count'
>;

export const STATUS_ORDER: readonly RowStatus[] = ['merged', 'mr-open', 'routed', 'pending', 'blocked'];

export function countOf(c: Counts, s: RowStatus): number {
  switch (s) {
    case 'merged':
      return c.merged_count;
    case 'mr-open':
      return c.open_mr_count;
    case 'routed':
      return c.routed_count;
    case 'pending':
      return c.pending_count;
    case 'blocked':
      return c.blocked_count;
  }
}

/** "3 of 5 merged" with the other statuses after it. */
export function progressText(c: Counts): string {
  const others = STATUS_ORDER.slice(1)
    .map((s) => [s, countOf(c, s)] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${n} ${s}`);
  return `${c.merged_count} of ${c.repo_count} merged${others.length ? `; ${others.join(', ')}` : ''}`;
}

export function Progress({ counts, legend = false }: { counts: Counts; legend?: boolean }) {
  const total = counts.repo_count;
  const text = progressText(counts);
  return (
    <div className="cmp-progress">
      <div
        className="cmp-progress__bar"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={counts.merged_count}
        aria-valuetext={text}
        aria-label="Rows merged"
        title={text}
      >
        {total > 0 &&
          STATUS_ORDER.map((s) => {
            const n = countOf(counts, s);
            return n > 0 ? (
              <span
                key={s}
                className={`cmp-progress__part cmp-status--${s}`}
                style={{ width: `${(100 * n) / total}%` }}
              />
            ) : null;
          })}
      </div>
      {legend ? (
        <ul className="cmp-progress__legend" aria-label="Rows by status">
          {STATUS_ORDER.map((s) => (
            <li key={s}>
              <span className={`cmp-swatch cmp-status--${s}`} aria-hidden="true" />
              {s} <strong>{countOf(counts, s)}</strong>
            </li>
          ))}
        </ul>
      ) : (
        <span className="cmp-progress__text">
          {counts.merged_count}/{total}
        </span>
      )}
    </div>
  );
}
