import { ValidationError } from '../infra/index.js';
import type { ProviderConfig } from './provider-config.js';
import { fetchAllPages, type HttpOptions, nextLink, type PagedResult } from './provider-http.js';
import {
  identityOf,
  NAMESPACE_RE,
  type NamespaceKind,
  type OrgProvider,
  type ProviderRepo,
  REPO_NAME_RE,
} from './provider-repo.js';

type Obj = Record<string, unknown>;
const str = (v: unknown, max = 1000): string | null =>
  typeof v === 'string' && v !== '' ? v.slice(0, max) : null;
const bool = (v: unknown) => v === true;
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').map((x) => x.slice(0, 100)) : [];

/** GitHub's REST answer for one repository, normalized. */
export function fromGithub(r: Obj): ProviderRepo {
  const owner = (r.owner as Obj | undefined)?.login;
  const name = String(r.name ?? '');
  const full = str(r.full_name) ?? `${String(owner ?? '')}/${name}`;
  const namespace = full.slice(0, full.lastIndexOf('/'));
  const has = [
    ['issues', r.has_issues],
    ['wiki', r.has_wiki],
    ['pages', r.has_pages],
    ['projects', r.has_projects],
    ['discussions', r.has_discussions],
    ['license', Boolean(r.license)],
    ['description', Boolean(str(r.description))],
    ['homepage', Boolean(str(r.homepage))],
  ].flatMap(([k, v]) => (v === true ? [k as string] : []));
  return {
    provider: 'github',
    id: String(r.id ?? full),
    namespace,
    name,
    full_name: full,
    identity: identityOf('github', namespace, name),
    description: str(r.description),
    language: str(r.language, 100),
    topics: strings(r.topics),
    archived: bool(r.archived),
    fork: bool(r.fork),
    visibility:
      str(r.visibility, 40) ?? (r.private === true ? 'private' : r.private === false ? 'public' : null),
    default_branch: str(r.default_branch, 255),
    clone_url: str(r.clone_url, 2000),
    ssh_url: str(r.ssh_url, 2000),
    web_url: str(r.html_url, 2000),
    pushed_at: str(r.pushed_at, 40),
    updated_at: str(r.updated_at, 40),
    stars: num(r.stargazers_count),
    has,
  };
}

/** GitLab's REST answer for one project, normalized. */
export function fromGitlab(r: Obj): ProviderRepo {
  const path = String(r.path ?? r.name ?? '');
  const full = str(r.path_with_namespace) ?? path;
  const namespace = str((r.namespace as Obj | undefined)?.full_path) ?? full.slice(0, full.lastIndexOf('/'));
  const topics = strings(r.topics).length > 0 ? strings(r.topics) : strings(r.tag_list);
  const pages = r.pages_access_level;
  const has = [
    ['issues', r.issues_enabled],
    ['wiki', r.wiki_enabled],
    ['pages', typeof pages === 'string' && pages !== 'disabled'],
    ['merge_requests', r.merge_requests_enabled],
    ['license', Boolean(r.license)],
    ['description', Boolean(str(r.description))],
  ].flatMap(([k, v]) => (v === true ? [k as string] : []));
  return {
    provider: 'gitlab',
    id: String(r.id ?? full),
    namespace,
    name: path,
    full_name: full,
    identity: identityOf('gitlab', namespace, path),
    description: str(r.description),
    // GitLab lists no language; one more call per project would be needed (GET /projects/:id/languages).
    language: null,
    topics,
    archived: bool(r.archived),
    fork: r.forked_from_project !== undefined && r.forked_from_project !== null,
    visibility: str(r.visibility, 40),
    default_branch: str(r.default_branch, 255),
    clone_url: str(r.http_url_to_repo, 2000),
    ssh_url: str(r.ssh_url_to_repo, 2000),
    web_url: str(r.web_url, 2000),
    pushed_at: str(r.last_activity_at, 40),
    updated_at: str(r.updated_at, 40) ?? str(r.last_activity_at, 40),
    stars: num(r.star_count),
    has,
  };
}

/** Which namespace kinds each host has. */
export const NAMESPACE_KINDS: Record<OrgProvider, NamespaceKind[]> = {
  github: ['org', 'user'],
  gitlab: ['group'],
};

export interface Listing extends Omit<PagedResult<ProviderRepo>, 'items'> {
  repos: ProviderRepo[];
  /** Entries of the answer left out: not an object, or a name or namespace that is not a name. */
  rejected: number;
}

/**
 * Normalizes a host's answer, keeping only objects whose name is one path segment and whose namespace is a
 * namespace name: an identity is built from them, and materialize turns them into folder names.
 */
function normalized(
  items: unknown[],
  from: (r: Obj) => ProviderRepo,
): { repos: ProviderRepo[]; rejected: number } {
  const repos: ProviderRepo[] = [];
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) continue;
    const r = from(item as Obj);
    if (REPO_NAME_RE.test(r.name) && NAMESPACE_RE.test(r.namespace)) repos.push(r);
  }
  return { repos, rejected: items.length - repos.length };
}

/** Lists every repository of a namespace on its host, through the host's REST API. */
export async function listNamespace(
  cfg: ProviderConfig,
  namespace: string,
  kind: NamespaceKind,
  opts: HttpOptions = {},
): Promise<Listing> {
  if (!NAMESPACE_RE.test(namespace) || (cfg.provider === 'github' && namespace.includes('/')))
    throw new ValidationError(
      `namespace '${namespace}' is not a ${cfg.provider} ${kind} name (letters, digits, '.', '_', '-'${cfg.provider === 'gitlab' ? ", subgroups joined by '/'" : ''})`,
      { field: 'org', value: namespace, rule: 'namespace_name' },
    );
  if (!NAMESPACE_KINDS[cfg.provider].includes(kind))
    throw new ValidationError(`${cfg.provider} has no namespace kind '${kind}'`, {
      field: 'kind',
      value: kind,
      rule: 'namespace_kind',
    });
  if (cfg.provider === 'github') {
    const path = kind === 'user' ? `users/${namespace}/repos?type=owner` : `orgs/${namespace}/repos?type=all`;
    const headers: Record<string, string> = {
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
      ...(cfg.token ? { authorization: `Bearer ${cfg.token}` } : {}),
    };
    const r = await fetchAllPages<unknown>(
      cfg,
      `${cfg.baseUrl}/${path}&per_page=100`,
      headers,
      (res) => nextLink(res.headers.get('link')),
      opts,
    );
    return {
      ...normalized(r.items, fromGithub),
      pages: r.pages,
      rate_limited: r.rate_limited,
      truncated: r.truncated,
    };
  }
  const headers: Record<string, string> = cfg.token ? { 'private-token': cfg.token } : {};
  const first =
    `${cfg.baseUrl}/groups/${encodeURIComponent(namespace)}/projects` +
    '?include_subgroups=true&order_by=id&sort=asc&per_page=100';
  const r = await fetchAllPages<unknown>(
    cfg,
    first,
    headers,
    (res, url) => {
      const link = nextLink(res.headers.get('link'));
      if (link) return link;
      const page = res.headers.get('x-next-page');
      if (!page || !/^\d+$/.test(page)) return undefined;
      const u = new URL(url);
      u.searchParams.set('page', page);
      return u.toString();
    },
    opts,
  );
  return {
    ...normalized(r.items, fromGitlab),
    pages: r.pages,
    rate_limited: r.rate_limited,
    truncated: r.truncated,
  };
}
