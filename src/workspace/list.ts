import { relative } from 'node:path';
import { type Catalog, type Checkouts, checkoutsOf, normalizeTags } from '../catalog/index.js';

export const LIST_DEFAULT_LIMIT = 80;
export const LIST_MAX_LIMIT = 5000;

export interface ListRow {
  id: string;
  project: string;
  repo: string;
  /** Checkout directory relative to the workspace root. */
  path: string;
  url: string | null;
  description: string | null;
  status: 'synced' | 'missing';
  exists: boolean;
  tags: Record<string, string | number | boolean>;
  components: number;
}

export interface WorkspaceList {
  total: number;
  offset: number;
  limit: number;
  truncated: boolean;
  next_offset: number | null;
  /** Projects in scope; `tags` are the project's own (a repo's `tags` are its own: merge them with the repo's winning). */
  projects: Array<{
    name: string;
    description: string | null;
    repo_count: number;
    tags: Record<string, string | number | boolean>;
  }>;
  repos: ListRow[];
  /** The workspace object (name, description, root, manifest, profile, instructions), only when asked for. */
  workspace?: Record<string, unknown>;
}

export interface ListOptions {
  project?: string;
  repo?: string;
  offset?: number;
  limit?: number;
  includeWorkspace?: boolean;
  /** Judge of checkouts: a repository outside the workspace is listed as not present. */
  checkouts?: Checkouts;
}

/** A paged index of the workspace: projects in scope, one page of repositories, the workspace on request. */
export function workspaceList(catalog: Catalog, opts: ListOptions = {}): WorkspaceList {
  const all = catalog.reposMatching(opts.project, opts.repo);
  const offset = Math.max(0, opts.offset ?? 0);
  const limit = Math.min(Math.max(1, opts.limit ?? LIST_DEFAULT_LIMIT), LIST_MAX_LIMIT);
  const page = all.slice(offset, offset + limit);
  const end = offset + page.length;
  const root = catalog.file.root;
  const m = catalog.file.manifest;
  const checkouts = opts.checkouts ?? checkoutsOf(catalog);
  const declared = new Map((m.workspace?.projects ?? []).map((p) => [p.name, p]));
  const counts = new Map<string, number>();
  for (const r of all) counts.set(r.project, (counts.get(r.project) ?? 0) + 1);
  const out: WorkspaceList = {
    total: all.length,
    offset,
    limit,
    truncated: end < all.length,
    next_offset: end < all.length ? end : null,
    projects: [...counts].map(([name, n]) => ({
      name,
      description: declared.get(name)?.description ?? null,
      repo_count: n,
      tags: normalizeTags(declared.get(name)?.tags),
    })),
    repos: page.map((r) => {
      const exists = checkouts.of(r).state === 'present';
      return {
        id: r.id,
        project: r.project,
        repo: r.name,
        path: relative(root, r.root).split('\\').join('/') || '.',
        url: r.url ?? null,
        description: r.description ?? null,
        status: exists ? 'synced' : 'missing',
        exists,
        tags: r.tags,
        components: r.raw
          ? (r.raw.components?.length ?? 0)
          : (catalog.componentsByRepo.get(r.id)?.length ?? 0),
      };
    }),
  };
  if (opts.includeWorkspace) {
    out.workspace = {
      name: m.workspace?.name ?? m.name ?? null,
      description: m.workspace?.description ?? m.description ?? null,
      root,
      manifest: catalog.file.path,
      kind: catalog.isApplication ? 'application' : 'workspace',
      agent_instructions: m.workspace?.agent_instructions ?? m.agent_instructions ?? null,
      agent_profile: m.workspace?.agent_profile ?? m.agent_profile ?? null,
    };
  }
  return out;
}
