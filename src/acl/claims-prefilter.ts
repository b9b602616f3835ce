/**
 * Exact prefilters for claim overlap: cheap tests on a pattern's text that can say "these two cannot overlap"
 * (or "this path cannot match") and never wrongly. Compiling a pattern into its automaton costs about a
 * millisecond; a check against thousands of claims compiles only the patterns these tests cannot rule out.
 *
 * A pattern's literal head is the text before its first character that could be glob syntax; its literal tail
 * the text after its last one. Every real path a pattern matches starts with the head and ends with the tail,
 * except that `/**` may match no folder at all (`a/**` matches `a`, `**` + `/b` matches `b`): so one `/` is
 * dropped from the end of the head and from the start of the tail. A path both patterns match starts with both
 * heads, so one head is a prefix of the other; likewise for tails. The property test in
 * claims-prefilter.test.ts holds this against the glob engine itself.
 */

import picomatch from 'picomatch';
import { GLOB_PICOMATCH_OPTIONS } from './glob/index.js';

export interface LiteralBounds {
  /** Every matching real path starts with it. */
  head: string;
  /** Every matching real path ends with it. */
  tail: string;
}

/**
 * Characters that are never glob syntax in picomatch (letters, digits, `_`, `.`, `-`, `~`, `/`); anything else
 * ends the literal part, which only makes the prefilter weaker, never wrong. `.` is plain only when picomatch
 * escapes it: see dotIsPlain.
 */
const isPlain = (code: number, dotPlain: boolean): boolean =>
  (code >= 0x61 && code <= 0x7a) || // a-z
  (code >= 0x41 && code <= 0x5a) || // A-Z
  (code >= 0x30 && code <= 0x39) || // 0-9
  code === 0x5f || // _
  (code === 0x2e && dotPlain) || // .
  code === 0x2d || // -
  code === 0x7e || // ~
  code === 0x2f; // /

/**
 * Claims mean what picomatch matches (globMatches is held equal to it), quirks included. When picomatch had to
 * rebuild its output from the raw tokens (`state.backtrack`: after a run of three or more stars, a repeated
 * extglob it reads as literal text, a POSIX class), a `.` in plain text is left unescaped and matches any
 * character: `****a.` matches `aa`, `x.y/[[:digit:]]` matches `x/y/1`. picomatch's own parse says when; a
 * hand-kept list of the triggers missed the star runs. Parsing costs microseconds, the automaton a millisecond.
 */
function dotIsPlain(pattern: string): boolean {
  if (!pattern.includes('.')) return true;
  try {
    const re = picomatch.makeRe(pattern, GLOB_PICOMATCH_OPTIONS, false, true) as RegExp & {
      state?: { backtrack?: boolean };
    };
    return re.state?.backtrack !== true;
  } catch {
    return false; // not a pattern picomatch compiles (refused elsewhere): no dot counts as plain
  }
}

const cache = new Map<string, LiteralBounds>();
const CACHE_MAX = 100_000;

/** The literal head and tail of a pattern in normal form (see the file comment). */
export function literalBounds(pattern: string): LiteralBounds {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const dotPlain = dotIsPlain(pattern);
  let i = 0;
  while (i < pattern.length && isPlain(pattern.charCodeAt(i), dotPlain)) i++;
  let bounds: LiteralBounds;
  if (i === pattern.length) {
    // No glob syntax at all: the pattern names one path.
    bounds = { head: pattern, tail: pattern };
  } else {
    let j = pattern.length;
    while (j > i && isPlain(pattern.charCodeAt(j - 1), dotPlain)) j--;
    let head = pattern.slice(0, i);
    let tail = pattern.slice(j);
    if (head.endsWith('/')) head = head.slice(0, -1);
    if (tail.startsWith('/')) tail = tail.slice(1);
    bounds = { head, tail };
  }
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(pattern, bounds);
  return bounds;
}

/** False only when no real path can match both patterns; true means "compile and decide". */
export function mayOverlap(a: LiteralBounds, b: LiteralBounds): boolean {
  const heads = a.head.length <= b.head.length ? b.head.startsWith(a.head) : a.head.startsWith(b.head);
  if (!heads) return false;
  return a.tail.length <= b.tail.length ? b.tail.endsWith(a.tail) : a.tail.endsWith(b.tail);
}

/** False only when the pattern cannot match `path`. */
export function mayMatch(bounds: LiteralBounds, path: string): boolean {
  return path.startsWith(bounds.head) && path.endsWith(bounds.tail);
}
