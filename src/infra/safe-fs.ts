import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  readSync,
  type Stats,
} from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { writeFileAtomicSync } from './atomic-file.js';
import { RefusedError, ValidationError } from './errors.js';
import { isInside, realpathDeepest, realpathOrUndefined } from './paths.js';

// O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer (the fstat that follows
// then refuses it). O_NOFOLLOW: the last component may not be a symlink. Both are 0 where the platform lacks them.
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CHUNK_MIN = 4096;
const CHUNK_MAX = 1024 * 1024;

/**
 * Resolves `p` (absolute, or relative to `root`) through its symlinks and returns its real path when that lies
 * inside the real path of `root`; undefined when it escapes, when a dangling symlink is on the way, or when the
 * root does not exist. Use the returned path, not `p`: `..` is collapsed before symlinks are followed, so only
 * the returned path is the one that was checked.
 */
export function resolveReal(root: string, p: string): string | undefined {
  const realRoot = realpathOrUndefined(root);
  return realRoot ? realInside(realRoot, root, p) : undefined;
}

function realInside(realRoot: string, root: string, p: string): string | undefined {
  const real = realpathDeepest(isAbsolute(p) ? p : resolve(root, p));
  return real !== undefined && isInside(realRoot, real) ? real : undefined;
}

/** Why a bounded read was refused (the `rule` of the error it becomes). */
export type ReadRefusal = 'inside_root' | 'exists' | 'regular_file' | 'max_size' | 'readable';

export interface BoundedReadOptions {
  /** Most bytes read; counted on the bytes actually read, so a file that grows or lies about its size cannot pass. */
  maxBytes: number;
  /**
   * Confine the read to this folder: the real path must lie inside it, and the file is opened by that real path
   * with O_NOFOLLOW (and, where /proc exists, checked again after the open), so a symlink swapped in between
   * cannot lead the read outside. Without a root, symlinks are followed (a path the user named).
   */
  root?: string;
  /** Return the first `maxBytes` bytes of a longer file instead of refusing it (heads, sniffing). */
  truncate?: boolean;
  /** How refusals name the root (default `the allowed folder`), e.g. `the workspace`. */
  rootName?: string;
  /**
   * With `root` (a real path): `path` was produced by a walk of `root` that follows no symbolic links, so it is
   * not resolved again before the open (a realpath per file doubled a grep's time); the opened descriptor is still
   * checked (O_NOFOLLOW, regular file, and on Linux that it lies inside the root), which also catches a folder
   * swapped for a symlink after the walk.
   */
  walked?: boolean;
}

export type BoundedRead =
  | { ok: true; bytes: Buffer; truncated: boolean; path: string }
  | { ok: false; rule: ReadRefusal; reason: string };

function describeKind(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

const refuse = (rule: ReadRefusal, reason: string): BoundedRead => ({ ok: false, rule, reason });

/**
 * Reads a regular file with a byte cap and never blocks: the open is non-blocking, the opened descriptor is
 * fstat'ed and anything but a regular file (FIFO, device, socket, folder) is refused before a byte is read.
 * Never throws for a refusal; see `readFileBounded` for the throwing form.
 */
export function tryReadFileBounded(path: string, opts: BoundedReadOptions): BoundedRead {
  let target = resolve(path);
  let flags = constants.O_RDONLY | O_NONBLOCK;
  let realRoot: string | undefined;
  if (opts.root !== undefined && opts.walked) {
    realRoot = opts.root;
    flags |= O_NOFOLLOW;
  } else if (opts.root !== undefined) {
    realRoot = realpathOrUndefined(opts.root);
    const real = realRoot ? realInside(realRoot, opts.root, path) : undefined;
    if (!realRoot || !real)
      return refuse('inside_root', `its real path lies outside ${opts.rootName ?? 'the allowed folder'}`);
    target = real;
    flags |= O_NOFOLLOW;
  }
  let fd: number;
  try {
    fd = openSync(target, flags);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('exists', 'it does not exist');
    // A symlink swapped in after the check (O_NOFOLLOW).
    if (code === 'ELOOP') return refuse('inside_root', 'it became a symbolic link');
    // A unix socket cannot be opened at all.
    if (code === 'ENXIO') return refuse('regular_file', 'it is a socket');
    return refuse('readable', `it cannot be opened (${code ?? String(err)})`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return refuse('regular_file', `it is ${describeKind(st)}`);
    if (realRoot && !openedInside(fd, realRoot))
      return refuse('inside_root', `it was moved outside ${opts.rootName ?? 'the allowed folder'}`);
    return readCapped(fd, st.size, opts, target);
  } catch (err) {
    return refuse('readable', `it cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  } finally {
    closeSync(fd);
  }
}

/** Linux names what a descriptor really opened; elsewhere the O_NOFOLLOW open is the last word. */
function openedInside(fd: number, realRoot: string): boolean {
  let link: string;
  try {
    link = readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return true;
  }
  return !isAbsolute(link) || isInside(realRoot, link);
}

function readCapped(fd: number, statSize: number, opts: BoundedReadOptions, path: string): BoundedRead {
  const cap = Math.max(0, opts.maxBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  // One byte past the cap tells a file at the cap from a longer one; the stat size only sizes the buffers.
  const chunkSize = Math.min(CHUNK_MAX, Math.max(CHUNK_MIN, Math.min(statSize, cap) + 1));
  while (total <= cap) {
    const want = Math.min(chunkSize, cap + 1 - total);
    const buf = Buffer.allocUnsafe(want);
    const n = readSync(fd, buf, 0, want, null);
    if (n === 0) break;
    chunks.push(n === want ? buf : buf.subarray(0, n));
    total += n;
  }
  const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  if (total <= cap) return { ok: true, bytes, truncated: false, path };
  if (opts.truncate) return { ok: true, bytes: bytes.subarray(0, cap), truncated: true, path };
  return refuse('max_size', `it is larger than the limit of ${cap} bytes`);
}

/**
 * `tryReadFileBounded` that throws a ValidationError naming `field`, the path and the rule (`inside_root` is
 * reported as `rule` given by `insideRule`, default `inside_root`).
 */
export function readFileBounded(
  path: string,
  opts: BoundedReadOptions & { field: string; shown?: string; insideRule?: string },
): Buffer {
  const r = tryReadFileBounded(path, opts);
  if (r.ok) return r.bytes;
  const shown = opts.shown ?? path;
  const rule = r.rule === 'inside_root' ? (opts.insideRule ?? 'inside_root') : r.rule;
  throw new ValidationError(`${opts.field}: cannot read '${shown}': ${r.reason} (rule ${rule})`, {
    field: opts.field,
    value: shown,
    rule,
    ...(r.rule === 'max_size' ? { limit: opts.maxBytes } : {}),
  });
}

/**
 * Writes `data` atomically at `rel` under `root`, creating parent folders, after checking the real path of the
 * deepest existing ancestor (again after the folders are made): a symlinked parent cannot lead the write outside.
 * Returns the real path written.
 */
export function writeFileUnder(root: string, rel: string, data: string | Uint8Array, mode?: number): string {
  const outside = () =>
    new RefusedError(`refusing to write '${rel}': its real path lies outside ${root}`, {
      field: 'path',
      value: rel,
      rule: 'inside_root',
    });
  const target = resolveReal(root, rel);
  if (!target) throw outside();
  mkdirSync(dirname(target), { recursive: true });
  if (resolveReal(root, target) !== target) throw outside();
  writeFileAtomicSync(target, data, mode);
  return target;
}
