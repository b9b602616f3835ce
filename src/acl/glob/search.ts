import type { Automaton } from './automaton.js';
import { type CharSet, charSetOf, intersectSets, setHas, subtractSets } from './char-set.js';
import { DOT, REAL_ACCEPT, REAL_DEAD, REAL_START, realPathStep, SLASH } from './real-path.js';
import { charRank, compareWitnesses, pickChar } from './witness-order.js';

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
  r: number;
}

/** The moves out of product node (a, b, r), one per distinguishable character class, best character first. */
function movesFrom(A: Automaton, B: Automaton, a: number, b: number, r: number): Move[] {
  const moves: Move[] = [];
  for (const ea of A.edges[a]!) {
    for (const eb of B.edges[b]!) {
      const both = intersectSets(ea.set, eb.set);
      if (both.length === 0) continue;
      for (const code of [SLASH, DOT]) {
        if (!setHas(both, code)) continue;
        const next = realPathStep(r, code);
        if (next !== REAL_DEAD) moves.push({ code, a: ea.to, b: eb.to, r: next });
      }
      const other = subtractSets(both, SPECIAL);
      if (other.length > 0) moves.push({ code: pickChar(other), a: ea.to, b: eb.to, r: REAL_ACCEPT });
    }
  }
  return moves.sort((x, y) => charRank(x.code) - charRank(y.code));
}

const keyOf = (B: Automaton, a: number, b: number, r: number) => (a * B.accept.length + b) * 4 + r;
const accepting = (A: Automaton, B: Automaton, a: number, b: number, r: number) =>
  r === REAL_ACCEPT && A.accept[a]! && B.accept[b]!;

/**
 * Breadth-first search of the product A x B x real paths, stopping at the first accepting node: the shortest
 * common real path, the most readable among the shortest. Nodes are taken in groups that share one path (the
 * automata are nondeterministic: one string reaches several nodes), groups in order of their path and each group's
 * moves in character order, so every node is first reached by its least path. Undefined when the languages are
 * disjoint, after exploring the whole reachable product (at most `maxNodes` nodes).
 */
export function shortestCommonPath(A: Automaton, B: Automaton, maxNodes: number): string | undefined {
  const nodes: Array<[number, number, number]> = [];
  /** Group g holds nodes[groupStart[g]] up to nodes[groupStart[g + 1]] and is reached by its parent's path + code. */
  const groupStart: number[] = [0];
  const groupParent: number[] = [-1];
  const groupCode: number[] = [-1];
  const seen = new Set<number>();
  const add = (a: number, b: number, r: number): void => {
    const key = keyOf(B, a, b, r);
    if (seen.has(key)) return;
    if (nodes.length >= maxNodes) throw new SearchTooLargeError(`more than ${maxNodes} product states`);
    seen.add(key);
    nodes.push([a, b, r]);
  };
  for (const a of A.initial) for (const b of B.initial) add(a, b, REAL_START);
  groupStart.push(nodes.length);
  for (let g = 0; g + 1 < groupStart.length; g++) {
    const members = nodes.slice(groupStart[g]!, groupStart[g + 1]!);
    if (members.some(([a, b, r]) => accepting(A, B, a, b, r))) {
      let path = '';
      for (let h = g; groupCode[h]! >= 0; h = groupParent[h]!)
        path = String.fromCharCode(groupCode[h]!) + path;
      return path;
    }
    const moves = members.flatMap(([a, b, r]) => movesFrom(A, B, a, b, r));
    moves.sort((x, y) => charRank(x.code) - charRank(y.code));
    for (let i = 0; i < moves.length; ) {
      const code = moves[i]!.code;
      for (; i < moves.length && moves[i]!.code === code; i++) add(moves[i]!.a, moves[i]!.b, moves[i]!.r);
      if (nodes.length > groupStart[groupStart.length - 1]!) {
        groupStart.push(nodes.length);
        groupParent.push(g);
        groupCode.push(code);
      }
    }
  }
  return undefined;
}

interface Entry {
  path: string;
  a: number;
  b: number;
  r: number;
}

/** A binary heap ordered by the witness order (fewest dot-led segments, then shortest, then preference). */
class WitnessHeap {
  private readonly items: Entry[] = [];
  get size(): number {
    return this.items.length;
  }
  push(e: Entry): void {
    const h = this.items;
    h.push(e);
    for (let i = h.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (compareWitnesses(h[i]!.path, h[p]!.path) >= 0) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }
  pop(): Entry {
    const h = this.items;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && compareWitnesses(h[l]!.path, h[m]!.path) < 0) m = l;
        if (r < h.length && compareWitnesses(h[r]!.path, h[m]!.path) < 0) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m]!, h[i]!];
        i = m;
      }
    }
    return top;
  }
}

/**
 * The least common real path in witness order (Dijkstra over the same product: the order is kept by appending a
 * character, so the first accepting node settled holds the least path). Run only once an overlap is known and its
 * shortest witness opens a segment with a dot, to find a more readable one when there is one.
 */
export function readableCommonPath(A: Automaton, B: Automaton, maxNodes: number): string | undefined {
  const heap = new WitnessHeap();
  const settled = new Set<number>();
  for (const a of A.initial) for (const b of B.initial) heap.push({ path: '', a, b, r: REAL_START });
  let pushed = heap.size;
  while (heap.size > 0) {
    const { path, a, b, r } = heap.pop();
    const key = keyOf(B, a, b, r);
    if (settled.has(key)) continue;
    settled.add(key);
    if (accepting(A, B, a, b, r)) return path;
    for (const m of movesFrom(A, B, a, b, r)) {
      if (settled.has(keyOf(B, m.a, m.b, m.r))) continue;
      if (++pushed > maxNodes) throw new SearchTooLargeError(`more than ${maxNodes} product states`);
      heap.push({ path: path + String.fromCharCode(m.code), a: m.a, b: m.b, r: m.r });
    }
  }
  return undefined;
}
