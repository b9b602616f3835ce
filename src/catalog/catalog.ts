import { isAbsolute, resolve } from 'node:path';
import { normalizeRelPath } from '../infra/index.js';
import type { Component, ManifestFile, Repo, Tags } from '../model/index.js';

/** A repository as the catalog sees it. */
export interface CatalogRepo {
  /** `<project>/<repo>` */
  id: string;
  project: string;
  name: string;
  /** Manifest-relative checkout path as written (absent for url-only repos). */
  path?: string;
  url?: string;
  /** Absolute checkout directory (url-only repos: `<root>/<project>/<name>`, see docs/decisions.md). */
  root: string;
  tags: Record<string, string | number | boolean>;
  description?: string;
  /** YAML path of the repo entry; absent for the application pseudo-repo. */
  yamlPath?: Array<string | number>;
  kind: 'workspace' | 'application';
  raw?: Repo;
}

/** A component entry with its identity. */
export interface CatalogComponent {
  /** `<project>/<repo>/<component>` */
  id: string;
  project: string;
  repo: string;
  name: string;
  /** Normalized repo-relative path (`.` for the root). */
  path: string;
  kind?: string;
  depends_on: string[];
  yamlPath: Array<string | number>;
  raw: Component;
}

export function normalizeTags(tags: Tags | undefined): Record<string, string | number | boolean> {
  if (!tags) return {};
  if (Array.isArray(tags)) return Object.fromEntries(tags.map((t) => [t, true]));
  return tags;
}

interface RepoIndex {
  list: CatalogComponent[];
  byPath: Map<string, CatalogComponent>;
}

interface PendingComponent {
  c: Component;
  yamlPath: Array<string | number>;
}

/** Read-only lookups keyed by repo id, built for one repository on first use. */
export interface RepoKeyed<V> {
  get(repoId: string): V | undefined;
}

/**
 * An indexed, read-only view of the manifest's structure. Repositories are indexed up front; components are
 * indexed per repository on first use, so resolving one path does not build the whole catalog.
 */
export class Catalog {
  readonly repos: CatalogRepo[] = [];
  readonly repoById = new Map<string, CatalogRepo>();
  readonly isApplication: boolean;
  readonly appName: string | undefined;
  private readonly pending = new Map<string, Array<() => PendingComponent[]>>();
  private readonly indexed = new Map<string, RepoIndex>();
  private all?: {
    list: CatalogComponent[];
    byId: Map<string, CatalogComponent>;
    byName: Map<string, CatalogComponent[]>;
  };

  /** repo id -> its components in declared order. */
  readonly componentsByRepo: RepoKeyed<CatalogComponent[]> = { get: (id) => this.repoIndex(id)?.list };
  /** repo id -> normalized path -> component (first declared wins; duplicates are a validation error). */
  readonly componentsByRepoPath: RepoKeyed<Map<string, CatalogComponent>> = {
    get: (id) => this.repoIndex(id)?.byPath,
  };

  constructor(readonly file: ManifestFile) {
    const m = file.manifest;
    const projects = m.workspace?.projects ?? [];
    this.isApplication = projects.length === 0;
    this.appName = m.name;
    projects.forEach((p, pi) => {
      p.repos.forEach((r, ri) => {
        const yamlPath = ['workspace', 'projects', pi, 'repos', ri];
        let root: string | undefined;
        const repo = this.addRepo({
          id: `${p.name}/${r.name}`,
          project: p.name,
          name: r.name,
          path: r.path,
          url: r.url,
          // Resolved on first use: a command about one repository never pays for a thousand path.resolve calls.
          get root() {
            root ??= r.path ? resolve(file.root, r.path) : resolve(file.root, p.name, r.name);
            return root;
          },
          tags: normalizeTags(r.tags),
          description: r.description,
          yamlPath,
          kind: 'workspace',
          raw: r,
        });
        // Read lazily: a cached manifest parses a repo's components only when they are used.
        this.pending
          .get(repo.id)!
          .push(() =>
            (r.components ?? []).map((c, ci) => ({ c, yamlPath: [...yamlPath, 'components', ci] })),
          );
      });
    });
    this.addApplicationEntries();
  }

