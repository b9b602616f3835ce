import { readAllocations } from './branches.js';
import { checkedOutBranches, deleteHead, headOf } from './branches-git.js';
import { recordAclEvent } from './events.js';
import { readLeases } from './leases.js';
import { isLive } from './liveness.js';
import type { AclDeps } from './records.js';
import type { RepoTarget } from './repository-ref.js';

export interface CleanupResult {
  dry_run: boolean;
  /** Git branches deleted (or, with dry_run, that would be), with the commit each pointed at. */
  deleted: Array<{ name: string; head: string }>;
  /** Released names whose git branch stays, and why. */
  skipped: Array<{ name: string; reason: string }>;
}

/**
 * Deletes the git branches of released allocations in the checkout at `target.root`: only branches hub created for
 * an allocation (`created_head`; not one found, adopted or refused by git), never one that is allocated again, leased by a live lease or checked out in any worktree (`git worktree list`).
 * `git branch -d` keeps a branch whose commits are not merged (its words are the reason) unless `force` (`-D`).
 * Each deletion is a BranchDeleted event. The allocation is read again just before each deletion.
 */
export async function cleanupBranches(
  deps: AclDeps,
  target: RepoTarget & { root: string },
  opts: { dryRun: boolean; force: boolean; by?: string },
): Promise<CleanupResult> {
  const out: CleanupResult = { dry_run: opts.dryRun, deleted: [], skipped: [] };
  // By name: whether hub created a released allocation's branch (and git did not refuse it).
  const released = new Map<string, boolean>();
  for (const a of await readAllocations(deps, target.key))
    if (a.status === 'released') {
      const ours = a.created_head && !a.release_reason?.startsWith('git_failed');
      released.set(a.name, (released.get(a.name) ?? false) || ours);
    }
  if (released.size === 0) return out;
  const checkedOut = await checkedOutBranches(target.root);
  for (const [name, ours] of [...released].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const skip = (reason: string) => out.skipped.push({ name, reason });
    if (!ours) {
      if ((await headOf(target.root, name)) !== undefined)
        skip('hub did not create it (found, adopted or recorded with --no-git)');
      continue;
    }
    const now = deps.now();
    if ((await readAllocations(deps, target.key)).some((a) => a.name === name && a.status === 'active')) {
      skip('allocated again');
      continue;
    }
    if ((await readLeases(deps, target.key)).some((l) => l.branch === name && isLive(l, now))) {
      skip('a live lease is on it');
      continue;
    }
    const head = await headOf(target.root, name);
    if (head === undefined) continue;
    if (checkedOut.has(name)) {
      skip('checked out in a worktree');
      continue;
    }
    if (opts.dryRun) {
      out.deleted.push({ name, head });
      continue;
    }
    const r = await deleteHead(target.root, name, opts.force);
    if (!r.deleted) {
      skip(r.reason ?? 'git refused');
      continue;
    }
    out.deleted.push({ name, head });
    await recordAclEvent(deps, 'BranchDeleted', target.id, {
      name,
      head,
      forced: opts.force,
      ...(opts.by ? { by: opts.by } : {}),
    });
  }
  return out;
}
