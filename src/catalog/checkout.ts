import type { Catalog, CatalogRepo } from './catalog.js';
import { isInside, NotFoundError, RefusedError, realpathDeepest, realpathOrUndefined } from './deps.js';

/** The rule a repository breaks when its real path lies outside the manifest's folder. */
export const REPO_OUTSIDE_RULE = 'repo_outside_workspace';

/**
 * Where a repository's checkout stands: `present` (its real directory, inside the workspace or an allowed
 * folder), `missing` (not on disk, and would be inside), or `outside` (its real path, or where it would be
 * created, lies outside the manifest's folder and no allowed folder holds it).
 */
export type RepoCheckout =
  | { state: 'present'; dir: string; allowed: boolean }
  | { state: 'missing'; allowed: boolean }
  | { state: 'outside'; real: string; error: RefusedError };

/**
 * The one judge of repository checkouts. A manifest is shared and cloned, reviewed by nobody, so a repository
 * may only point inside the manifest's folder (on the real path: symlinks resolved) unless the user's own config
 * allows the outside folder. Built per request; nothing is cached across requests, so a folder swapped for a
 * symlink later is judged again.
 */
export class Checkouts {
  private realRoot?: string;
  private allowed?: string[];

  /** `allowedOutside` is read only when a repository lies outside, so most workspaces never read it. */
  constructor(
    readonly root: string,
    private readonly allowedOutside: () => readonly string[] = () => [],
  ) {}

  private workspaceRoot(): string {
    this.realRoot ??= realpathOrUndefined(this.root) ?? this.root;
    return this.realRoot;
  }

  private allowedRoots(): string[] {
    this.allowed ??= this.allowedOutside().map((p) => realpathOrUndefined(p) ?? p);
    return this.allowed;
  }

  /**
   * Where a real folder lies: inside the manifest's folder, inside a folder the user's own config allows, or
   * outside both. For folders no catalog entry names (the git repository holding the manifest).
   */
  placeOf(real: string): 'inside' | 'allowed' | 'outside' {
    if (isInside(this.workspaceRoot(), real)) return 'inside';
    return this.allowedRoots().some((a) => isInside(a, real)) ? 'allowed' : 'outside';
  }

  /** Judges one repository now. */
  of(repo: CatalogRepo): RepoCheckout {
    const dir = realpathOrUndefined(repo.root);
    // Not on disk: judge where it would be (a dangling symlink counts as its link's place, unknown = outside).
    const where = dir ?? realpathDeepest(repo.root);
    let allowed = false;
    if (where === undefined || !isInside(this.workspaceRoot(), where)) {
      allowed = where !== undefined && this.allowedRoots().some((a) => isInside(a, where));
      if (!allowed) {
        const real = where ?? repo.root;
        return { state: 'outside', real, error: outsideError(repo, real) };
      }
    }
    return dir ? { state: 'present', dir, allowed } : { state: 'missing', allowed };
  }

  /** The real checkout directory, or an error: outside (RefusedError) or not on disk (NotFoundError). */
  require(repo: CatalogRepo): string {
    const c = this.of(repo);
    if (c.state === 'outside') throw c.error;
    if (c.state === 'missing')
      throw new NotFoundError(`repository ${repo.id} is not checked out at ${repo.root}`, {
        field: 'repo',
        value: repo.id,
        rule: 'missing_checkout',
      });
    return c.dir;
  }

  /** Refuses a repository outside the workspace (missing ones pass: callers report them their own way). */
  refuseOutside(repo: CatalogRepo): void {
    const c = this.of(repo);
    if (c.state === 'outside') throw c.error;
  }
}

function outsideError(repo: CatalogRepo, real: string): RefusedError {
  return new RefusedError(
    `repository ${repo.id} lies outside the workspace (its real path is ${real}; rule ${REPO_OUTSIDE_RULE}): ` +
      'a manifest may only point inside its own folder; to allow this folder, add it to ' +
      'workspace.allowed_outside_paths in your user config or to HUB_ALLOWED_OUTSIDE_PATHS',
    { repository: repo.id, path: repo.root, real, rule: REPO_OUTSIDE_RULE },
  );
}

/**
 * The repositories git may be run in: present ones by their real directory, missing ones as declared (git finds
 * nothing there), none outside the workspace.
 */
export function gitRefs(
  checkouts: Checkouts,
  repos: readonly CatalogRepo[],
): Array<{ id: string; root: string }> {
  return repos.flatMap((r) => {
    const c = checkouts.of(r);
    if (c.state === 'outside') return [];
    return [{ id: r.id, root: c.state === 'present' ? c.dir : r.root }];
  });
}

/** The strict judge of a catalog: its manifest's folder, nothing allowed outside. */
export function checkoutsOf(catalog: Catalog, allowedOutside?: () => readonly string[]): Checkouts {
  return new Checkouts(catalog.file.root, allowedOutside);
}
