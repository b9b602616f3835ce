import { join } from 'node:path';
import picomatch from 'picomatch';
import {
  isInside,
  normalizeRelPath,
  realpathDeepest,
  realpathOrUndefined,
  ValidationError,
} from '../infra/index.js';
import { NAME_RE, type RepoSource, redactUrlSecrets, type Source } from '../model/index.js';
import { type HttpOptions, listNamespace, type NamespaceKind, providerConfig } from '../org/index.js';
import { discoverRepos } from '../workspace/index.js';
import { transportOf } from './git-url.js';

/** A source with its id and namespace settled. */
export interface ResolvedSource {
  id: string;
  provider: Source['provider'];
  /** Folder (local, manifest-relative, normalized), organization, user or group. */
  namespace: string;
  kind: NamespaceKind | 'folder';
  spec: Source;
}

/** One repository a source found, as the manifest entry it would become. */
export interface DiscoveredRepo {
  name: string;
  path?: string;
  url?: string;
  description?: string;
  source: RepoSource;
  identity: string;
}

export interface SourceDiscovery {
  source: ResolvedSource;
  repos: DiscoveredRepo[];
  /** Found but left out by include/exclude, archived or fork rules. */
  filtered_count: number;
  /** Found but unusable (a clone URL over a transport hub refuses, a name that cannot be made valid). */
  rejected: Array<{ identity: string; reason: string }>;
  pages?: number;
  rate_limited?: number;
  truncated?: boolean;
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** Settles a source's namespace and id (default `<provider>-<namespace>`, slugged). */
export function resolveSource(spec: Source): ResolvedSource {
  const namespace =
    spec.provider === 'local'
      ? normalizeRelPath(spec.path!).path
      : (spec.org ?? spec.user ?? spec.group ?? '').replace(/^\/+|\/+$/g, '');
  const kind: ResolvedSource['kind'] =
    spec.provider === 'local' ? 'folder' : spec.user ? 'user' : spec.group ? 'group' : 'org';
  return {
    id: spec.id ?? (slug(`${spec.provider}-${namespace}`) || spec.provider),
    provider: spec.provider,
    namespace,
    kind,
    spec,
  };
}

/** A manifest-valid repository name from a host's or folder's name ('.' and '_' kept, others become '-'). */
export function repoNameFrom(name: string): string | undefined {
  const n = name.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '');
  return NAME_RE.test(n) ? n : undefined;
}

function filterOf(spec: Source): (fullName: string, name: string) => boolean {
  const inc = spec.include?.length ? picomatch(spec.include, { nocase: true }) : undefined;
  const exc = spec.exclude?.length ? picomatch(spec.exclude, { nocase: true }) : undefined;
  return (full, name) => (!inc || inc(full) || inc(name)) && !(exc && (exc(full) || exc(name)));
}

export interface DiscoverOptions {
  /** The manifest's folder: local sources must lie inside it. */
  root: string;
  env: Readonly<Record<string, string | undefined>>;
  http?: HttpOptions;
}

function discoverLocal(src: ResolvedSource, opts: DiscoverOptions): SourceDiscovery {
  const n = normalizeRelPath(src.spec.path!);
  const abs = join(opts.root, n.path);
  const realRoot = realpathOrUndefined(opts.root) ?? opts.root;
  const real = realpathDeepest(abs);
  if (n.escapes || real === undefined || !isInside(realRoot, real))
    throw new ValidationError(
      `source ${src.id}: path '${src.spec.path}' lies outside the workspace (rule source_path_inside_workspace)`,
      { field: 'sources[].path', value: src.spec.path, rule: 'source_path_inside_workspace' },
    );
  const keep = filterOf(src.spec);
  const out: SourceDiscovery = { source: src, repos: [], filtered_count: 0, rejected: [] };
  for (const found of discoverRepos(real, src.spec.depth ?? 1)) {
    const rel = found.path.replace(/^\.\//, '');
    const folderName = rel.split('/').pop()!;
    if (!keep(`${src.namespace}/${rel}`, folderName)) {
      out.filtered_count++;
      continue;
    }
    const path = `./${normalizeRelPath(n.path === '.' ? rel : `${n.path}/${rel}`).path}`;
    const identity = `local://${src.namespace}/${rel}`;
    const name = repoNameFrom(folderName);
    if (!name) {
      out.rejected.push({ identity, reason: `'${folderName}' cannot be made a repository name` });
      continue;
    }
    out.repos.push({
      name,
      path,
      source: { id: src.id, provider: 'local', namespace: src.namespace, repo: rel },
      identity,
    });
  }
  return out;
}

async function discoverHosted(src: ResolvedSource, opts: DiscoverOptions): Promise<SourceDiscovery> {
  const provider = src.provider as 'github' | 'gitlab';
  const listing = await listNamespace(
    providerConfig(provider, opts.env),
    src.namespace,
    src.kind as NamespaceKind,
    opts.http,
  );
  const keep = filterOf(src.spec);
  const out: SourceDiscovery = {
    source: src,
    repos: [],
    filtered_count: 0,
    rejected: [],
    pages: listing.pages,
    rate_limited: listing.rate_limited,
    truncated: listing.truncated,
  };
  for (const r of listing.repos) {
    if (
      (r.archived && !src.spec.include_archived) ||
      (r.fork && !src.spec.include_forks) ||
      !keep(r.full_name, r.name)
    ) {
      out.filtered_count++;
      continue;
    }
    const url = r.clone_url ?? r.ssh_url ?? undefined;
    const name = repoNameFrom(r.name);
    if (!url || !transportOf(url)) {
      out.rejected.push({
        identity: r.identity,
        reason: `clone URL '${redactUrlSecrets(url ?? '')}' is not https, ssh, git:// or file://`,
      });
      continue;
    }
    if (!name) {
      out.rejected.push({ identity: r.identity, reason: `'${r.name}' cannot be made a repository name` });
      continue;
    }
    out.repos.push({
      name,
      url,
      ...(r.description ? { description: r.description } : {}),
      source: { id: src.id, provider, namespace: r.namespace, repo: r.name },
      identity: r.identity,
    });
  }
  return out;
}

/** What one source finds: a folder is walked, a host is asked through its REST API. */
export function discoverSource(src: ResolvedSource, opts: DiscoverOptions): Promise<SourceDiscovery> {
  return src.provider === 'local' ? Promise.resolve(discoverLocal(src, opts)) : discoverHosted(src, opts);
}
