import { statSync } from 'node:fs';
import { tryReadFileBounded, ValidationError } from '../infra/index.js';
import { YAML_LIMITS } from './yaml-source.js';

// Text files hub reads whole (manifests, campaign and repo-manifest files): within a size limit, regular files
// only, and strict UTF-8 whose error names the line of the first bad byte.

export interface ReadUtf8Options {
  /** The size limit in bytes (YAML_LIMITS.maxBytes by default), or a function of the file's size giving it. */
  maxBytes?: number | ((size: number) => number);
  /** The error for a file over the limit (default: one naming the file, its size and the limit). */
  tooLarge?: (path: string, size: number, limit: number) => Error;
}

/** Reads a file as strict UTF-8 within the size limit; errors name the byte's line. */
export function readUtf8File(path: string, what: string, opts: ReadUtf8Options = {}): string {
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new ValidationError(`${what} not found: ${path}`, { file: path, rule: 'exists' });
  }
  const max = opts.maxBytes ?? YAML_LIMITS.maxBytes;
  const limit = typeof max === 'number' ? max : max(size);
  const tooLarge = (n: number) =>
    opts.tooLarge?.(path, n, limit) ??
    new ValidationError(
      `${what} ${path} is ${(n / 1_048_576).toFixed(1)} MiB; the limit is ${limit / 1_048_576} MiB`,
      { file: path, rule: 'max_size', size: n, limit },
    );
  if (size > limit) throw tooLarge(size);
  // A regular file only, and the limit counted on the bytes read: a FIFO or /dev/zero stats as 0 bytes.
  const read = tryReadFileBounded(path, { maxBytes: limit });
  if (!read.ok && read.rule === 'max_size') throw tooLarge(limit + 1);
  if (!read.ok)
    throw new ValidationError(`${what} ${path} cannot be read: ${read.reason}`, {
      file: path,
      rule: read.rule,
    });
  return decodeUtf8(read.bytes, path, what);
}

export function decodeUtf8(bytes: Uint8Array, path: string, what: string): string {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch {
    const bad = firstInvalidUtf8(bytes);
    let line = 1;
    for (let i = 0; i < bad; i++) if (bytes[i] === 0x0a) line++;
    throw new ValidationError(`${what} ${path} is not valid UTF-8 (first bad byte at line ${line})`, {
      file: path,
      line,
      rule: 'utf8',
    });
  }
}

function firstInvalidUtf8(bytes: Uint8Array): number {
  let lo = 0;
  let hi = bytes.length;
  // Binary search for the shortest prefix that fails to decode (streaming mode tolerates a cut sequence).
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    try {
      // A fresh decoder each time: a streaming one would carry a cut sequence into the next probe.
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid + 1), { stream: true });
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  return lo;
}
