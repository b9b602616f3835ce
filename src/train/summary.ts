import type { TrainOutcome, TrainReport, TrainRowReport } from './schema.js';

/** Outcomes that stop a train (or, in a dry run, would). */
const STOPPING: ReadonlySet<TrainOutcome> = new Set([
  'blocked',
  'conflict',
  'validation_failed',
  'failed',
  'moved_elsewhere',
]);

const repositories = (n: number) => `${n} ${n === 1 ? 'repository' : 'repositories'}`;

/** The report of a train from its rows: whether it landed, what moved, who stopped it, and one sentence. */
export function summarize(dryRun: boolean, rows: TrainRowReport[]): TrainReport {
  const stopped = rows.filter((r) => STOPPING.has(r.outcome));
  const stopped_by = stopped.map((r) => r.repository);
  const not_restored = rows.filter((r) => r.outcome === 'rollback_blocked').map((r) => r.repository);
  const moved = rows.filter((r) => r.outcome === 'landed').length;
  const upToDate = rows.filter((r) => r.outcome === 'up_to_date').length;
  const causes = stopped.map((r) => `${r.repository} (${r.cause?.code ?? r.outcome})`).join(', ');
  let message: string;
  if (dryRun)
    message =
      stopped.length === 0
        ? `would land ${repositories(rows.length - upToDate)}${upToDate > 0 ? ` (${upToDate} already up to date)` : ''}; nothing was changed`
        : `would stop at ${causes}; nothing was changed`;
  else if (stopped.length === 0)
    message = `landed ${repositories(moved)}${upToDate > 0 ? ` (${upToDate} already up to date)` : ''}`;
  else if (not_restored.length === 0) message = `nothing moved: stopped by ${causes}`;
  else
    message = `stopped by ${causes}; ${not_restored.join(', ')} could not be put back (moved again by someone else) and stayed as they set it`;
  return {
    dry_run: dryRun,
    landed: !dryRun && stopped.length === 0 && not_restored.length === 0,
    moved,
    stopped_by,
    not_restored,
    rows,
    message,
  };
}
