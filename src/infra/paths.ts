import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

export interface NormalizedPath {
  /** POSIX form without `./`, duplicate or trailing slashes; `.` for the root itself. */
  path: string;
  /** True when the path is absolute or climbs above its root. */
  escapes: boolean;
}

/** Normalizes a root-relative path lexically (no filesystem access); `svc`, `./svc/` and `svc/.` are equal. */
export function normalizeRelPath(input: string): NormalizedPath {
  const raw = input.replace(/\\/g, '/');
  if (raw.startsWith('/') || /^[A-Za-z]:\//.test(raw)) return { path: raw, escapes: true };
  const out: string[] = [];
  let escapes = false;
  for (const seg of raw.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) escapes = true;
      else out.pop();
      continue;
    }
    out.push(seg);
  }
  return { path: out.length === 0 ? '.' : out.join('/'), escapes };
}

/** True when `child` equals `parent` or lies beneath it (both absolute). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Real path of `p`, or undefined when it does not exist. */
export function realpathOrUndefined(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Resolves `rel` under `root` and checks it stays inside, through symlinks too.
 * Returns the absolute path, or undefined when it escapes.
 */
export function resolveInside(root: string, rel: string): string | undefined {
  const n = normalizeRelPath(rel);
  if (n.escapes) return undefined;
  const abs = n.path === '.' ? resolve(root) : resolve(root, n.path);
  const realRoot = realpathOrUndefined(root);
  const real = realpathOrUndefined(abs);
  if (realRoot && real && !isInside(realRoot, real)) return undefined;
  return abs;
}

/** Converts an absolute path under `root` to a POSIX root-relative path (`.` for the root). */
export function toRootRelative(root: string, abs: string): string {
  const rel = relative(root, abs);
  return rel === '' ? '.' : rel.split(sep).join('/');
}
