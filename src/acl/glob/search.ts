import type { Automaton } from './automaton.js';
import { type CharSet, charSetOf, intersectSets, setHas } from './char-set.js';
import { DOT, REAL_ACCEPT, REAL_DEAD, REAL_START, realPathStep, SLASH } from './real-path.js';
import { charRank, pickChar } from './witness-order.js';

/** Thrown when a pair's product exceeds `maxNodes`; the caller turns it into a ValidationError. */
export class SearchTooLargeError extends Error {}

/** NUL, `.` and `/`: the characters the real-path DFA tells apart from every other one. */
const SPECIAL: CharSet = charSetOf([
  [0, 0],
  [DOT, SLASH],
]);

interface Move {
  code: number;
  a: number;
  b: number;
}

/** Adds a move on `code` unless the real-path DFA refuses it there. */
function pushMove(moves: Move[], r: number, code: number, a: number, b: number): void {
  if (realPathStep(r, code) !== REAL_DEAD) moves.push({ code, a, b });
}

/** The moves out of the product nodes (a, b) at real-path state r, one per character class, best character. */
function movesFrom(A: Automaton, B: Automaton, a: number, b: number, r: number, moves: Move[]): void {
  for (const ea of A.edges[a]!) {
    for (const eb of B.edges[b]!) {
      // Most edges of claim patterns read one character: no set arithmetic needed then.
      if (ea.set.length === 2 && ea.set[0] === ea.set[1]) {
        if (setHas(eb.set, ea.set[0]!)) pushMove(moves, r, ea.set[0]!, ea.to, eb.to);
        continue;
      }
      if (eb.set.length === 2 && eb.set[0] === eb.set[1]) {
        if (setHas(ea.set, eb.set[0]!)) pushMove(moves, r, eb.set[0]!, ea.to, eb.to);
        continue;
      }
      const both = intersectSets(ea.set, eb.set);
      if (both.length === 0) continue;
      if (setHas(both, SLASH)) pushMove(moves, r, SLASH, ea.to, eb.to);
      if (setHas(both, DOT)) pushMove(moves, r, DOT, ea.to, eb.to);
      const other = pickChar(both, SPECIAL);
      if (other !== undefined) pushMove(moves, r, other, ea.to, eb.to);
    }
  }
}

/** Nodes (a, b) that share one path, and so one real-path state `r`. */
interface Group {
  path: string;
  r: number;
  nodes: number[];
}

/** Groups of one bucket are taken in preference order of their paths (all of one length). */
function byPreference(x: Group, y: Group): number {
  for (let i = 0; i < x.path.length; i++) {
    const d = charRank(x.path.charCodeAt(i)) - charRank(y.path.charCodeAt(i));
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The least common real path of A and B in witness order (fewest segments opening with a dot, then shortest, then
 * character preference), or undefined when their languages share no real path. A uniform-cost search over the
 * product A x B x real-path DFA: buckets by (dot-led segments, length) taken in order, inside a bucket groups of
 * nodes reached by one path in preference order, each node settled by the first group that holds it (appending a
 * character keeps the order, so that group's path is the node's least). The first group holding an accepting node
 * gives the witness; with none, the whole reachable product has been explored (at most `maxNodes` nodes).
 */
export function leastCommonPath(A: Automaton, B: Automaton, maxNodes: number): string | undefined {
  const width = B.accept.length;
  const settled = new Set<number>();
  /** buckets[dots][length]: the groups waiting there. */
  const buckets: Group[][][] = [[[]]];
  const start: number[] = [];
  for (const a of A.initial) for (const b of B.initial) start.push(a * width + b);
  buckets[0]![0]!.push({ path: '', r: REAL_START, nodes: start });
  let queued = start.length;
  const moves: Move[] = [];
  for (let dots = 0; dots < buckets.length; dots++) {
    const byLength = buckets[dots]!;
    for (let length = 0; length < byLength.length; length++) {
      const groups = byLength[length];
      if (!groups || groups.length === 0) continue;
      groups.sort(byPreference);
      for (const group of groups) {
        const live: number[] = [];
        for (const n of group.nodes) {
          if (settled.has(n * 4 + group.r)) continue;
          settled.add(n * 4 + group.r);
          live.push(n);
        }
        if (live.length === 0) continue;
        if (
          group.r === REAL_ACCEPT &&
          live.some((n) => A.accept[Math.floor(n / width)]! && B.accept[n % width]!)
        ) {
          return group.path;
        }
        moves.length = 0;
        for (const n of live) movesFrom(A, B, Math.floor(n / width), n % width, group.r, moves);
        moves.sort((x, y) => charRank(x.code) - charRank(y.code));
        for (let i = 0; i < moves.length; ) {
          const code = moves[i]!.code;
          const r = realPathStep(group.r, code);
          const nodes: number[] = [];
          for (; i < moves.length && moves[i]!.code === code; i++) {
            const n = moves[i]!.a * width + moves[i]!.b;
            if (!settled.has(n * 4 + r)) nodes.push(n);
          }
          if (nodes.length === 0) continue;
          queued += nodes.length;
          if (queued > maxNodes) throw new SearchTooLargeError(`more than ${maxNodes} product states`);
          const d = dots + (group.r === REAL_START && code === DOT ? 1 : 0);
          if (buckets[d] === undefined) buckets[d] = [];
          const level = buckets[d]!;
          if (level[length + 1] === undefined) level[length + 1] = [];
          level[length + 1]!.push({ path: group.path + String.fromCharCode(code), r, nodes });
        }
      }
      byLength[length] = [];
    }
  }
  return undefined;
}
