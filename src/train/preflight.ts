import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkBranchName } from '../acl/index.js';
import { runGit, ValidationError } from '../infra/index.js';
import { branchHeads, checkedOutAt, gitWords } from '../merge/index.js';
import { MAX_TRAIN_ROWS, type TrainCause, type TrainRow } from './schema.js';

/** One row with the heads read before anything is merged; `blocked` when it cannot be integrated at all. */
export interface Prepared {
  row: TrainRow;
  branchSha: string | undefined;
  oldSha: string | undefined;
  blocked?: TrainCause;
}

const realRoot = (root: string) => {
  try {
    return realpathSync(root);
  } catch {
    return root;
  }
};

/**
 * Refuses a train that cannot mean one thing: no rows, too many, a name git would not take as a branch, a branch
 * landing on itself, or two rows moving the same target of the same checkout (merge rollup puts several branches
 * on one target first).
 */
export function checkRows(rows: readonly TrainRow[]): void {
  if (rows.length === 0)
    throw new ValidationError('rows: name at least one repository to land', {
      field: 'rows',
      rule: 'at least one row',
    });
  if (rows.length > MAX_TRAIN_ROWS)
    throw new ValidationError(`rows: ${rows.length} repositories; a train lands at most ${MAX_TRAIN_ROWS}`, {
      field: 'rows',
      value: rows.length,
      rule: `at most ${MAX_TRAIN_ROWS}`,
    });
  const seen = new Map<string, string>();
  rows.forEach((r, i) => {
    checkRow(r, i, seen);
  });
}

/**
 * One row of a train, checked as checkRows checks it: its branch names, a branch that is not its own target, and
 * a target no earlier row (`seen`, filled here) lands on.
 */
export function checkRow(r: TrainRow, i: number, seen: Map<string, string>): void {
  checkBranchName(r.branch, `rows[${i}].branch`);
  checkBranchName(r.into, `rows[${i}].into`);
  if (r.branch === r.into)
    throw new ValidationError(`rows[${i}].branch: '${r.branch}' is its own target (${r.repository})`, {
      field: `rows[${i}].branch`,
      value: r.branch,
      rule: 'branch differs from into',
    });
  const key = `${realRoot(r.root)}\0${r.into}`;
  const first = seen.get(key);
  if (first !== undefined)
    throw new ValidationError(
      `rows[${i}]: ${r.repository} lands on '${r.into}' twice (also ${first}); one row per target: merge rollup the branches into one first`,
      { field: `rows[${i}]`, value: r.repository, rule: 'one row per target' },
    );
  seen.set(key, `rows[${i}]`);
}

/** The cause for a target checked out in some worktree: integrate's rule, so a train never moves one either. */
export function checkedOutCause(row: TrainRow, worktrees: string[]): TrainCause {
  return {
    code: 'target_checked_out',
    message: `the branch '${row.into}' of ${row.repository} is checked out in ${worktrees.join(', ')}; a train never moves a checked-out branch (that checkout's files and index would no longer match its HEAD): switch that checkout to another branch (git switch --detach), or land on another branch`,
    worktrees,
  };
}

/** Reads the heads of one row (one git call for both) and whether its target is checked out anywhere. */
export async function prepare(row: TrainRow): Promise<Prepared> {
  const [heads, worktrees] = await Promise.all([
    branchHeads(row.root, [row.branch, row.into]),
    checkedOutAt(row.root, row.into),
  ]);
  const branchSha = heads.get(row.branch);
  const oldSha = heads.get(row.into);
  const out: Prepared = { row, branchSha, oldSha };
  if (!branchSha)
    out.blocked = {
      code: 'branch_missing',
      message: `the branch '${row.branch}' does not exist in ${row.repository}`,
    };
  else if (!oldSha)
    out.blocked = {
      code: 'target_missing',
      message: `the target branch '${row.into}' does not exist in ${row.repository}; create it first (git branch -- ${row.into} <base>)`,
    };
  else if (worktrees.length > 0) out.blocked = checkedOutCause(row, worktrees);
  return out;
}

/** True when `sha` is already contained in `target` (nothing to merge). */
export async function contains(root: string, target: string, sha: string): Promise<boolean> {
  const r = await runGit(['merge-base', '--is-ancestor', sha, target], { cwd: root });
  return r.code === 0;
}

/**
 * The files merging `sha` into `target` would conflict on, found by `git merge-tree --write-tree`: no worktree, no
 * ref, no index is touched, and the objects it makes go to a temporary object folder (the repository's own is an
 * alternate, read only), removed after, so a preview (`campaign status` on GET) leaves the repository as it was.
 * A git error is returned as such.
 */
export async function predictConflicts(
  root: string,
  target: string,
  sha: string,
): Promise<{ files: string[] } | { error: string }> {
  const where = await runGit(['rev-parse', '--path-format=absolute', '--git-path', 'objects'], { cwd: root });
  if (where.code !== 0) return { error: gitWords(where) };
  const scratch = mkdtempSync(join(tmpdir(), 'hub-merge-tree-'));
  let r: Awaited<ReturnType<typeof runGit>>;
  try {
    r = await runGit(['merge-tree', '--write-tree', '--name-only', '--no-messages', '-z', target, sha], {
      cwd: root,
      extraEnv: { GIT_OBJECT_DIRECTORY: scratch, GIT_ALTERNATE_OBJECT_DIRECTORIES: where.stdout.trim() },
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (r.code > 1) return { error: gitWords(r) };
  const parts = r.stdout.split('\0').filter(Boolean);
  return { files: r.code === 1 ? [...new Set(parts.slice(1))].sort() : [] };
}
