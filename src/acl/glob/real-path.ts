/**
 * The paths a claim can be about: what git tracks. Non-empty segments separated by `/`, none of them `.` or `..`,
 * no NUL, no leading or trailing `/`. Overlap is decided over these paths only: `a/**` and `a/..` "share" the string
 * `a/..` in no repository. As a DFA, so that the overlap search can run it beside the two globs.
 */
export const REAL_START = 0;
/** After a `.` that starts a segment. */
const ONE_DOT = 1;
/** After `..` that starts a segment. */
const TWO_DOTS = 2;
/** Inside a segment that is neither `.` nor `..`: the only accepting state. */
export const REAL_ACCEPT = 3;
export const REAL_DEAD = -1;

export const SLASH = 0x2f;
export const DOT = 0x2e;

export function realPathStep(state: number, code: number): number {
  if (code === 0) return REAL_DEAD;
  if (code === SLASH) return state === REAL_ACCEPT ? REAL_START : REAL_DEAD;
  if (code === DOT) return state === REAL_START ? ONE_DOT : state === ONE_DOT ? TWO_DOTS : REAL_ACCEPT;
  return REAL_ACCEPT;
}

export function isRealPath(path: string): boolean {
  let state = REAL_START;
  for (let i = 0; i < path.length && state !== REAL_DEAD; i++)
    state = realPathStep(state, path.charCodeAt(i));
  return state === REAL_ACCEPT;
}
