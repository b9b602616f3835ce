import { isAbsolute, resolve } from 'node:path';
import type { Catalog, CatalogRepo } from '../catalog/index.js';
import { AmbiguousError, isInside, realpathOrUndefined, ValidationError } from '../infra/index.js';

/** How a reference matched a managed repository. */
export type RepoMatch = 'id' | 'name' | 'url' | 'path';

export interface ResolvedRepo {
  id: string;
  project: string;
  repo: string;
  /** Absolute checkout directory. */
  path: string;
  url: string | null;
  exists: boolean;
}

export interface RepoResolveResult {
  /** False on a miss; a miss is an answer, not an error. */
  matched: boolean;
  ref: string;
  match: RepoMatch | null;
  repo: ResolvedRepo | null;
  /** For a path inside a checkout: the path relative to the repository root (`.` for the root itself). */
  relative_path: string | null;
}

export interface RepoResolveInput {
  ref: string;
  project?: string;
  /** Directory a relative path starts from. */
  base: string;
}

/** `github.com/acme/api` from `https://github.com/acme/api.git`, `git@github.com:acme/api`, `ssh://...`. */
function urlKey(url: string): string {
  let s = url.trim().toLowerCase();
  s = s.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^[^@/]+@/, '');
  s = s.replace(/^([^/:]+):(?!\d+\/)/, '$1/');
  return s.replace(/\/+$/, '').replace(/\.git$/, '');
}

const looksLikeUrl = (ref: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(ref) || /^[^/@\s]+@[^:\s]+:/.test(ref);

function view(r: CatalogRepo, exists: boolean): ResolvedRepo {
  return { id: r.id, project: r.project, repo: r.name, path: r.root, url: r.url ?? null, exists };
}

/**
 * Resolves a reference to one managed repository: an id (`<project>/<repo>`), a repo name, a clone URL, or a
 * filesystem path inside a checkout (the deepest checkout wins, compared by real path). A name shared by several
 * repositories is ambiguous; a reference that names nothing is `matched: false`.
 */
export function resolveRepo(catalog: Catalog, input: RepoResolveInput): RepoResolveResult {
  const ref = input.ref.trim();
  if (ref === '')
    throw new ValidationError('ref: required, non-empty (a repo id, name, clone URL or path)', {
      field: 'ref',
      rule: 'required',
    });
  const repos = catalog.repos.filter((r) => !input.project || r.project === input.project);
  const hit = (r: CatalogRepo, match: RepoMatch, rel: string | null = null): RepoResolveResult => ({
    matched: true,
    ref,
    match,
    repo: view(r, realpathOrUndefined(r.root) !== undefined),
    relative_path: rel,
  });
  const miss: RepoResolveResult = { matched: false, ref, match: null, repo: null, relative_path: null };

  if (looksLikeUrl(ref)) {
    const key = urlKey(ref);
    const found = repos.filter((r) => r.url && urlKey(r.url) === key);
    if (found.length > 1) throw ambiguous(ref, found);
    return found[0] ? hit(found[0], 'url') : miss;
  }
  const byId = repos.find((r) => r.id === ref);
  if (byId) return hit(byId, 'id');
  if (!ref.includes('/') && !ref.includes('\\') && ref !== '.' && ref !== '..') {
    const found = repos.filter((r) => r.name === ref);
    if (found.length > 1) throw ambiguous(ref, found);
    if (found[0]) return hit(found[0], 'name');
  }
  const abs = isAbsolute(ref) ? ref : resolve(input.base, ref);
  const real = realpathOrUndefined(abs) ?? abs;
  let best: { repo: CatalogRepo; root: string } | undefined;
  for (const r of repos) {
    const root = realpathOrUndefined(r.root);
    if (!root || !isInside(root, real)) continue;
    if (!best || root.length > best.root.length) best = { repo: r, root };
  }
  if (!best) return miss;
  const rel =
    real
      .slice(best.root.length)
      .replace(/^[\\/]+/, '')
      .replace(/\\/g, '/') || '.';
  return hit(best.repo, 'path', rel);
}

function ambiguous(ref: string, found: CatalogRepo[]): AmbiguousError {
  const candidates = found.map((r) => r.id);
  return new AmbiguousError(
    `repository reference '${ref}' is ambiguous: ${candidates.join(', ')}; pass <project>/<repo> or --project`,
    { field: 'ref', value: ref, candidates },
  );
}
