import { mapLimit } from '../infra/index.js';
import { splitBefore } from '../workspace/index.js';
import { batchGit } from './batch-git.js';
import {
  fastForwardMany,
  judgeStatus,
  parseStatus,
  STATUS_ARGS,
  type Status,
  type SyncRow,
  type SyncTarget,
  syncRepo,
} from './sync-repo.js';

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

/** Repositories per `git for-each-repo` process: small enough that progress moves, large enough to save forks. */
export const SYNC_BATCH_SIZE = 10;

/** Statuses of the present checkouts, a batch of them per `git for-each-repo` process. */
async function batchStatuses(targets: readonly SyncTarget[], parallel: number): Promise<Status[]> {
  const results = await batchGit(
    targets.map((t) => t.dir),
    STATUS_ARGS,
    { parallel, size: SYNC_BATCH_SIZE, split: (stdout) => splitBefore(stdout, '# branch.oid ') },
  );
  return results.map((r) =>
    r.code === 0
      ? parseStatus(r.stdout)
      : { failed: { stderr: r.stderr }, head: null, branch: null, upstream: null, changes: 0 },
  );
}

/** Syncs repositories with at most `concurrency` git processes at once; rows come sorted by id. */
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
  const repoOpts = { dryRun: Boolean(opts.dryRun), timeoutMs: opts.timeoutMs ?? SYNC_GIT_TIMEOUT_MS };
  const rows: SyncRow[] = [];
  const present = targets.filter((t) => t.present);
  const statuses = await batchStatuses(present, concurrency);
  const eligible: Array<{ t: SyncTarget; s: Status }> = [];
  present.forEach((t, i) => {
    const decided = judgeStatus(t, statuses[i]!, repoOpts.dryRun);
    if (decided) rows.push(finish(decided));
    else eligible.push({ t, s: statuses[i]! });
  });
  const groups: Array<typeof eligible> = [];
  for (let i = 0; i < eligible.length; i += SYNC_BATCH_SIZE)
    groups.push(eligible.slice(i, i + SYNC_BATCH_SIZE));
  const missing = targets.filter((t) => !t.present);
  // Fetch groups and clones share the limit: each holds one git process at a time.
  await mapLimit(
    [...groups.map((g) => ({ g })), ...missing.map((m) => ({ m }))],
    concurrency,
    async (job) => {
      if ('m' in job) rows.push(finish(await syncRepo(job.m, repoOpts)));
      else
        for (const r of await fastForwardMany(
          job.g.map((x) => x.t),
          job.g.map((x) => x.s),
          repoOpts,
        ))
          rows.push(finish(r));
    },
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
