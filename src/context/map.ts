import { relative } from 'node:path';
import {
  type Catalog,
  type CatalogRepo,
  type Checkouts,
  checkoutsOf,
  normalizeTags,
} from '../catalog/index.js';

/** Default number of repositories on one page of the workspace map (spec, Limits). */
export const MAP_PAGE_DEFAULT = 80;
/** Largest page a caller may ask for. */
export const MAP_PAGE_MAX = 5000;

type Tags = Record<string, string | number | boolean>;

export interface MapProject {
  name: string;
  repo_count: number;
  description?: string;
  tags?: Tags;
}

export interface MapRepo {
  project: string;
  repo: string;
  /** Checkout directory relative to the map's root. */
  path: string;
  /** `synced` when the checkout directory exists, else `missing` (the Explorer's status filter words). */
  status: 'synced' | 'missing';
  exists: boolean;
  tags?: Tags;
}

/** Tier 0: one page of the workspace's repositories, with the projects they belong to. */
export interface WorkspaceMap {
  root: string;
  manifest: string;
  counts: { projects: number; repos: number; components: number };
  active_project: string | null;
  projects: MapProject[];
  repos: MapRepo[];
  offset: number;
  limit: number;
  /** Repositories in scope (all pages). */
  total: number;
  /** True when repositories after this page exist (more pages, or rows the token budget dropped). */
  truncated: boolean;
  /** Offset of the next page (`--map-offset`), or null on the last page. */
  next_offset: number | null;
}

export interface MapOptions {
  project?: string;
  repo?: string;
  offset?: number;
  limit?: number;
  activeProject?: string | null;
  /** Judge of checkouts: a repository outside the workspace is shown as not present. */
  checkouts?: Checkouts;
}

const posix = (p: string) => p.split('\\').join('/');

/** Repositories in scope, in manifest order. */
export function reposInScope(catalog: Catalog, project?: string, repo?: string): CatalogRepo[] {
  return catalog.reposMatching(project, repo);
}

/** Builds one map page. Touches the disk once per repository on the page (a realpath), never git. */
export function buildWorkspaceMap(catalog: Catalog, opts: MapOptions = {}): WorkspaceMap {
  const root = catalog.file.root;
  const checkouts = opts.checkouts ?? checkoutsOf(catalog);
  const scoped = reposInScope(catalog, opts.project, opts.repo);
  const offset = Math.max(0, opts.offset ?? 0);
  const limit = Math.min(Math.max(1, opts.limit ?? MAP_PAGE_DEFAULT), MAP_PAGE_MAX);
  const page = scoped.slice(offset, offset + limit);
  const projectNames = [...new Set(scoped.map((r) => r.project))];
  const perProject = new Map<string, number>();
  for (const r of scoped) perProject.set(r.project, (perProject.get(r.project) ?? 0) + 1);
  const declared = new Map((catalog.file.manifest.workspace?.projects ?? []).map((p) => [p.name, p]));
  const projects = projectNames.map((name): MapProject => {
    const p = declared.get(name);
    const tags = normalizeTags(p?.tags);
    return {
      name,
      repo_count: perProject.get(name) ?? 0,
      ...(p?.description ? { description: p.description } : {}),
      ...(Object.keys(tags).length ? { tags } : {}),
    };
  });
  const repos = page.map((r): MapRepo => {
    const exists = checkouts.of(r).state === 'present';
    return {
      project: r.project,
      repo: r.name,
      path: posix(relative(root, r.root)) || '.',
      status: exists ? 'synced' : 'missing',
      exists,
      ...(Object.keys(r.tags).length ? { tags: r.tags } : {}),
    };
  });
  // Counted from the manifest entries, so a map page never indexes every repository's components.
  const components = scoped.reduce(
    (n, r) =>
      n + (r.raw ? (r.raw.components?.length ?? 0) : (catalog.componentsByRepo.get(r.id)?.length ?? 0)),
    0,
  );
  const end = offset + page.length;
  return {
    root,
    manifest: posix(relative(root, catalog.file.path)),
    counts: { projects: projectNames.length, repos: scoped.length, components },
    active_project: opts.project ?? opts.activeProject ?? null,
    projects,
    repos,
    offset,
    limit,
    total: scoped.length,
    truncated: end < scoped.length,
    next_offset: end < scoped.length ? end : null,
  };
}
