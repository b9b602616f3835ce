import { setHas } from './char-set.js';
import { type CompiledGlob, compileGlob } from './compile-glob.js';

/** Runs a compiled pattern on a string, with picomatch's rules: never the empty string; always the pattern itself. */
export function compiledMatches(glob: CompiledGlob, path: string): boolean {
  if (path === '') return false;
  if (path === glob.pattern) return true;
  let current = new Set(glob.initial);
  for (let i = 0; i < path.length && current.size > 0; i++) {
    const code = path.charCodeAt(i);
    const next = new Set<number>();
    for (const s of current) for (const e of glob.edges[s]!) if (setHas(e.set, code)) next.add(e.to);
    current = next;
  }
  for (const s of current) if (glob.accept[s]) return true;
  return false;
}

/**
 * Does `path` match the claim pattern? Exactly picomatch's `isMatch(path, checkGlob(pattern), GLOB_PICOMATCH_OPTIONS)`
 * (a property test holds them equal), on any string; throws a ValidationError for an invalid pattern.
 */
export function globMatches(pattern: string, path: string): boolean {
  return compiledMatches(compileGlob(pattern), path);
}
