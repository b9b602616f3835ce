import { isAbsolute, resolve } from 'node:path';
import { normalizeRelPath } from '../infra/index.js';
import {
  type CachedCheckout,
  type Component,
  cachedCheckouts,
  type ManifestFile,
  type Repo,
  type Tags,
} from '../model/index.js';

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

type Project = NonNullable<NonNullable<ManifestFile['manifest']['workspace']>['projects']>[number];

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
  readonly isApplication: boolean;
  readonly appName: string | undefined;
  private readonly projects: Project[];
  /** Projects whose repository entries are indexed: a lookup by project reads only the projects of that name. */
  private readonly indexedProjects = new Map<number, CatalogRepo[]>();
  private appRepo?: CatalogRepo;
  private ordered?: { repos: CatalogRepo[]; byId: Map<string, CatalogRepo> };
  /** Repo id -> the first repo of that id among the indexed projects. */
  private readonly known = new Map<string, CatalogRepo>();
  private pending = new Map<string, Array<() => PendingComponent[]>>();
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
    this.projects = m.workspace?.projects ?? [];
    this.isApplication = this.projects.length === 0;
    this.appName = m.name;
    this.addApplicationEntries();
  }

  /** Every repository in declared order (indexes every project). */
  get repos(): CatalogRepo[] {
    return this.everyRepo().repos;
  }

  /** Repo id -> its first repository entry (indexes every project). */
  get repoById(): Map<string, CatalogRepo> {
    return this.everyRepo().byId;
  }

  private everyRepo(): { repos: CatalogRepo[]; byId: Map<string, CatalogRepo> } {
    if (this.ordered) return this.ordered;
    const repos: CatalogRepo[] = [];
    for (let pi = 0; pi < this.projects.length; pi++) for (const r of this.projectRepos(pi)) repos.push(r);
    if (this.appRepo) repos.push(this.appRepo);
    // Declared order, whatever order projects were indexed in: lists and validation report in file order.
    const byId = new Map<string, CatalogRepo>();
    const pending = new Map<string, Array<() => PendingComponent[]>>();
    for (const r of repos) {
      if (byId.has(r.id)) continue;
      byId.set(r.id, r);
      pending.set(r.id, this.pending.get(r.id)!);
    }
    this.pending = pending;
    this.ordered = { repos, byId };
    return this.ordered;
  }

  /** The repositories of project `pi`, indexed on first use (a cached manifest parses its entries then). */
  private projectRepos(pi: number): CatalogRepo[] {
    const done = this.indexedProjects.get(pi);
    if (done) return done;
    const p = this.projects[pi]!;
    const root = this.file.root;
    const list = p.repos.map((r, ri) => {
      const yamlPath = ['workspace', 'projects', pi, 'repos', ri];
      let dir: string | undefined;
      const repo: CatalogRepo = {
        id: `${p.name}/${r.name}`,
        project: p.name,
        name: r.name,
        path: r.path,
        url: r.url,
        // Resolved on first use: a command about one repository never pays for a thousand path.resolve calls.
        get root() {
          dir ??= r.path ? resolve(root, r.path) : resolve(root, p.name, r.name);
          return dir;
        },
        tags: normalizeTags(r.tags),
        description: r.description,
        yamlPath,
        kind: 'workspace',
        raw: r,
      };
      this.register(repo);
      // Read lazily: a cached manifest parses a repo's components only when they are used.
      this.pending
        .get(repo.id)!
        .push(() => (r.components ?? []).map((c, ci) => ({ c, yamlPath: [...yamlPath, 'components', ci] })));
      return repo;
    });
    this.indexedProjects.set(pi, list);
    return list;
  }

  /** The repositories of the projects named `project` (only those are indexed). */
  private reposOfProject(project: string): CatalogRepo[] {
    const out: CatalogRepo[] = [];
    for (let pi = 0; pi < this.projects.length; pi++)
      if (this.projects[pi]!.name === project) for (const r of this.projectRepos(pi)) out.push(r);
    if (this.appRepo?.project === project) out.push(this.appRepo);
    return out;
  }

  private register(repo: CatalogRepo): void {
    if (this.known.has(repo.id)) return;
    this.known.set(repo.id, repo);
    this.pending.set(repo.id, []);
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
    this.everyRepo();
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
    // An id from outside (user input) may name a project not indexed yet: index them all before saying no.
    if (!this.pending.has(repoId)) this.everyRepo();
    const pending = this.pending.get(repoId);
    if (!pending) return undefined;
    const repo = this.known.get(repoId)!;
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
    const repo: CatalogRepo = {
      id: `${name}/${name}`,
      project: name,
      name,
      root: this.file.root,
      tags: {},
      description: m.description,
      kind: 'application',
    };
    this.appRepo = repo;
    this.register(repo);
    this.pending.get(repo.id)!.push(() => [
      ...paths.map((p, i) => ({
        c: { ...p, name: p.name ?? basenameOf(p.path) } as Component,
        yamlPath: ['paths', i],
      })),
      ...local.map(({ c, i }) => ({ c: c as Component, yamlPath: ['components', i] })),
    ]);
  }

  /** Repos matching optional project/repo filters. */
  reposMatching(project?: string, repo?: string): CatalogRepo[] {
    const among = project !== undefined && project !== '' ? this.reposOfProject(project) : this.repos;
    return among.filter((r) => (!project || r.project === project) && (!repo || r.name === repo));
  }

  /** Every repository's count, without indexing projects whose checkouts came from the manifest cache. */
  get repoCount(): number {
    if (this.ordered) return this.ordered.repos.length;
    let n = this.appRepo ? 1 : 0;
    for (let pi = 0; pi < this.projects.length; pi++) {
      const p = this.projects[pi]!;
      n += this.indexedProjects.get(pi)?.length ?? cachedCheckouts(p)?.length ?? this.projectRepos(pi).length;
    }
    return n;
  }

  /**
   * The repo whose checkout directory most specifically contains `abs` (the first declared among equals).
   * Without `among`, a project read from the manifest cache is indexed only when one of its stored checkouts
   * contains `abs`: a path in one repository of 20,000 parses one project's entries.
   */
  repoContaining(abs: string, among?: readonly CatalogRepo[]): CatalogRepo | undefined {
    return deepestContaining(abs, among ?? this.reposThatMayContain(abs));
  }

  /**
   * In declared order, the repos among which the deepest checkout holding `abs` is found: every indexed project's
   * and, of the projects known only by their cached checkouts, the first whose checkout holding `abs` is deepest
   * (the others lose to it on depth or, being declared later, on order).
   */
  private reposThatMayContain(abs: string): CatalogRepo[] {
    if (this.ordered) return this.ordered.repos;
    const base = resolve(this.file.root);
    const prefix = base.endsWith('/') ? base : `${base}/`;
    // `abs` relative to the manifest's directory, or undefined when outside it (no plain checkout holds it then).
    const rel = abs.startsWith(prefix) ? abs.slice(prefix.length) : undefined;
    let pick = -1;
    let pickDepth = -1;
    for (let pi = 0; pi < this.projects.length; pi++) {
      const checkouts = this.indexedProjects.has(pi) ? undefined : cachedCheckouts(this.projects[pi]!);
      if (!checkouts) continue;
      for (const c of checkouts) {
        const depth = holdingDepth(c, base, prefix, rel, abs);
        if (depth > pickDepth) {
          pick = pi;
          pickDepth = depth;
        }
      }
    }
    const out: CatalogRepo[] = [];
    for (let pi = 0; pi < this.projects.length; pi++) {
      if (pi !== pick && !this.indexedProjects.has(pi) && cachedCheckouts(this.projects[pi]!)) continue;
      for (const r of this.projectRepos(pi)) out.push(r);
    }
    if (this.appRepo) out.push(this.appRepo);
    return out;
  }
}

