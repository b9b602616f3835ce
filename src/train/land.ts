import { headOf } from '../acl/index.js';
import { mapLimit } from '../infra/index.js';
import {
  casRef,
  checkedOutAt,
  gitIdentity,
  type MergeSettings,
  type MergeStep,
  mergeStep,
  withTempWorktree,
} from '../merge/index.js';
import {
  checkedOutCause,
  checkRows,
  contains,
  type Prepared,
  predictConflicts,
  prepare,
} from './preflight.js';
import {
  MAX_CAUSE_FILES,
  type TrainCause,
  type TrainReport,
  type TrainRow,
  type TrainRowReport,
} from './schema.js';
import { summarize } from './summary.js';

/** What a train needs: the environment its commands run with, a temp folder, and the merge settings. */
export interface TrainDeps {
  env: Readonly<Record<string, string | undefined>>;
  /** Folder the temporary merge worktrees are made in. */
  tmpRoot: string;
  /** `merge.validators` (each an argv, run without a shell in the temporary worktree) and `merge.regenerate`. */
  settings: MergeSettings;
  /** Repositories read and integrated at once (default 4); the moves are always made one by one, in row order. */
  concurrency?: number;
}

const DEFAULT_CONCURRENCY = 4;

export interface TrainInput {
  rows: TrainRow[];
  dry_run?: boolean;
}

const REFLOG = 'hub merge train';

function baseReport(p: Prepared): TrainRowReport {
  return {
    repository: p.row.repository,
    branch: p.row.branch,
    into: p.row.into,
    branch_sha: p.branchSha ?? null,
    old_sha: p.oldSha ?? null,
    new_sha: null,
    target_sha: p.oldSha ?? null,
    outcome: 'held',
  };
}

/**
 * Lands every row's branch on its target as one unit. Each merge is integrated in a temporary worktree of its
 * repository (at the target's head, detached) and validated there; only when every repository succeeded do the
 * targets move, each by compare-and-swap on its ref. When a move fails (someone else moved that target), the
 * targets already moved are put back by compare-and-swap, and one moved again meanwhile is reported, never
 * overwritten. A target checked out in any worktree is never moved. Checkouts are never touched; temporary
 * worktrees are always removed. `dry_run` reads heads and predicts conflicts, and changes nothing.
 */
export async function landTrain(deps: TrainDeps, input: TrainInput): Promise<TrainReport> {
  checkRows(input.rows);
  const limit = Math.max(1, deps.concurrency ?? DEFAULT_CONCURRENCY);
  // Every head is read before anything is merged: what the targets are moved from is fixed here.
  const prepared = await mapLimit(input.rows, limit, prepare);
  if (input.dry_run) return summarize(true, await mapLimit(prepared, limit, planRow));
  // Every repository is integrated, even after one failed, so the report names every cause at once.
  const rows = await mapLimit(prepared, limit, (p) => integrateRow(deps, p));
  if (rows.every((r) => r.outcome === 'held' || r.outcome === 'up_to_date'))
    await moveAll(rows, prepared, limit);
  return summarize(false, rows);
}

async function planRow(p: Prepared): Promise<TrainRowReport> {
  const out = baseReport(p);
  if (p.blocked) return { ...out, outcome: 'blocked', cause: p.blocked };
  const { root } = p.row;
  if (await contains(root, p.oldSha!, p.branchSha!))
    return { ...out, outcome: 'up_to_date', new_sha: p.oldSha! };
  const predicted = await predictConflicts(root, p.oldSha!, p.branchSha!);
  if ('error' in predicted)
    return { ...out, outcome: 'blocked', cause: { code: 'git_error', message: predicted.error } };
  if (predicted.files.length > 0) {
    const n = predicted.files.length;
    return {
      ...out,
      outcome: 'conflict',
      cause: conflictCause(
        predicted.files,
        `${n} file${n === 1 ? '' : 's'} would conflict merging '${p.row.branch}' into '${p.row.into}'`,
      ),
    };
  }
  return { ...out, outcome: 'would_merge' };
}

