import type { CharSet } from './char-set.js';
import { setHas } from './char-set.js';

/**
 * The order witnesses are chosen in: fewest segments that open with a dot, then shortest, then character by
 * character in this preference (letters a and x first, then the rest of the alphabet, digits, `_`, `-`), so that a
 * conflict reads "both match `src/a.ts`" rather than "both match `src/.ts`" or "both match `src/\u0001.ts`".
 */
const PREFERRED = 'axbcdefghijklmnopqrstuvwyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-';
const RANK = new Map([...PREFERRED].map((c, i) => [c.charCodeAt(0), i]));

export function charRank(code: number): number {
  const r = RANK.get(code);
  if (r !== undefined) return r;
  // Printable ASCII next, then the rest of the BMP, control characters and lone surrogates last.
  if (code >= 0x20 && code < 0x7f) return 100 + code;
  if (code >= 0x80 && (code < 0xd800 || code > 0xdfff)) return 1000 + code;
  return 100_000 + code;
}

/** The most readable character of a non-empty set. */
export function pickChar(set: CharSet): number {
  for (const [code] of RANK) if (setHas(set, code)) return code;
  let best = set[0]!;
  for (let i = 0; i < set.length; i += 2) {
    const lo = set[i]!;
    const hi = set[i + 1]!;
    // The lowest-ranked character of a range is its first printable one, or its first one past the surrogates.
    const candidates = [lo, Math.max(lo, 0x20), Math.max(lo, 0x80), Math.max(lo, 0xe000)].filter(
      (c) => c <= hi,
    );
    for (const c of candidates) if (charRank(c) < charRank(best)) best = c;
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