  /** Every component, in declared order (builds the whole index). */
  get components(): CatalogComponent[] {
    return this.everything().list;
  }

  get componentById(): Map<string, CatalogComponent> {
    return this.everything().byId;
  }

  get componentsByName(): Map<string, CatalogComponent[]> {
    return this.everything().byName;
  }

  private everything() {
    if (this.all) return this.all;
    const list: CatalogComponent[] = [];
    const byId = new Map<string, CatalogComponent>();
    const byName = new Map<string, CatalogComponent[]>();
    for (const id of this.pending.keys()) {
      for (const comp of this.repoIndex(id)!.list) {
        list.push(comp);
        if (!byId.has(comp.id)) byId.set(comp.id, comp);
        const named = byName.get(comp.name);
        if (named) named.push(comp);
        else byName.set(comp.name, [comp]);
      }
    }
    this.all = { list, byId, byName };
    return this.all;
  }

  private repoIndex(repoId: string): RepoIndex | undefined {
    const done = this.indexed.get(repoId);
    if (done) return done;
    const pending = this.pending.get(repoId);
    if (!pending) return undefined;
    const repo = this.repoById.get(repoId)!;
    const index: RepoIndex = { list: [], byPath: new Map() };
    for (const { c, yamlPath } of pending.flatMap((read) => read())) {
      const norm = normalizeRelPath(c.path);
      const comp: CatalogComponent = {
        id: `${repo.id}/${c.name}`,
        project: repo.project,
        repo: repo.name,
        name: c.name,
        path: norm.path,
        kind: c.kind,
        depends_on: c.depends_on ?? [],
        yamlPath,
        raw: c,
      };
      index.list.push(comp);
      if (!norm.escapes && !index.byPath.has(norm.path)) index.byPath.set(norm.path, comp);
    }
    this.indexed.set(repoId, index);
    return index;
  }

  private addApplicationEntries(): void {
    const m = this.file.manifest;
    const name = m.name;
    const paths = m.paths ?? [];
    const local = (m.components ?? []).flatMap((c, i) => ('path' in c && c.path ? [{ c, i }] : []));
    if (!name || (paths.length === 0 && local.length === 0)) return;
    // Application manifest: project and repo both equal the manifest's name (spec, Identity).
    const repo = this.addRepo({
      id: `${name}/${name}`,
      project: name,
      name,
      root: this.file.root,
      tags: {},
      description: m.description,
      kind: 'application',
    });
    this.pending.get(repo.id)!.push(() => [
      ...paths.map((p, i) => ({
        c: { ...p, name: p.name ?? basenameOf(p.path) } as Component,
        yamlPath: ['paths', i],
      })),
      ...local.map(({ c, i }) => ({ c: c as Component, yamlPath: ['components', i] })),
    ]);
  }

  private addRepo(repo: CatalogRepo): CatalogRepo {
    this.repos.push(repo);
    if (!this.repoById.has(repo.id)) {
      this.repoById.set(repo.id, repo);
      this.pending.set(repo.id, []);
    }
    return repo;
  }

  /** Repos matching optional project/repo filters. */
  reposMatching(project?: string, repo?: string): CatalogRepo[] {
    return this.repos.filter((r) => (!project || r.project === project) && (!repo || r.name === repo));
  }

  /** The repo whose checkout directory most specifically contains `abs`. */
  repoContaining(abs: string, among: readonly CatalogRepo[] = this.repos): CatalogRepo | undefined {
    let best: CatalogRepo | undefined;
    for (const r of among) {
      if (abs === r.root || abs.startsWith(r.root.endsWith('/') ? r.root : `${r.root}/`)) {
        if (!best || r.root.length > best.root.length) best = r;
      }
    }
    return best;
  }
}

function basenameOf(p: string): string {
  const n = normalizeRelPath(p).path;
  const parts = n.split('/');
  return parts[parts.length - 1] === '.' ? 'root' : parts[parts.length - 1]!;
}

export function isFilesystemPath(p: string): boolean {
  return isAbsolute(p);
}
