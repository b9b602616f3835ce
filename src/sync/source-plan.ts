import { normalizeRelPath } from '../infra/index.js';
import type { Repo, RepoSource } from '../model/index.js';
import { normalizeUrl } from '../org/index.js';
import type { DiscoveredRepo, ResolvedSource, SourceDiscovery } from './source-discover.js';

/** One change a source sync makes to a project's repos[]. */
export interface PlannedRepo {
  project: string;
  name: string;
  identity: string;
  path?: string;
  url?: string;
  source_id: string;
  /** to_update: the fields that change. */
  changes?: string[];
}

export interface SourcePlan {
  discovered_count: number;
  filtered_count: number;
  unchanged: PlannedRepo[];
  to_add: PlannedRepo[];
  to_update: PlannedRepo[];
  to_remove: PlannedRepo[];
}

export interface PlanError {
  project: string;
  source: string;
  kind: string;
  message: string;
  identity?: string;
}

/** Internal: what applying needs beyond the report (the entry to write, the index to change). */
export interface PlanEdits {
  add: Array<{ project: string; entry: Repo }>;
  update: Array<{ project: string; index: number; set: Partial<Repo> }>;
  remove: Array<{ project: string; index: number }>;
}

const identityOf = (s: RepoSource) => `${s.provider}://${s.namespace}/${s.repo}`;
const samePath = (a: string, b: string) => normalizeRelPath(a).path === normalizeRelPath(b).path;

/** Whether an entry belongs to a source (by id, or by provider and namespace for entries written without one). */
function belongsTo(e: Repo, src: ResolvedSource): boolean {
  if (!e.source) return false;
  if (e.source.id) return e.source.id === src.id;
  return e.source.provider === src.provider && e.source.namespace === src.namespace;
}

/**
 * Compares what the sources of one project found with its repos[]: new repositories are added (a name already
 * taken by another entry is an error, never an overwrite), entries found again are unchanged or get their
 * provenance and locator updated, and in reconcile mode entries of the source that were not found again are
 * removed (only from the manifest: `project repo prune` is what removes folders).
 */
export function planSources(
  project: string,
  repos: readonly Repo[],
  found: readonly SourceDiscovery[],
): { plan: SourcePlan; edits: PlanEdits; errors: PlanError[] } {
  const plan: SourcePlan = {
    discovered_count: 0,
    filtered_count: 0,
    unchanged: [],
    to_add: [],
    to_update: [],
    to_remove: [],
  };
  const edits: PlanEdits = { add: [], update: [], remove: [] };
  const errors: PlanError[] = [];
  const taken = new Map(repos.map((r, i) => [r.name, i]));
  const matched = new Set<number>();
  for (const d of found) {
    plan.discovered_count += d.repos.length + d.filtered_count + d.rejected.length;
    plan.filtered_count += d.filtered_count;
    for (const r of d.rejected)
      errors.push({
        project,
        source: d.source.id,
        kind: 'rejected',
        message: r.reason,
        identity: r.identity,
      });
    for (const item of d.repos) {
      const row = (extra: Partial<PlannedRepo> = {}): PlannedRepo => ({
        project,
        name: item.name,
        identity: item.identity,
        ...(item.path ? { path: item.path } : {}),
        ...(item.url ? { url: item.url } : {}),
        source_id: d.source.id,
        ...extra,
      });
      const index = findEntry(repos, item);
      if (index !== undefined) {
        matched.add(index);
        const e = repos[index]!;
        const set = changesFor(e, item);
        const fields = Object.keys(set);
        if (fields.length === 0) plan.unchanged.push(row({ name: e.name }));
        else {
          plan.to_update.push(row({ name: e.name, changes: fields }));
          edits.update.push({ project, index, set });
        }
        continue;
      }
      const name = freeName(item, taken);
      if (name === undefined) {
        errors.push({
          project,
          source: d.source.id,
          kind: 'name_taken',
          identity: item.identity,
          message: `repository name '${item.name}' is taken in project ${project} by another entry; rename that entry or exclude ${item.identity}`,
        });
        continue;
      }
      taken.set(name, -1);
      plan.to_add.push(row({ name }));
      edits.add.push({ project, entry: entryFor(item, name) });
    }
  }
  for (const d of found) {
    if ((d.source.spec.mode ?? 'additive') !== 'reconcile') continue;
    repos.forEach((e, index) => {
      if (matched.has(index) || !belongsTo(e, d.source)) return;
      plan.to_remove.push({
        project,
        name: e.name,
        identity: identityOf(e.source!),
        ...(e.path ? { path: e.path } : {}),
        ...(e.url ? { url: e.url } : {}),
        source_id: d.source.id,
      });
      edits.remove.push({ project, index });
    });
  }
  return { plan, edits, errors };
}

function findEntry(repos: readonly Repo[], item: DiscoveredRepo): number | undefined {
  const byIdentity = repos.findIndex((e) => e.source && identityOf(e.source) === item.identity);
  if (byIdentity >= 0) return byIdentity;
  const byLocator = repos.findIndex(
    (e) =>
      (item.url !== undefined && e.url !== undefined && normalizeUrl(e.url) === normalizeUrl(item.url)) ||
      (item.path !== undefined && e.path !== undefined && samePath(e.path, item.path)),
  );
  return byLocator >= 0 ? byLocator : undefined;
}

/** The discovered name, or `<namespace tail>-<name>` when a sibling found in the same run took it; never an existing entry's. */
function freeName(item: DiscoveredRepo, taken: Map<string, number>): string | undefined {
  if (!taken.has(item.name)) return item.name;
  if (taken.get(item.name)! >= 0) return undefined;
  const tail = item.source.namespace
    .split('/')
    .pop()!
    .replace(/[^A-Za-z0-9._-]/g, '-');
  const alt = `${tail}-${item.name}`;
  return taken.has(alt) ? undefined : alt;
}

function changesFor(e: Repo, item: DiscoveredRepo): Partial<Repo> {
  const set: Partial<Repo> = {};
  const src = e.source;
  if (!src || identityOf(src) !== item.identity || src.id !== item.source.id) set.source = item.source;
  // The locator follows the source only for an entry of that kind (a url entry never becomes a path one).
  if (item.url && e.url && normalizeUrl(e.url) !== normalizeUrl(item.url)) set.url = item.url;
  if (item.path && e.path && !samePath(e.path, item.path)) set.path = item.path;
  return set;
}

function entryFor(item: DiscoveredRepo, name: string): Repo {
  return {
    name,
    ...(item.path ? { path: item.path } : { url: item.url! }),
    ...(item.description ? { description: item.description } : {}),
    source: item.source,
  };
}
