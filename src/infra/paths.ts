import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export interface NormalizedPath {
  /**
   * POSIX form without `./`, `.` segments, duplicate or trailing slashes; `.` for the root itself.
   * Leading `..` segments and an absolute prefix (`/`, `C:/`) are kept, so an escaping path reads as what it is.
   */
  path: string;
  /** True when the path is absolute or climbs above its root. */
  escapes: boolean;
}

const DRIVE_SEGMENT = /^[A-Za-z]:/;

/** Normalizes a root-relative path lexically (no filesystem access); `svc`, `./svc/` and `svc/.` are equal. */
export function normalizeRelPath(input: string): NormalizedPath {
  const raw = input.replace(/\\/g, '/');
  const prefix = /^[A-Za-z]:\//.test(raw) ? raw.slice(0, 3) : raw.startsWith('/') ? '/' : '';
  const out: string[] = [];
  let up = 0;
  for (const seg of raw.slice(prefix.length).split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg !== '..') out.push(seg);
    else if (out.length > 0) out.pop();
    else if (!prefix) up++;
  }
  if (prefix) return { path: prefix + out.join('/'), escapes: true };
  const parts = [...Array<string>(up).fill('..'), ...out];
  // A path that starts with a drive (`C:`, `C:x`) once `.` and `..` are gone is Windows-absolute or
  // drive-relative: it escapes, as its normal form (`./C:/x` becomes `C:/x`) already says on its own.
  const drive = up === 0 && DRIVE_SEGMENT.test(out[0] ?? '');
  return { path: parts.length === 0 ? '.' : parts.join('/'), escapes: up > 0 || drive };
}

/** True when `child` equals `parent` or lies beneath it (both absolute). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** Real path of `p`, or undefined when it does not exist. */
export function realpathOrUndefined(p: string): string | undefined {
  try {
    // One realpath(3) call instead of an lstat per component.
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

/**
 * The real path of `p`: the realpath of its deepest existing ancestor with the rest appended, so a path that
 * does not exist yet is judged by where it would be created. Undefined when a dangling symlink lies on the way
 * (its target cannot be checked).
 */
export function realpathDeepest(p: string): string | undefined {
  const tail: string[] = [];
  for (let cur = resolve(p); ; cur = dirname(cur)) {
    const real = realpathOrUndefined(cur);
    if (real) return tail.length === 0 ? real : join(real, ...tail.reverse());
    if (isSymlink(cur)) return undefined;
    if (dirname(cur) === cur) return undefined;
    tail.push(basename(cur));
  }
}

/**
 * Resolves `rel` under `root` and checks it stays inside, through symlinks too: for a path that does not
 * exist yet, its nearest existing ancestor is checked, so a symlinked parent cannot lead a write outside,
 * and a dangling symlink on the way is refused since its target cannot be checked.
 * Returns the absolute (lexical) path, or undefined when it escapes. See safe-fs `resolveReal` for the real path.
 */
export function resolveInside(root: string, rel: string): string | undefined {
  const n = normalizeRelPath(rel);
  if (n.escapes) return undefined;
  const abs = n.path === '.' ? resolve(root) : resolve(root, n.path);
  const realRoot = realpathOrUndefined(root);
  if (!realRoot) return abs;
  const real = realpathDeepest(abs);
  return real !== undefined && isInside(realRoot, real) ? abs : undefined;
}

function isSymlink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Converts an absolute path under `root` to a POSIX root-relative path (`.` for the root). */
export function toRootRelative(root: string, abs: string): string {
  const rel = relative(root, abs);
  return rel === '' ? '.' : rel.split(sep).join('/');
}
