import { relative } from 'node:path';
import type { Catalog } from '../catalog/index.js';
import type { Endpoint } from '../model/index.js';
import type { ExternalRepo, WorkspaceNode } from './graph-types.js';
import { providerOf, urlKey } from './url-key.js';

/** The graph's nodes and the lookups edges need. */
export interface NodeSet {
  nodes: WorkspaceNode[];
  byId: Map<string, WorkspaceNode>;
  /** URL key -> node id, for submodules and for matching indexed repositories. */
  byUrlKey: Map<string, string>;
  /** `<org>/<name>` of external repositories -> node id (a relationship endpoint may name one so). */
  byOrgName: Map<string, string>;
}

const toPosix = (p: string) => p.split('\\').join('/');

/** `<provider>://<path after the host>` for a hosted URL key; undefined for a local one. */
function externalIdentity(key: string | undefined, provider: string): string | undefined {
  if (!key || key.startsWith('file:')) return undefined;
  const path = key.slice(key.indexOf('/') + 1);
  return path ? `${provider}://${path}` : undefined;
}

/**
 * Projects, the workspace's repositories, the curated `graph.nodes` and the indexed external repositories, in
 * that order. An external repository that is a workspace repository (same `repo_id` or URL) is not a second
 * node: the workspace one takes its identity and presence (materialized keeps the identity stable).
 */
export function buildNodes(catalog: Catalog, external: readonly ExternalRepo[]): NodeSet {
  const set: NodeSet = { nodes: [], byId: new Map(), byUrlKey: new Map(), byOrgName: new Map() };
  const add = (n: WorkspaceNode, key?: string) => {
    if (set.byId.has(n.id)) return;
    set.nodes.push(n);
    set.byId.set(n.id, n);
    if (key && !set.byUrlKey.has(key)) set.byUrlKey.set(key, n.id);
  };
  const addProject = (name: string, description?: string) =>
    add({
      id: `project:${name}`,
      label: name,
      kind: 'project',
      identity: name,
      provider: 'manifest',
      ...(description ? { description } : {}),
    });
  for (const p of catalog.file.manifest.workspace?.projects ?? []) addProject(p.name, p.description);
  for (const r of catalog.repos) {
    addProject(r.project);
    const key = r.url ? urlKey(r.url) : undefined;
    // A path-only repository whose origin was recorded as `source` (hub init, project sources) is from there.
    const from = r.raw?.source?.provider;
    add(
      {
        id: `repo:${r.id}`,
        label: r.name,
        kind: 'repo',
        identity: r.id,
        provider: key === undefined && from ? from : providerOf(key),
        project: r.project,
        path: toPosix(relative(catalog.file.root, r.root)) || '.',
        ...(r.url ? { url: r.url } : {}),
        ...(r.description ? { description: r.description } : {}),
      },
      key,
    );
  }
  for (const g of catalog.file.manifest.graph?.nodes ?? []) {
    const key = g.url ? urlKey(g.url) : undefined;
    const provider = g.provider ?? (key ? providerOf(key) : 'external');
    add(
      {
        id: `repo:${g.project}/${g.repo}`,
        label: g.label ?? g.repo,
        kind: 'repo',
        presence: 'known',
        identity: externalIdentity(key, provider) ?? `${g.project}/${g.repo}`,
        provider,
        project: g.project,
        ...(g.url ? { url: g.url } : {}),
        ...(g.description ? { description: g.description } : {}),
      },
      key,
    );
  }
  for (const x of external) {
    const key = x.url ? urlKey(x.url) : undefined;
    const sameId = x.repo_id ? set.byId.get(`repo:${x.repo_id}`) : undefined;
    const same = sameId ?? (key ? set.byId.get(set.byUrlKey.get(key) ?? '') : undefined);
    if (same) {
      same.identity = x.identity;
      same.presence = same.path !== undefined ? 'materialized' : x.presence;
      set.byOrgName.set(`${x.organization}/${x.name}`, same.id);
      continue;
    }
    const id = `repo:${x.identity}`;
    add(
      {
        id,
        label: x.name,
        kind: 'repo',
        presence: x.presence,
        identity: x.identity,
        provider: x.provider,
        ...(x.url ? { url: x.url } : {}),
        ...(x.description ? { description: x.description } : {}),
      },
      key,
    );
    set.byOrgName.set(`${x.organization}/${x.name}`, id);
  }
  return set;
}

/**
 * The node a relationship endpoint names: a workspace repository (its component, when named, must be
 * catalogued; a path must stay inside the repository), a curated `graph.nodes` entry, or an indexed repository
 * named `{project: <organization>, repo: <name>}`. Undefined when it names nothing.
 */
export function endpointNode(catalog: Catalog, set: NodeSet, ep: Endpoint): string | undefined {
  if (!ep.project || !ep.repo) return undefined;
  const repoId = `${ep.project}/${ep.repo}`;
  if (catalog.repoById.has(repoId)) {
    if (ep.component && !catalog.componentById.has(`${repoId}/${ep.component}`)) return undefined;
    if (ep.path !== undefined && /(^|[\\/])\.\.([\\/]|$)|^[\\/]/.test(ep.path)) return undefined;
    return `repo:${repoId}`;
  }
  // Only catalogued repositories have components.
  if (ep.component) return undefined;
  if (set.byId.has(`repo:${repoId}`)) return `repo:${repoId}`;
  return set.byOrgName.get(repoId);
}
