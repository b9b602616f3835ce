import { resolve as resolvePath } from 'node:path';
import { AmbiguousError, normalizeRelPath, toRootRelative, ValidationError } from '../infra/index.js';
import type { Catalog, CatalogComponent, CatalogRepo } from './catalog.js';
import { componentView, type Scope } from './lookup.js';
import { scopeMiss } from './suggest.js';

export interface ResolveInput extends Scope {
  path: string;
  /** Base for relative filesystem paths: the definition root when one was given, else the working directory. */
  base: string;
}

export interface ResolveResult {
  matched: boolean;
  path: string;
  /** How the path was read: as a filesystem path or as a repo-relative path. */
  mode: 'filesystem' | 'repo_relative';
  repository: string | null;
  relative_path: string | null;
  component: Record<string, unknown> | null;
  id: string | null;
}

/** Walks from the path up to the repo root; the first hit is the most specific component. */
export function longestMatch(catalog: Catalog, repoId: string, rel: string): CatalogComponent | undefined {
  const byPath = catalog.componentsByRepoPath.get(repoId);
  if (!byPath || byPath.size === 0) return undefined;
  let cur = rel;
  for (;;) {
    const hit = byPath.get(cur);
    if (hit) return hit;
    if (cur === '.') return undefined;
    const slash = cur.lastIndexOf('/');
    cur = slash < 0 ? '.' : cur.slice(0, slash);
  }
}

function result(
  input: string,
  mode: ResolveResult['mode'],
  repo: CatalogRepo | undefined,
  rel: string | null,
  c?: CatalogComponent,
): ResolveResult {
  return {
    matched: Boolean(c),
    path: input,
    mode,
    repository: repo?.id ?? null,
    relative_path: rel,
    component: c ? componentView(c) : null,
    id: c?.id ?? null,
  };
}

function checkPathValue(p: unknown): string {
  if (typeof p !== 'string' || p.trim() === '') {
    throw new ValidationError('path is required and must be a non-empty string', {
      field: 'path',
      value: p ?? null,
      rule: 'required',
    });
  }
  if (p.includes('\0'))
    throw new ValidationError('path must not contain NUL bytes', { field: 'path', rule: 'no_nul' });
  return p;
}

/**
 * Resolves a path to the most specific component.
 * Absolute paths map through the filesystem; a relative path is repo-relative when the scope names one repo,
 * else a filesystem path under `base`, and, when that lands in no repo, repo-relative across all repos.
 */
export function resolveComponent(catalog: Catalog, input: ResolveInput): ResolveResult {
  const raw = checkPathValue(input.path);
  // Unscoped, every repository is in scope: not listed up front, so a cached manifest indexes only the projects
  // whose checkouts may hold the path.
  const scopedBy = Boolean(input.project || input.repo);
  const scoped = scopedBy ? catalog.reposMatching(input.project, input.repo) : undefined;
  if (scoped?.length === 0) {
    const miss = scopeMiss(catalog, input.project, input.repo);
    throw new ValidationError(miss.message, miss.details);
  }
  const absolute = raw.startsWith('/');
  if (!absolute && (scoped ? scoped.length === 1 : catalog.repoCount === 1)) {
    const single = scoped ? scoped[0]! : catalog.repos[0]!;
    if (input.repo || catalog.repoCount === 1) return repoRelative(catalog, single, raw);
  }
  const abs = resolvePath(input.base, raw);
  // A derived working set shares its source's checkout: a repo of the requested scope with the same checkout owns
  // the path as much as the source does (a repo nested deeper still wins: a path cannot span repositories).
  const nearest = catalog.repoContaining(abs);
  const inScope = nearest && scoped ? catalog.repoContaining(abs, scoped) : nearest;
  const owner = inScope && inScope.root === nearest!.root ? inScope : nearest;
  if (owner) {
    if (scoped && !scoped.includes(owner)) {
      throw new ValidationError(
        `path '${raw}' lies in repository ${owner.id}, outside the requested --project/--repo; a path cannot span repositories`,
        { field: 'path', value: raw, repository: owner.id, rule: 'cross_repo' },
      );
    }
    const rel = toRootRelative(owner.root, abs);
    return result(raw, 'filesystem', owner, rel, longestMatch(catalog, owner.id, rel));
  }
  if (absolute) return result(raw, 'filesystem', undefined, null);
  // Not under any checkout: read it as repo-relative in every scoped repo.
  const norm = normalizeRelPath(raw);
  if (norm.escapes) return result(raw, 'repo_relative', undefined, null);
  const hits = (scoped ?? catalog.repos)
    .map((r) => ({ r, c: longestMatch(catalog, r.id, norm.path) }))
    .filter((h): h is { r: CatalogRepo; c: CatalogComponent } => Boolean(h.c) && h.c!.path !== '.');
  if (hits.length === 0) return result(raw, 'repo_relative', undefined, null);
  if (hits.length > 1) {
    const candidates = hits.map((h) => h.c.id);
    throw new AmbiguousError(
      `path '${raw}' matches components in several repositories: ${candidates.join(', ')}; pass --project and --repo`,
      {
        field: 'path',
        value: raw,
        candidates,
      },
    );
  }
  return result(raw, 'repo_relative', hits[0]!.r, norm.path, hits[0]!.c);
}

function repoRelative(catalog: Catalog, repo: CatalogRepo, raw: string): ResolveResult {
  const norm = normalizeRelPath(raw);
  if (norm.escapes) {
    throw new ValidationError(
      `path '${raw}' escapes repository ${repo.id}; a path cannot span repositories`,
      {
        field: 'path',
        value: raw,
        repository: repo.id,
        rule: 'cross_repo',
      },
    );
  }
  return result(raw, 'repo_relative', repo, norm.path, longestMatch(catalog, repo.id, norm.path));
}