/**
 * The length of the checkout directory `c` (see CachedCheckout) when it is or contains `abs`, else -1; `rel` is
 * `abs` below `base` (`prefix` is `base` with a trailing slash).
 */
function holdingDepth(
  c: CachedCheckout,
  base: string,
  prefix: string,
  rel: string | undefined,
  abs: string,
): number {
  if (typeof c !== 'string') {
    const root = resolve(base, c[0]);
    return isWithin(root, abs) ? root.length : -1;
  }
  if (rel === undefined || !rel.startsWith(c)) return -1;
  return rel.length === c.length || rel.charCodeAt(c.length) === 47 ? prefix.length + c.length : -1;
}

function isWithin(root: string, abs: string): boolean {
  return abs === root || abs.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/** The repo whose root most specifically contains `abs`; the first in `among` wins among equal roots. */
function deepestContaining(abs: string, among: readonly CatalogRepo[]): CatalogRepo | undefined {
  let best: CatalogRepo | undefined;
  for (const r of among) {
    if (isWithin(r.root, abs) && (!best || r.root.length > best.root.length)) best = r;
  }
  return best;
}

function basenameOf(p: string): string {
  const n = normalizeRelPath(p).path;
  const parts = n.split('/');
  return parts[parts.length - 1] === '.' ? 'root' : parts[parts.length - 1]!;
}

export function isFilesystemPath(p: string): boolean {
  return isAbsolute(p);
}