async function integrateRow(deps: TrainDeps, p: Prepared): Promise<TrainRowReport> {
  const out = baseReport(p);
  if (p.blocked) return { ...out, outcome: 'failed', cause: p.blocked };
  const { row } = p;
  const env = {
    ...deps.env,
    HUB_TRAIN: '1',
    HUB_MERGE_REPOSITORY: row.repository,
    HUB_MERGE_SOURCE: row.branch,
    HUB_MERGE_TARGET: row.into,
  };
  const message = `Merge branch '${row.branch}' into ${row.into} (${REFLOG})`;
  let step: MergeStep;
  try {
    const identity = await gitIdentity(row.root, deps.env);
    step = await withTempWorktree(row.root, p.oldSha!, deps.tmpRoot, (wt) =>
      mergeStep(wt, p.branchSha!, message, { settings: deps.settings, env, identity }, p.oldSha),
    );
  } catch (err) {
    return { ...out, outcome: 'failed', cause: { code: 'git_error', message: (err as Error).message } };
  }
  if (step.kind === 'error')
    return { ...out, outcome: 'failed', cause: { code: 'git_error', message: step.message } };
  if (step.kind === 'conflict')
    return {
      ...out,
      outcome: 'conflict',
      cause: conflictCause(step.files, step.message),
    };
  const validation = { ok: step.validation.ok, commands: step.validation.commands };
  if (step.kind === 'validation_failed') {
    const failed = step.validation.commands.at(-1);
    const how = failed?.timed_out ? 'timed out' : `exited ${failed?.exit_code ?? failed?.signal}`;
    return {
      ...out,
      new_sha: step.sha,
      outcome: 'validation_failed',
      validation,
      cause: { code: 'validation_failed', message: `${failed?.argv.join(' ')} ${how}` },
    };
  }
  return {
    ...out,
    new_sha: step.sha,
    outcome: step.kind === 'up_to_date' ? 'up_to_date' : 'held',
    validation,
  };
}

/**
 * Moves every integrated target by compare-and-swap, in row order. The first that cannot move stops the rest
 * (left `held`) and puts back, newest first, those already moved; a target moved again by someone else since is
 * left as they set it (`rollback_blocked`).
 */
async function moveAll(rows: TrainRowReport[], prepared: Prepared[], limit: number): Promise<void> {
  const toMove = rows.flatMap((r, i) => (r.outcome === 'held' ? [i] : []));
  // Checked again: a checkout of a target made while merging must not have its branch moved under it.
  const checkedOut = await mapLimit(toMove, limit, (i) =>
    checkedOutAt(prepared[i]!.row.root, prepared[i]!.row.into),
  );
  toMove.forEach((i, k) => {
    const worktrees = checkedOut[k]!;
    if (worktrees.length > 0)
      rows[i] = { ...rows[i]!, outcome: 'failed', cause: checkedOutCause(prepared[i]!.row, worktrees) };
  });
  if (checkedOut.some((w) => w.length > 0)) return;
  const moved: number[] = [];
  for (const i of toMove) {
    const r = rows[i]!;
    const { root } = prepared[i]!.row;
    if (await casRef(root, r.into, r.new_sha!, r.old_sha!, REFLOG)) {
      rows[i] = { ...r, outcome: 'landed', target_sha: r.new_sha };
      moved.push(i);
      continue;
    }
    const now = (await headOf(root, r.into)) ?? null;
    rows[i] =
      now !== r.old_sha
        ? {
            ...r,
            outcome: 'moved_elsewhere',
            target_sha: now,
            cause: {
              code: 'target_moved',
              message: `'${r.into}' of ${r.repository} moved from ${short(r.old_sha)} to ${short(now)} during the train; it was not overwritten`,
            },
          }
        : {
            ...r,
            outcome: 'failed',
            cause: {
              code: 'ref_update_failed',
              message: `git refused to move '${r.into}' of ${r.repository} (a reference-transaction hook or a locked ref); it stays at ${short(now)}`,
            },
          };
    await putBack(rows, prepared, moved.reverse());
    return;
  }
}

async function putBack(rows: TrainRowReport[], prepared: Prepared[], moved: number[]): Promise<void> {
  for (const i of moved) {
    const r = rows[i]!;
    const { root } = prepared[i]!.row;
    if (await casRef(root, r.into, r.old_sha!, r.new_sha!, `${REFLOG}: put back`)) {
      rows[i] = { ...r, outcome: 'rolled_back', target_sha: r.old_sha };
      continue;
    }
    const now = (await headOf(root, r.into)) ?? null;
    rows[i] = {
      ...r,
      outcome: 'rollback_blocked',
      target_sha: now,
      cause: {
        code: 'moved_after_landing',
        message: `'${r.into}' of ${r.repository} was moved by the train to ${short(r.new_sha)}, then by someone else to ${short(now)}; it was not put back to ${short(r.old_sha)} (that would overwrite their change)`,
      },
    };
  }
}

const short = (sha: string | null) => (sha ? sha.slice(0, 12) : '(deleted)');

/**
 * A conflict's cause: its files, at most MAX_CAUSE_FILES of them (a report is read by people and agents, and a
 * campaign's preview answers a GET), the message saying how many there are when the list is cut.
 */
function conflictCause(files: readonly string[], message: string): TrainCause {
  if (files.length <= MAX_CAUSE_FILES) return { code: 'conflict', message, files: [...files] };
  return {
    code: 'conflict',
    message: `${message} (${files.length} files; the first ${MAX_CAUSE_FILES} listed)`,
    files: files.slice(0, MAX_CAUSE_FILES),
  };
}
