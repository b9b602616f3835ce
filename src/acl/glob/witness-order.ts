import type { CharSet } from './char-set.js';
import { setHas } from './char-set.js';

/**
 * The order witnesses are chosen in: fewest segments that open with a dot, then shortest, then character by
 * character in this preference (letters a and x first, then the rest of the alphabet, digits, `_`, `-`), so that a
 * conflict reads "both match `src/a.ts`" rather than "both match `src/.ts`" or "both match `src/\u0001.ts`".
 */
const PREFERRED = 'axbcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-';
const PREFERRED_CODES = [...PREFERRED].map((c) => c.charCodeAt(0));

/** Rank of every UTF-16 code unit: preferred characters first, printable ASCII next, then the rest of the BMP,
 * control characters and lone surrogates last. A table, because the search ranks every move it makes. */
const RANKS = (() => {
  const ranks = new Int32Array(0x10000);
  for (let code = 0; code < 0x10000; code++) {
    if (code >= 0x20 && code < 0x7f) ranks[code] = 100 + code;
    else if (code >= 0x80 && (code < 0xd800 || code > 0xdfff)) ranks[code] = 1000 + code;
    else ranks[code] = 100_000 + code;
  }
  PREFERRED_CODES.forEach((code, i) => {
    ranks[code] = i;
  });
  return ranks;
})();

export function charRank(code: number): number {
  return RANKS[code]!;
}

/** Sets of at most this many characters are scanned character by character. */
const SCAN = 16;

/** The most readable character of `set` outside `exclude`, or undefined when there is none. */
export function pickChar(set: CharSet, exclude: CharSet = []): number | undefined {
  let size = 0;
  for (let i = 0; i < set.length && size <= SCAN; i += 2) size += set[i + 1]! - set[i]! + 1;
  let best: number | undefined;
  const consider = (c: number) => {
    if (!setHas(exclude, c) && (best === undefined || RANKS[c]! < RANKS[best]!)) best = c;
  };
  if (size <= SCAN) {
    for (let i = 0; i < set.length; i += 2) for (let c = set[i]!; c <= set[i + 1]!; c++) consider(c);
    return best;
  }
  // Preferred characters outrank all others (and are never excluded): the first one in the set is the best.
  for (const code of PREFERRED_CODES) if (setHas(set, code)) return code;
  // Otherwise a range's best character is its first printable one, or its first past the surrogates; a few
  // more after each in case the first ones are excluded.
  for (let i = 0; i < set.length; i += 2) {
    const lo = set[i]!;
    const hi = set[i + 1]!;
    for (const from of [lo, 0x20, 0x80, 0xe000]) {
      for (let c = Math.max(lo, from); c <= Math.min(hi, Math.max(lo, from) + 3); c++) consider(c);
    }
  }
  return best;
}

export function dotSegments(path: string): number {
  let n = 0;
  for (const segment of path.split('/')) if (segment.startsWith('.')) n++;
  return n;
}

/** Negative when `x` is the better witness. */
export function compareWitnesses(x: string, y: string): number {
  const dots = dotSegments(x) - dotSegments(y);
  if (dots !== 0) return dots;
  if (x.length !== y.length) return x.length - y.length;
  for (let i = 0; i < x.length; i++) {
    const d = charRank(x.charCodeAt(i)) - charRank(y.charCodeAt(i));
    if (d !== 0) return d;
  }
  return 0;
}
