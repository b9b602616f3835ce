/** The glob room: exact overlap of claim patterns (picomatch semantics), pure (no fs, no store). */
export { type CompiledGlob, checkGlob, clearGlobCache, compileGlob } from './compile-glob.js';
export { compiledMatches, globMatches } from './glob-matches.js';
export { literalGlob } from './literal-glob.js';
export { GLOB_LIMITS, GLOB_PICOMATCH_OPTIONS } from './options.js';
export {
  allPatternOverlaps,
  compiledOverlap,
  type GlobOverlap,
  globsOverlap,
  type PatternPairOverlap,
  patternsOverlap,
} from './overlap.js';
export { isRealPath } from './real-path.js';
