import type { Automaton } from './automaton.js';
import { type CharSet, charSetOf, intersectSets, setHas } from './char-set.js';
import { GLOB_LIMITS } from './options.js';
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

/** Bounds on one search: product nodes queued, and edge pairs examined (the work of building moves). */
export interface SearchLimits {
  maxNodes: number;
  maxWork: number;
}

/**
 * Groups of product nodes that share one path, stored flat: a group's path is its parent's plus one character,
 * rebuilt only for the witness (a string per group would cost memory in the path length, per group).
 */
class Groups {
  readonly parent: number[] = [];
  readonly code: number[] = [];
  readonly r: number[] = [];
  readonly nodes: number[][] = [];

  add(parent: number, code: number, r: number, nodes: number[]): number {
    this.parent.push(parent);
    this.code.push(code);
    this.r.push(r);
    this.nodes.push(nodes);
    return this.parent.length - 1;
  }

  path(g: number): string {
    const codes: number[] = [];
    for (let h = g; this.parent[h]! >= 0; h = this.parent[h]!) codes.push(this.code[h]!);
    let out = '';
    for (let i = codes.length - 1; i >= 0; i--) out += String.fromCharCode(codes[i]!);
    return out;
  }

  /** Preference order of two groups whose paths have one length: compare where their paths first differ. */
  compare(x: number, y: number): number {
    while (this.parent[x] !== this.parent[y]) {
      x = this.parent[x]!;
      y = this.parent[y]!;
    }
    return x === y ? 0 : charRank(this.code[x]!) - charRank(this.code[y]!);
  }
}

/**
 * The least common real path of A and B in witness order (fewest segments opening with a dot, then shortest, then
 * character preference), or undefined when their languages share no real path. A uniform-cost search over the
 * product A x B x real-path DFA: buckets by (dot-led segments, length) taken in order, inside a bucket groups of
 * nodes reached by one path in preference order, each node settled by the first group that holds it (appending a
 * character keeps the order, so that group's path is the node's least). The first group holding an accepting node
 * gives the witness; with none, the whole reachable product has been explored. Past either limit, throws
 * SearchTooLargeError.
 */
export function leastCommonPath(
  A: Automaton,
  B: Automaton,
  limits: SearchLimits = { maxNodes: GLOB_LIMITS.maxSearchNodes, maxWork: GLOB_LIMITS.maxSearchWork },
): string | undefined {
  const width = B.accept.length;
  const settled = new Set<number>();
  const groups = new Groups();
  /** buckets[dots][length]: the ids of the groups waiting there. */
  const buckets: number[][][] = [[[]]];
  const start: number[] = [];
  for (const a of A.initial) for (const b of B.initial) start.push(a * width + b);
  buckets[0]![0]!.push(groups.add(-1, -1, REAL_START, start));
  let queued = start.length;
  let work = 0;
  const moves: Move[] = [];
  for (let dots = 0; dots < buckets.length; dots++) {
    const byLength = buckets[dots]!;
    for (let length = 0; length < byLength.length; length++) {
      const bucket = byLength[length];
      if (!bucket || bucket.length === 0) continue;
      bucket.sort((x, y) => groups.compare(x, y));
      for (const g of bucket) {
        const r = groups.r[g]!;
        const live: number[] = [];
        for (const n of groups.nodes[g]!) {
          if (settled.has(n * 4 + r)) continue;
          settled.add(n * 4 + r);
          live.push(n);
        }
        groups.nodes[g] = [];
        if (live.length === 0) continue;
        if (r === REAL_ACCEPT && live.some((n) => A.accept[Math.floor(n / width)]! && B.accept[n % width]!)) {
          return groups.path(g);
        }
        moves.length = 0;
        for (const n of live) {
          const a = Math.floor(n / width);
          const b = n % width;
          work += A.edges[a]!.length * B.edges[b]!.length;
          if (work > limits.maxWork) throw new SearchTooLargeError(`more than ${limits.maxWork} steps`);
          movesFrom(A, B, a, b, r, moves);
        }
        moves.sort((x, y) => charRank(x.code) - charRank(y.code));
        for (let i = 0; i < moves.length; ) {
          const code = moves[i]!.code;
          const next = realPathStep(r, code);
          const nodes: number[] = [];
          for (; i < moves.length && moves[i]!.code === code; i++) {
            const n = moves[i]!.a * width + moves[i]!.b;
            if (!settled.has(n * 4 + next)) nodes.push(n);
          }
          if (nodes.length === 0) continue;
          queued += nodes.length;
          if (queued > limits.maxNodes)
            throw new SearchTooLargeError(`more than ${limits.maxNodes} product states`);
          const d = dots + (r === REAL_START && code === DOT ? 1 : 0);
          if (buckets[d] === undefined) buckets[d] = [];
          const level = buckets[d]!;
          if (level[length + 1] === undefined) level[length + 1] = [];
          level[length + 1]!.push(groups.add(g, code, next, nodes));
        }
      }
      byLength[length] = [];
    }
  }
  return undefined;
}
