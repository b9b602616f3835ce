import picomatch from 'picomatch';
import type { ValidationError } from '../../infra/index.js';
import { type Automaton, EVERYTHING, runAutomaton } from './automaton.js';
import { type Ends, endsOf } from './ends.js';
import { Lru } from './lru.js';
import { regexAutomaton } from './nested-looks.js';
import { normalizeGlob } from './normalize-glob.js';
import { GLOB_LIMITS, GLOB_PICOMATCH_OPTIONS } from './options.js';
import { isRealPath } from './real-path.js';
import { globRefusal } from './refuse.js';
import { TooManyStatesError } from './regex-nfa.js';
import { parseRegex, UnsupportedRegexError } from './regex-parse.js';
import { leastCommonPath, SearchTooLargeError } from './search.js';

/** A claim pattern, validated and compiled once: its normal form and the automaton of its language. */
export interface CompiledGlob extends Automaton {
  pattern: string;
  /**
   * picomatch matches a path spelled exactly like the pattern, whatever its syntax: true when that spelling is a
   * real path the automaton does not accept (`{a,b}` accepts `a` and `b`, and the file named `{a,b}` besides).
   */
  literalOnly: boolean;
  /** Character sets near both ends, for the quick disjointness test (see ends.ts). */
  ends: Ends;
}

/** Why a pattern was refused, kept so that a refused pattern is not compiled again (the field varies by call). */
interface Refused {
  rule: string;
  reason: string;
}

const cache = new Lru<string, CompiledGlob | Refused>(GLOB_LIMITS.cacheSize);

/** Characters that make a pattern a glob rather than a file name. */
const GLOB_SYNTAX = /[*?[\]{}()!+@|]/;

function compile(normalized: string): CompiledGlob | Refused {
  let source: string;
  try {
    const re = picomatch.makeRe(normalized, { ...GLOB_PICOMATCH_OPTIONS, debug: true }, false, true);
    if ((re as RegExp & { state?: { negated?: boolean } }).state?.negated) {
      return {
        rule: 'no_negation',
        reason: 'a claim is a positive set of paths; a negated pattern is not a claim',
      };
    }
    source = re.source;
  } catch (err) {
    return { rule: 'syntax', reason: `picomatch cannot compile it: ${(err as Error).message}` };
  }
  let automaton: Automaton;
  try {
    automaton = regexAutomaton(parseRegex(source), GLOB_LIMITS);
  } catch (err) {
    if (err instanceof UnsupportedRegexError) {
      return {
        rule: 'unsupported',
        reason: `it compiles to ${err.message}, which overlap cannot decide exactly`,
      };
    }
    if (err instanceof TooManyStatesError) {
      // A negated extglob is the complement of its body, the one construct whose automaton can grow exponentially.
      const why = normalized.includes('!(')
        ? '; a negated extglob !(...) matches the complement of its body, and this one needs too many states to tell'
        : '';
      return {
        rule: 'max_states',
        reason: `it is too complex to decide overlap for (${err.message})${why}`,
      };
    }
    throw err;
  }
  const literalOnly = isRealPath(normalized) && !runAutomaton(automaton, normalized);
  const ends = endsOf(automaton, literalOnly ? normalized : undefined);
  const compiled = { ...automaton, pattern: normalized, literalOnly, ends };
  // Every normal form is spelled like a real path, which picomatch matches literally; a glob matching nothing else
  // (such as `(?!a)a`) is surely a mistake. Without glob syntax it names that file (picomatch compiles `$$a` to an
  // anchor that matches nothing, and matches the file `$$a` by its spelling).
  if (GLOB_SYNTAX.test(normalized) && !matchesSomePath(compiled)) {
    return {
      rule: 'matches_nothing',
      reason: 'no path matches it, except one spelled exactly like the pattern',
    };
  }
  return compiled;
}

/** Does the pattern match any real path? (Against an automaton of one state the search stays small.) */
function matchesSomePath(compiled: CompiledGlob): boolean {
  try {
    return leastCommonPath(compiled, EVERYTHING) !== undefined;
  } catch (err) {
    // Too large to tell: not a reason to refuse a pattern that already passed the size bounds.
    if (err instanceof SearchTooLargeError) return true;
    throw err;
  }
}

function refusal(field: string, value: unknown, refused: Refused): ValidationError {
  return globRefusal(field, value, refused.rule, refused.reason);
}

/**
 * Validates, normalizes and compiles a claim pattern, through an LRU cache keyed by the pattern as given.
 * Throws a ValidationError naming `field`, the value and the rule.
 */
export function compileGlob(pattern: string, field = 'pattern'): CompiledGlob {
  const hit = cache.get(pattern);
  if (hit !== undefined) {
    if ('rule' in hit) throw refusal(field, pattern, hit);
    return hit;
  }
  const normalized = normalizeGlob(pattern, field);
  const result = (normalized === pattern ? undefined : cache.get(normalized)) ?? compile(normalized);
  cache.set(pattern, result);
  if (normalized !== pattern) cache.set(normalized, result);
  if ('rule' in result) throw refusal(field, pattern, result);
  return result;
}

/** Validates and normalizes a claim pattern (see docs/decisions.md, "Advisory coordination: glob overlap"). */
export function checkGlob(pattern: string, field = 'pattern'): string {
  return compileGlob(pattern, field).pattern;
}

/** Empties the compiled-pattern cache (benchmarks measure cold compiles with it). */
export function clearGlobCache(): void {
  cache.clear();
}
