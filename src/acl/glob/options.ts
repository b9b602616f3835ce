/**
 * The picomatch options every claim pattern is read with. `dot`: a claim on `src/**` covers `src/.env` (advisory
 * ownership errs towards conflict); `posix`: `[!x]` negates a class as in bash (without it picomatch 4 reads
 * `[!x]` as "`!` or `x`"); `strictBrackets`: an unbalanced `[`, `(` or `{` is an error, not a literal;
 * `windows: false`: POSIX separators on every platform. No `nocase`: paths are case-sensitive.
 */
export const GLOB_PICOMATCH_OPTIONS = Object.freeze({
  dot: true,
  posix: true,
  strictBrackets: true,
  windows: false,
});

/** Bounds on one claim pattern; past them checkGlob refuses it with the rule named in the comment. */
export const GLOB_LIMITS = Object.freeze({
  /** Characters in one pattern (`max_length`). */
  maxLength: 1024,
  /** States of the NFA compiled from picomatch's regex (`max_states`). */
  maxNfaStates: 20_000,
  /** States of the lookahead-free automaton (`max_states`). */
  maxStates: 4_096,
  /** Edges of that automaton (`max_states`): `*(a|b)` repeated makes every state reach every later one. */
  maxEdges: 20_000,
  /** Steps spent building that automaton (`max_states`): bounds the time a hostile pattern can cost. */
  maxWork: 100_000,
  /** Product states one overlap search may queue (`max_search`): a pair past it is refused, not guessed. */
  maxSearchNodes: 1_000_000,
  /** Edge pairs one overlap search may examine (`max_search`): bounds its time as maxSearchNodes bounds memory. */
  maxSearchWork: 20_000_000,
  /** Compiled patterns kept in the LRU cache. */
  cacheSize: 20_000,
});
