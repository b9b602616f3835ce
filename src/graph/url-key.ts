/**
 * A clone URL reduced to what names the repository: host and path, lowercased, without scheme, user, password,
 * port or a trailing `.git` or `/`. `git@github.com:Org/Repo.git`, `https://github.com/org/repo` and
 * `ssh://git@github.com:22/org/repo.git/` all give `github.com/org/repo`. A local path gives `file:<path>`.
 * Undefined for an empty or unreadable URL.
 */
export function urlKey(url: string): string | undefined {
  const u = url.trim();
  if (u === '') return undefined;
  let host: string;
  let path: string;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)(\/.*)?$/i.exec(u);
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/.exec(u);
  if (scheme) {
    if (scheme[1]!.toLowerCase() === 'file') return `file:${trimPath(scheme[3] ?? '')}`;
    host = scheme[2]!.replace(/^.*@/, '').replace(/:\d*$/, '');
    path = scheme[3] ?? '';
  } else if (scp && !/^[a-z]:[\\/]/i.test(u)) {
    host = scp[1]!;
    path = scp[2]!;
  } else return `file:${trimPath(u)}`;
  const p = trimPath(path.startsWith('/') ? path : `/${path}`);
  if (host === '' || p === '') return undefined;
  return `${host}${p}`.toLowerCase();
}

function trimPath(p: string): string {
  return p
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');
}

/** `github`, `gitlab`, `bitbucket`, `azure` from a URL key's host; another host as it is; `local` for a path. */
export function providerOf(key: string | undefined): string {
  if (!key || key.startsWith('file:')) return 'local';
  const host = key.split('/')[0]!;
  if (host === 'github.com' || host.endsWith('.github.com')) return 'github';
  if (host.includes('gitlab')) return 'gitlab';
  if (host === 'bitbucket.org') return 'bitbucket';
  if (host.endsWith('dev.azure.com') || host.endsWith('visualstudio.com')) return 'azure';
  return host;
}

/**
 * A submodule URL relative to its superproject (`../lib.git`) resolved against the superproject's own URL, as
 * git does; an absolute one as it is. Undefined when relative and the superproject has no URL.
 */
export function resolveSubmoduleUrl(url: string, superUrl: string | undefined): string | undefined {
  if (!url.startsWith('./') && !url.startsWith('../')) return url;
  if (!superUrl) return undefined;
  const base = superUrl.replace(/\/+$/, '');
  const parts = url.split('/');
  let head = base;
  for (const part of parts) {
    if (part === '.' || part === '') continue;
    if (part === '..') {
      const cut = Math.max(head.lastIndexOf('/'), head.lastIndexOf(':'));
      if (cut < 0) return undefined;
      head = head.slice(0, cut);
    } else head = `${head}${head.endsWith(':') ? '' : '/'}${part}`;
  }
  return head;
}
