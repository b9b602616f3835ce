import { lstatSync, unlinkSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import {
  AmbiguousError,
  NotFoundError,
  RefusedError,
  realpathOrUndefined,
  resolveReal,
  runGit,
} from '../infra/index.js';
import { listAgents } from './agents.js';
import { recordAclEvent } from './events.js';
import { isLive } from './liveness.js';
import type { RepoTarget } from './repository-ref.js';
import { commonDirOf, gitRefused, locateWorktree, type WorktreeState } from './worktrees-git.js';
import { releasePorts } from './worktrees-ports.js';
import {
  eventData,
  readWorktreeRecords,
  recordKey,
  updateWorktrees,
  type WorktreeDeps,
  type WorktreeRecord,
} from './worktrees-record.js';
import { type Blocker, blockersOf, describeBlockers } from './worktrees-safety.js';

/** Resolves a record's repository id (`platform/identity`, `self`) to its checkout, as `--repository` does. */
export type RepoOf = (repositoryId: string) => Promise<RepoTarget>;

export type WorktreeAction = 'removed' | 'pruned' | 'skipped' | 'would_remove' | 'would_prune';

/** What gc or destroy did (or, dry, would do) with one worktree, and why. */
export interface WorktreeOutcome {
  id: string;
  path: string;
  current_path: string | null;
  repository: string;
  branch: string | null;
  agent_id: string;
  task_id: string;
  state: WorktreeState;
  action: WorktreeAction;
  /** What kept it (skipped), or what `--force` overrode (removed). */
  reasons: Blocker[];
  forced: boolean;
  /** Why gc considered it: `released`, `expired`, `agent_not_live`, `missing`. */
  why?: string[];
}

interface RemoveOptions {
  force: boolean;
  dryRun: boolean;
}

const outcomeOf = (
  r: WorktreeRecord,
  loc: { state: WorktreeState; current_path: string | null },
  action: WorktreeAction,
  reasons: Blocker[],
  forced = false,
): WorktreeOutcome => ({
  id: r.id,
  path: r.path,
  current_path: loc.current_path,
  repository: r.repository,
  branch: r.branch,
  agent_id: r.agent_id,
  task_id: r.task_id,
  state: loc.state,
  action,
  reasons,
  forced,
});

/**
 * Removes one recorded worktree, or says why not. A worktree git no longer knows (pruned) or whose folder is gone
 * (missing) loses its record (and git's admin entry, `git worktree prune`). One that is there (where it was, or
 * where it was moved) is checked first: uncommitted changes, untracked non-ignored files and unpushed commits
 * keep it unless `force`. Removal is `git worktree remove` run in the repository's own checkout, so git removes
 * only a worktree it knows of that repository; its refusal is reported, never worked around (no `rm -rf`).
 */
export async function removeOne(
  deps: WorktreeDeps,
  repoOf: RepoOf,
  rec: WorktreeRecord,
  opts: RemoveOptions,
): Promise<WorktreeOutcome> {
  const loc = locateWorktree(rec, deps.host);
  if (loc.state === 'elsewhere')
    return outcomeOf(rec, loc, 'skipped', [
      { reason: 'check_failed', message: `the worktree is on host ${rec.host}; remove it there` },
    ]);
  if (loc.state === 'pruned' || loc.state === 'missing') {
    if (opts.dryRun) return outcomeOf(rec, loc, 'would_prune', []);
    if (loc.state === 'missing') {
      const main = await repoOf(rec.repository).then(
        (t) => t.root,
        () => undefined,
      );
      if (main) await runGit(['worktree', 'prune'], { cwd: main });
    }
    await dropRecord(deps, rec);
    await recordAclEvent(deps, 'WorktreePruned', rec.repository, eventData(rec, { state: loc.state }));
    return outcomeOf(rec, loc, 'pruned', []);
  }
  const current = loc.current_path!;
  const main = await repoOf(rec.repository).then(
    (t) => t.root,
    () => undefined,
  );
  const mismatch = main ? (await commonDirOf(main).catch(() => '')) !== rec.common_dir : true;
  if (mismatch)
    return outcomeOf(rec, loc, 'skipped', [
      {
        reason: 'check_failed',
        message: `the record's git common dir ${rec.common_dir} is not that of ${rec.repository}'s checkout here`,
      },
    ]);
  const blockers = await blockersOf(current, rec.branch, rec.hooked);
  const blocked = blockers.length > 0;
  if (blocked && !opts.force) return outcomeOf(rec, loc, 'skipped', blockers);
  if (opts.dryRun) return outcomeOf(rec, loc, 'would_remove', blockers, blocked);
  unlinkHookSymlinks(current, rec.hooked);
  const args = ['worktree', 'remove', ...(blocked ? ['--force'] : []), '--', current];
  const r = await runGit(args, { cwd: main! });
  if (r.code !== 0) throw gitRefused(`git worktree remove ${current}`, r.stderr, main!);
  await dropRecord(deps, rec);
  await recordAclEvent(
    deps,
    'WorktreeDestroyed',
    rec.repository,
    eventData(rec, { path: current, forced: blocked, overridden: blockers.map((b) => b.reason) }),
  );
  return outcomeOf(rec, loc, 'removed', blockers, blocked);
}

/** The symlinks post_create made: removed first, since git counts a symlink to an ignored folder as untracked. */
function unlinkHookSymlinks(worktree: string, hooked: readonly string[]): void {
  for (const rel of hooked) {
    const p = resolve(worktree, rel);
    // Only a symlink whose folder lies inside the worktree: a record cannot make hub unlink anything else.
    if (resolveReal(worktree, resolve(p, '..')) === undefined) continue;
    try {
      if (lstatSync(p).isSymbolicLink()) unlinkSync(p);
    } catch {
      // Already gone.
    }
  }
}

async function dropRecord(deps: WorktreeDeps, rec: WorktreeRecord): Promise<void> {
  await updateWorktrees(deps, recordKey(rec), (doc) => {
    doc.worktrees = doc.worktrees.filter((w) => w.id !== rec.id);
  });
  // After the record: a crash in between leaves a lease no record holds, which the next creator reclaims.
  if (rec.ports?.length) await releasePorts(deps, rec.host, rec.id);
}

/** Which worktree `worktree destroy` means: its id, its folder, or agent and task (of a repository). */
export interface WorktreeSelector {
  id?: string;
  path?: string;
  cwd: string;
  target?: RepoTarget;
  agentId?: string;
  taskId?: string;
}

export async function selectWorktree(deps: WorktreeDeps, sel: WorktreeSelector): Promise<WorktreeRecord> {
  const all = await readWorktreeRecords(deps, sel.target?.key);
  const real =
    sel.path === undefined
      ? undefined
      : (realpathOrUndefined(isAbsolute(sel.path) ? sel.path : resolve(sel.cwd, sel.path)) ?? sel.path);
  const found = all.filter(
    (r) =>
      (sel.id === undefined || r.id === sel.id) &&
      (real === undefined || r.path === real || locateWorktree(r, deps.host).current_path === real) &&
      (sel.agentId === undefined || r.agent_id === sel.agentId) &&
      (sel.taskId === undefined || r.task_id === sel.taskId),
  );
  const asked = {
    id: sel.id,
    path: sel.path,
    agent_id: sel.agentId,
    task_id: sel.taskId,
    repository: sel.target?.id,
  };
  if (found.length === 0)
    throw new NotFoundError('no recorded worktree matches; see worktree list', {
      field: sel.id ? 'id' : sel.path ? 'path' : 'task_id',
      ...asked,
    });
  if (found.length > 1)
    throw new AmbiguousError(
      `${found.length} worktrees match; give --id (${found.map((f) => f.id).join(', ')})`,
      {
        ...asked,
        matches: found.map((f) => f.id),
      },
    );
  return found[0]!;
}

/**
 * `worktree destroy`: removes one worktree and its record. Uncommitted changes, untracked non-ignored files and
 * unpushed commits refuse it (409, naming each) unless `force`.
 */
export async function destroyWorktree(
  deps: WorktreeDeps,
  repoOf: RepoOf,
  sel: WorktreeSelector,
  force: boolean,
): Promise<WorktreeOutcome> {
  const rec = await selectWorktree(deps, sel);
  const out = await removeOne(deps, repoOf, rec, { force, dryRun: false });
  if (out.action === 'skipped')
    throw new RefusedError(
      `worktree ${rec.id} at ${out.current_path ?? rec.path} kept: ${describeBlockers(out.reasons)}; give --force to remove it anyway`,
      {
        rule: 'clean_worktree',
        worktree_id: rec.id,
        path: out.current_path ?? rec.path,
        reasons: out.reasons,
      },
      409,
    );
  return out;
}

export interface GcResult {
  dry_run: boolean;
  force: boolean;
  /** Records of this machine looked at. */
  considered: number;
  /** What gc did or would do with each worktree it found stale; live ones are not listed. */
  results: WorktreeOutcome[];
}

/**
 * `worktree gc`: a worktree of this machine is stale when its record is not live (released, expired), its agent
 * is not live in the agents registry, or its folder is gone. Stale ones are removed (or their record pruned)
 * unless work would be lost (see `removeOne`); `dryRun` only reports, `force` removes anyway.
 */
export async function gcWorktrees(
  deps: WorktreeDeps,
  repoOf: RepoOf,
  opts: { target?: RepoTarget; dryRun: boolean; force: boolean },
): Promise<GcResult> {
  const now = deps.now();
  const mine = (await readWorktreeRecords(deps, opts.target?.key)).filter((r) => r.host === deps.host);
  const live = new Set((await listAgents(deps)).filter((a) => a.live).map((a) => a.agent_id));
  const results: WorktreeOutcome[] = [];
  for (const rec of mine) {
    const why: string[] = [];
    if (!isLive(rec, now)) why.push(rec.status === 'active' ? 'expired' : rec.status);
    if (!live.has(rec.agent_id)) why.push('agent_not_live');
    const state = locateWorktree(rec, deps.host).state;
    if (state === 'missing' || state === 'pruned') why.push('missing');
    if (why.length === 0) continue;
    const out = await removeOne(deps, repoOf, rec, { force: opts.force, dryRun: opts.dryRun }).catch(
      (err: unknown): WorktreeOutcome => {
        const loc = locateWorktree(rec, deps.host);
        const message = err instanceof Error ? err.message : String(err);
        return outcomeOf(rec, loc, 'skipped', [{ reason: 'check_failed', message }]);
      },
    );
    results.push({ ...out, why });
  }
  return { dry_run: opts.dryRun, force: opts.force, considered: mine.length, results };
}
