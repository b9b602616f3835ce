import { mapLimit } from '../infra/index.js';
import { type SyncRow, type SyncTarget, syncRepo } from './sync-repo.js';

export const SYNC_DEFAULT_CONCURRENCY = 8;
export const SYNC_MAX_CONCURRENCY = 32;
/** One clone or fetch may take this long before it is stopped and reported as failed. */
export const SYNC_GIT_TIMEOUT_MS = 10 * 60_000;

export interface SyncCounts {
  cloned: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
  would_clone: number;
  would_fetch: number;
}

export interface SyncSummary {
  total: number;
  counts: SyncCounts;
  repos: SyncRow[];
}

export interface SyncReposOptions {
  concurrency?: number;
  dryRun?: boolean;
  timeoutMs?: number;
  /** Called as each repository finishes (progress bars, log lines). */
  onDone?: (row: SyncRow, done: number, total: number) => void;
}

/** Rows that were decided before any git ran (outside the workspace, a second entry for one checkout). */
export type PresetRow = SyncRow;

/** Syncs repositories with at most `concurrency` git processes at once; rows keep the input order. */
export async function syncRepos(
  targets: readonly SyncTarget[],
  preset: readonly PresetRow[],
  opts: SyncReposOptions = {},
): Promise<SyncSummary> {
  const total = targets.length + preset.length;
  let done = 0;
  const finish = (r: SyncRow) => {
    done++;
    opts.onDone?.(r, done, total);
    return r;
  };
  preset.forEach(finish);
  const concurrency = Math.min(
    SYNC_MAX_CONCURRENCY,
    Math.max(1, opts.concurrency ?? SYNC_DEFAULT_CONCURRENCY),
  );
  const rows = await mapLimit(targets, concurrency, async (t) =>
    finish(
      await syncRepo(t, { dryRun: Boolean(opts.dryRun), timeoutMs: opts.timeoutMs ?? SYNC_GIT_TIMEOUT_MS }),
    ),
  );
  const all = [...rows, ...preset].sort((a, b) => a.id.localeCompare(b.id));
  const counts: SyncCounts = {
    cloned: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    failed: 0,
    would_clone: 0,
    would_fetch: 0,
  };
  for (const r of all) counts[r.action]++;
  return { total, counts, repos: all };
}
