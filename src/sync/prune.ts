import { type Dirent, existsSync, lstatSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { type Blocker, blockersOf } from '../acl/index.js';
import { isInside, realpathOrUndefined, toRootRelative } from '../infra/index.js';

export type PruneAction = 'removed' | 'would_remove' | 'skipped';

/** Why a folder was kept: a guard that --force never lifts, or what --force would override. */
export type PruneReason =
  | 'dirty'
  | 'not_a_git_checkout'
  | 'protected'
  | 'outside_workspace'
  | 'remove_failed';

export interface PruneRow {
  /** Workspace-relative path. */
  path: string;
  project: string;
  kind: 'checkout' | 'folder' | 'symlink';
  action: PruneAction;
  reason?: PruneReason;
  /** Dirty checkouts: uncommitted changes, untracked files, unpushed commits (as worktree gc reports them). */
  blockers?: Blocker[];
  message?: string;
}

export interface PruneOptions {
  /** The manifest's folder. */
  root: string;
  /** Projects whose folders (`<root>/<project>/`) are looked at. */
  projects: readonly string[];
  /** Real checkout folders of every repository the manifest manages (all projects). */
  managed: readonly string[];
  /** Real folders never removed nor entered: the worktrees folder, `.hub`, the campaigns folder. */
  protectedPaths: readonly string[];
  dryRun: boolean;
  includeHidden: boolean;
  force: boolean;
}

export interface PruneResult {
  dry_run: boolean;
  considered: number;
  counts: { removed: number; would_remove: number; skipped: number };
  folders: PruneRow[];
}

/** True when one of the two lies inside the other (a folder holding a managed checkout is managed too). */
const overlaps = (a: string, b: string) => isInside(a, b) || isInside(b, a);

/**
 * Removes the folders under `<root>/<project>/` the manifest no longer manages: never a managed checkout (nor a
 * folder holding one), never the worktrees folder or `.hub`, never anything whose real path leaves the
 * workspace (a symlink is unlinked, its target untouched). A checkout with uncommitted changes, untracked files
 * or unpushed commits, and a folder that is not a git checkout, are kept unless `force`.
 */
export async function pruneFolders(opts: PruneOptions): Promise<PruneResult> {
  const realRoot = realpathOrUndefined(opts.root) ?? opts.root;
  const managed = opts.managed.map((m) => realpathOrUndefined(m) ?? m);
  const guarded = [join(realRoot, '.hub'), ...opts.protectedPaths.map((p) => realpathOrUndefined(p) ?? p)];
  const rows: PruneRow[] = [];
  for (const project of opts.projects) {
    const folder = join(opts.root, project);
    const realFolder = realpathOrUndefined(folder);
    // A project folder that is itself a link out of the workspace is not looked into.
    if (!realFolder || !isInside(realRoot, realFolder) || realFolder === realRoot) continue;
    let entries: Dirent[];
    try {
      entries = readdirSync(realFolder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (!e.isDirectory() && !e.isSymbolicLink()) continue;
      if (e.name.startsWith('.') && !opts.includeHidden) continue;
      const abs = join(realFolder, e.name);
      const path = toRootRelative(realRoot, abs);
      const base = { path, project };
      if (e.isSymbolicLink()) {
        const target = realpathOrUndefined(abs);
        if (target && (managed.some((m) => overlaps(m, target)) || guarded.some((g) => overlaps(g, target))))
          continue;
        rows.push(await removeOne({ ...base, kind: 'symlink' }, abs, opts, []));
        continue;
      }
      if (managed.some((m) => overlaps(m, abs))) continue;
      if (guarded.some((g) => overlaps(g, abs))) {
        rows.push({ ...base, kind: 'folder', action: 'skipped', reason: 'protected' });
        continue;
      }
      const isGit = existsSync(join(abs, '.git'));
      if (!isGit) {
        rows.push(
          opts.force
            ? await removeOne({ ...base, kind: 'folder' }, abs, opts, [])
            : {
                ...base,
                kind: 'folder',
                action: 'skipped',
                reason: 'not_a_git_checkout',
                message: 'not a git checkout, so hub cannot tell what would be lost; --force removes it',
              },
        );
        continue;
      }
      const blockers = await blockersOf(abs, null, [], 'checkout');
      rows.push(await removeOne({ ...base, kind: 'checkout' }, abs, opts, blockers));
    }
  }
  const counts = { removed: 0, would_remove: 0, skipped: 0 };
  for (const r of rows) counts[r.action]++;
  return { dry_run: opts.dryRun, considered: rows.length, counts, folders: rows };
}

async function removeOne(
  row: Omit<PruneRow, 'action'>,
  abs: string,
  opts: PruneOptions,
  blockers: Blocker[],
): Promise<PruneRow> {
  if (blockers.length > 0 && !opts.force)
    return {
      ...row,
      action: 'skipped',
      reason: 'dirty',
      blockers,
      message: blockers.map((b) => `${b.reason}${b.count ? ` (${b.count})` : ''}`).join(', '),
    };
  const withBlockers = blockers.length > 0 ? { blockers } : {};
  if (opts.dryRun) return { ...row, action: 'would_remove', ...withBlockers };
  try {
    // A symlink goes as a link: its target is never followed.
    if (lstatSync(abs).isSymbolicLink()) unlinkSync(abs);
    else rmSync(abs, { recursive: true, force: false });
    return { ...row, action: 'removed', ...withBlockers };
  } catch (err) {
    return { ...row, action: 'skipped', reason: 'remove_failed', message: (err as Error).message };
  }
}
