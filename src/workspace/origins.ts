import { runInRepos } from './git-batch.js';

/**
 * The `origin` URL of each checkout (absolute folder -> URL), read with one `git config` per repository in
 * batched processes; a checkout without an origin, or whose git fails, is left out. Reading config runs nothing
 * the repository names.
 */
export async function readOrigins(dirs: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (dirs.length === 0) return out;
  const args = ['config', '--null', '--default', '', '--get', 'remote.origin.url'];
  // One NUL-terminated value per repository (empty without an origin).
  const split = (stdout: string) => stdout.split('\0').slice(0, -1);
  const results = await runInRepos(dirs, args, split);
  results.forEach((r, i) => {
    const url = r.code === 0 ? r.stdout.replace(/\0$/, '').trim() : '';
    if (url !== '') out.set(dirs[i]!, url);
  });
  return out;
}

/**
 * A clone URL fit to be written into a manifest: without the user and password of an http(s) URL (a token
 * there is a secret) and without the password of any other. Undefined when nothing sensible is left.
 */
export function publicCloneUrl(url: string): string | undefined {
  const u = url.trim();
  if (u === '' || /[\s\0]/.test(u)) return undefined;
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/@]*@)?(.*)$/.exec(u);
  if (!m) return u;
  const scheme = m[1]!.toLowerCase();
  if (!m[2]) return u;
  if (scheme === 'http' || scheme === 'https') return `${m[1]}://${m[3]}`;
  const user = m[2].slice(0, -1).split(':')[0]!;
  return `${m[1]}://${user ? `${user}@` : ''}${m[3]}`;
}

/** `<namespace>/<repo>` of a clone URL's path (`acme/tools` and `web` of `git@host:acme/tools/web.git`). */
export function originParts(url: string): { namespace: string; repo: string } | undefined {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*(\/.*)?$/.exec(url);
  const scp = /^(?:[^@/\s]+@)?[^:/\s]+:(?!\/\/)(.+)$/.exec(url);
  const path = scheme ? (scheme[1] ?? '') : scp ? scp[1]! : undefined;
  if (path === undefined) return undefined;
  const segs = path
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .split('/')
    .filter((s) => s !== '');
  if (segs.length < 2) return undefined;
  return { namespace: segs.slice(0, -1).join('/'), repo: segs[segs.length - 1]! };
}
