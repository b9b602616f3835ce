/** Code hosts hub indexes and discovers repositories on. */
export const ORG_PROVIDERS = ['github', 'gitlab'] as const;
export type OrgProvider = (typeof ORG_PROVIDERS)[number];

/** What a namespace is on its host: a GitHub organization or user, a GitLab group (subgroups included). */
export type NamespaceKind = 'org' | 'user' | 'group';

/** One repository as a host reports it, normalized across hosts. */
export interface ProviderRepo {
  provider: OrgProvider;
  /** The host's own id of the repository. */
  id: string;
  /** Organization, user or group path the repository lives in (`group/subgroup` on GitLab). */
  namespace: string;
  /** Repository name on the host (its path segment). */
  name: string;
  /** `<namespace>/<name>`. */
  full_name: string;
  /** `<provider>://<namespace>/<name>`: stable while the repository moves known -> indexed -> materialized. */
  identity: string;
  description: string | null;
  language: string | null;
  topics: string[];
  archived: boolean;
  fork: boolean;
  visibility: string | null;
  default_branch: string | null;
  clone_url: string | null;
  ssh_url: string | null;
  web_url: string | null;
  pushed_at: string | null;
  updated_at: string | null;
  stars: number | null;
  /** Features the host reports as enabled (issues, wiki, pages, projects, discussions, license, ...). */
  has: string[];
}

/** `<provider>://<namespace>/<name>` */
export function identityOf(provider: string, namespace: string, name: string): string {
  return `${provider}://${namespace}/${name}`;
}

/** A repository name on a host: one path segment, never `.` or `..` (it becomes a folder and an identity part). */
export const REPO_NAME_RE = /^(?!\.\.?$)[A-Za-z0-9._-]+$/;
/** An organization, user or group path (GitLab subgroups joined by `/`), each segment starting with a letter or digit. */
export const NAMESPACE_RE = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;
