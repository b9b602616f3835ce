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

/** An indexed, read-only view of the manifest's structure; resolve and graph never scan every component. */
export class Catalog {
  readonly repos: CatalogRepo[] = [];
  readonly components: CatalogComponent[] = [];
  readonly repoById = new Map<string, CatalogRepo>();
  readonly componentById = new Map<string, CatalogComponent>();
  readonly componentsByName = new Map<string, CatalogComponent[]>();
  /** repo id -> normalized path -> component (first declared wins; duplicates are a validation error). */
  readonly componentsByRepoPath = new Map<string, Map<string, CatalogComponent>>();
  readonly componentsByRepo = new Map<string, CatalogComponent[]>();
  readonly isApplication: boolean;
  readonly appName: string | undefined;

  constructor(readonly file: ManifestFile) {
    const m = file.manifest;
    const projects = m.workspace?.projects ?? [];
    this.isApplication = projects.length === 0;
    this.appName = m.name;
    projects.forEach((p, pi) => {
      p.repos.forEach((r, ri) => {
        const yamlPath = ['workspace', 'projects', pi, 'repos', ri];
        const root = r.path ? resolve(file.root, r.path) : resolve(file.root, p.name, r.name);
        const repo = this.addRepo({
          id: `${p.name}/${r.name}`,
          project: p.name,
          name: r.name,
          path: r.path,
          url: r.url,
          root,
          tags: normalizeTags(r.tags),
          description: r.description,
          yamlPath,
          kind: 'workspace',
          raw: r,
        });
        (r.components ?? []).forEach((c, ci) => {
          this.addComponent(repo, c, [...yamlPath, 'components', ci]);
        });
      });
    });
    this.addApplicationEntries();
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
    paths.forEach((p, i) => {
      const n = p.name ?? basenameOf(p.path);
      this.addComponent(repo, { ...p, name: n } as Component, ['paths', i]);
    });
    for (const { c, i } of local) this.addComponent(repo, c as Component, ['components', i]);
  }

  private addRepo(repo: CatalogRepo): CatalogRepo {
    this.repos.push(repo);
    if (!this.repoById.has(repo.id)) this.repoById.set(repo.id, repo);
    this.componentsByRepo.set(repo.id, this.componentsByRepo.get(repo.id) ?? []);
    this.componentsByRepoPath.set(repo.id, this.componentsByRepoPath.get(repo.id) ?? new Map());
    return repo;
  }

  private addComponent(repo: CatalogRepo, c: Component, yamlPath: Array<string | number>): void {
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
    this.components.push(comp);
    if (!this.componentById.has(comp.id)) this.componentById.set(comp.id, comp);
    const byName = this.componentsByName.get(c.name);
    if (byName) byName.push(comp);
    else this.componentsByName.set(c.name, [comp]);
    this.componentsByRepo.get(repo.id)!.push(comp);
    const byPath = this.componentsByRepoPath.get(repo.id)!;
    if (!norm.escapes && !byPath.has(norm.path)) byPath.set(norm.path, comp);
  }

  /** Repos matching optional project/repo filters. */
  reposMatching(project?: string, repo?: string): CatalogRepo[] {
    return this.repos.filter((r) => (!project || r.project === project) && (!repo || r.name === repo));
  }

  /** The repo whose checkout directory most specifically contains `abs`. */
  repoContaining(abs: string): CatalogRepo | undefined {
    let best: CatalogRepo | undefined;
    for (const r of this.repos) {
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
