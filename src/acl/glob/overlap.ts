import { EVERYTHING } from './automaton.js';
import { type CompiledGlob, compileGlob } from './compile-glob.js';
import { endsDisjoint } from './ends.js';
import { compiledMatches } from './glob-matches.js';

import { globRefusal } from './refuse.js';
import { leastCommonPath, SearchTooLargeError } from './search.js';
import { compareWitnesses } from './witness-order.js';

export interface GlobOverlap {
  overlap: boolean;
  /** A real path both patterns match, when they overlap: the most readable of the shortest. */
  witness?: string;
}

export interface PatternPairOverlap {
  /** The patterns, in their normal form. */
  a: string;
  b: string;
  witness: string;
}

function search<T>(fn: () => T, a: CompiledGlob, b: CompiledGlob): T {
  try {
    return fn();
  } catch (err) {
    if (!(err instanceof SearchTooLargeError)) throw err;
    throw globRefusal(
      'patterns',
      [a.pattern, b.pattern],
      'max_search',
      `deciding whether these two patterns overlap needs ${err.message}`,
    );
  }
}

/** Exact overlap of two compiled patterns: true iff some real path matches both (per picomatch). */
export function compiledOverlap(a: CompiledGlob, b: CompiledGlob): GlobOverlap {
  // Most pairs of a claim check differ at the start (`src/` vs `docs/`) or the end (`.rs` vs `.ts`): settled here.
  if (endsDisjoint(a.ends, b.ends)) return { overlap: false };
  // Two claims on one pattern are common (`src/**` twice): its own least path, without the product of it with itself.
  let best = search(() => leastCommonPath(a, a.pattern === b.pattern ? EVERYTHING : b), a, b);
  // picomatch also matches a path spelled exactly like the pattern: a candidate the product does not hold.
  for (const [self, other] of [
    [a, b],
    [b, a],
  ] as const) {
    if (self.literalOnly && compiledMatches(other, self.pattern)) {
      if (best === undefined || compareWitnesses(self.pattern, best) < 0) best = self.pattern;
    }
  }
  if (best === undefined) return { overlap: false };
  if (!compiledMatches(a, best) || !compiledMatches(b, best)) {
    throw new Error(`glob overlap: witness ${JSON.stringify(best)} does not match both patterns`);
  }
  return { overlap: true, witness: best };
}

/** Do two claim patterns overlap (some real path matches both)? Throws a ValidationError for an invalid one. */
export function globsOverlap(a: string, b: string): GlobOverlap {
  return compiledOverlap(compileGlob(a), compileGlob(b));
}

const compileAll = (patterns: readonly string[]) => patterns.map((p, i) => compileGlob(p, `patterns[${i}]`));

/** Every overlapping pair between two lists of patterns, in list order, each with its witness. */
export function allPatternOverlaps(as: readonly string[], bs: readonly string[]): PatternPairOverlap[] {
  const ca = compileAll(as);
  const cb = compileAll(bs);
  const out: PatternPairOverlap[] = [];
  for (const a of ca) {
    for (const b of cb) {
      const r = compiledOverlap(a, b);
      if (r.overlap) out.push({ a: a.pattern, b: b.pattern, witness: r.witness! });
    }
  }
  return out;
}

/** The first overlapping pair between two lists of patterns (in list order), or undefined. */
export function patternsOverlap(
  as: readonly string[],
  bs: readonly string[],
): PatternPairOverlap | undefined {
  const ca = compileAll(as);
  const cb = compileAll(bs);
  for (const a of ca) {
    for (const b of cb) {
      const r = compiledOverlap(a, b);
      if (r.overlap) return { a: a.pattern, b: b.pattern, witness: r.witness! };
    }
  }
  return undefined;
}
