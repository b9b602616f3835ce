import { lstatSync, mkdirSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isInside, RefusedError, realpathDeepest, realpathOrUndefined, resolveReal } from '../infra/index.js';
import { checkAgentId, checkTaskId } from './liveness.js';

/** Where worktrees go: the manifest's folder, `workspace.worktrees_path` and the folders trusted config allows. */
export interface WorktreeLayout {
  /** Folder of the manifest; a relative worktrees_path starts here. */
  workspaceRoot: string;
  /** `workspace.worktrees_path` (default `.worktrees/`, env HUB_WORKSPACE_WORKTREES_PATH). */
  worktreesPath: string;
  /** `workspace.allowed_outside_paths`: only trusted config sets them (appconfig-trust.ts). */
  allowedOutside: readonly string[];
}

/** Real folders a worktree may live in: the workspace and the trusted allowed folders. */
export function allowedRoots(layout: WorktreeLayout): string[] {
  return [layout.workspaceRoot, ...layout.allowedOutside]
    .map((p) => realpathOrUndefined(p))
    .filter((p): p is string => p !== undefined);
}

/**
 * The real path of the worktrees folder. It must lie inside the workspace (through symlinks too), or inside a
 * folder of `workspace.allowed_outside_paths`, which only the user's trusted config sets: a cloned workspace's
 * hub.config.yaml may set worktrees_path, and must not make hub write checkouts elsewhere on the machine.
 */
export function worktreesRoot(layout: WorktreeLayout): string {
  const given = layout.worktreesPath;
  const abs = isAbsolute(given) ? given : resolve(layout.workspaceRoot, given);
  const real = realpathDeepest(abs);
  const ws = realpathOrUndefined(layout.workspaceRoot);
  const detail = { field: 'workspace.worktrees_path', value: given };
  if (real !== undefined && real === ws)
    throw new RefusedError(
      `workspace.worktrees_path: '${given}' is the workspace folder itself; name a folder inside it such as .worktrees/`,
      { ...detail, rule: 'worktrees_path_not_root' },
    );
  if (real === undefined || !allowedRoots(layout).some((r) => isInside(r, real)))
    throw new RefusedError(
      `workspace.worktrees_path: '${given}' leads to ${real ?? 'a dangling symbolic link'}, outside the workspace ${layout.workspaceRoot}; ` +
        'allow the folder in workspace.allowed_outside_paths of your user config to keep worktrees there',
      { ...detail, rule: 'worktrees_path_inside_workspace', ...(real ? { real_path: real } : {}) },
    );
  return real;
}

/**
 * The folder of one worktree: `<worktrees>/<agent_id>/<repo key>/<task_id>` (`platform~identity`, `self`), so a
 * person can tell whose it is and what for. Creates the parent folders, checks again after that no symlink under
 * the worktrees folder led them elsewhere, and refuses a path that already exists.
 */
export function prepareWorktreePath(root: string, agentId: string, repoKey: string, taskId: string): string {
  checkAgentId(agentId);
  checkTaskId(taskId);
  const rel = join(agentId, repoKey, taskId);
  const outside = () =>
    new RefusedError(`worktree path '${rel}': its real path lies outside the worktrees folder ${root}`, {
      field: 'path',
      value: rel,
      rule: 'inside_worktrees_path',
    });
  mkdirSync(root, { recursive: true });
  const target = resolveReal(root, rel);
  if (!target) throw outside();
  mkdirSync(dirname(target), { recursive: true });
  if (resolveReal(root, target) !== target) throw outside();
  if (exists(target))
    throw new RefusedError(
      `worktree path ${target} already exists; destroy the worktree there first, or pick another task id`,
      { field: 'path', value: target, rule: 'path_free' },
      409,
    );
  return target;
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
