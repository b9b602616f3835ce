import { runAutomaton } from './automaton.js';
import { type CompiledGlob, compileGlob } from './compile-glob.js';

/** Runs a compiled pattern on a string, with picomatch's rules: never the empty string; always the pattern itself. */
export function compiledMatches(glob: CompiledGlob, path: string): boolean {
  if (path === '') return false;
  return path === glob.pattern || runAutomaton(glob, path);
}

/**
 * Does `path` match the claim pattern? Exactly picomatch's `isMatch(path, checkGlob(pattern), GLOB_PICOMATCH_OPTIONS)`
 * (a property test holds them equal), on any string; throws a ValidationError for an invalid pattern.
 */
export function globMatches(pattern: string, path: string): boolean {
  return compiledMatches(compileGlob(pattern), path);
}
