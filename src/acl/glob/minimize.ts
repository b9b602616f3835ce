import type { Automaton, AutomatonEdge } from './automaton.js';
import { boundariesOf, type CharSet, charSetOf, MAX_CODE, setHas } from './char-set.js';

/** Groups a state's edges' elementary intervals by the target each leads to (a set of states, as a key). */
function stepSubset(
  a: Automaton,
  members: readonly number[],
  budget: { left: number },
): Map<string, Array<[number, number]>> | undefined {
  const edges = members.flatMap((s) => a.edges[s]!);
  const bounds = boundariesOf(edges.map((e) => e.set));
  budget.left -= bounds.length * Math.max(1, edges.length);
  if (budget.left < 0) return undefined;
  const byTarget = new Map<string, Array<[number, number]>>();
  for (let k = 0; k < bounds.length; k++) {
    const lo = bounds[k]!;
    const hi = k + 1 < bounds.length ? bounds[k + 1]! - 1 : MAX_CODE;
    const to = [...new Set(edges.filter((e) => setHas(e.set, lo)).map((e) => e.to))].sort((x, y) => x - y);
    if (to.length === 0) continue;
    const key = to.join('.');
    const got = byTarget.get(key);
    if (got) got.push([lo, hi]);
    else byTarget.set(key, [[lo, hi]]);
  }
  return byTarget;
}

/**
 * The subset construction, or undefined past `maxStates` subsets or `maxWork` interval-edge tests (the caller keeps
 * the automaton as it is).
 */
function determinize(a: Automaton, maxStates: number, maxWork: number): Automaton | undefined {
  const budget = { left: maxWork };
  const ids = new Map<string, number>();
  const subsets: number[][] = [];
  const intern = (members: number[]): number => {
    const key = members.join('.');
    let id = ids.get(key);
    if (id === undefined) {
      id = subsets.length;
      ids.set(key, id);
      subsets.push(members);
    }
    return id;
  };
  intern([...new Set(a.initial)].sort((x, y) => x - y));
  const edges: AutomatonEdge[][] = [];
  const accept: boolean[] = [];
  for (let id = 0; id < subsets.length; id++) {
    if (subsets.length > maxStates) return undefined;
    const members = subsets[id]!;
    const out: AutomatonEdge[] = [];
    const steps = stepSubset(a, members, budget);
    if (steps === undefined) return undefined;
    for (const [key, ranges] of steps) {
      out.push({ set: charSetOf(ranges), to: intern(key.split('.').map(Number)) });
    }
    edges.push(out);
    accept.push(members.some((s) => a.accept[s]));
  }
  return { initial: [0], accept, edges };
}

/**
 * The same language with fewer states: determinized, then equivalent states merged (Moore's refinement over
 * symbolic edges). A lookahead body made flat is carried by every thread that meets it, so its size multiplies
 * the cost of the automaton above; minimal, `!(*.*)`'s body has a handful of states. Past `maxStates` subsets or
 * `maxWork` tests the automaton is returned unchanged (it is exact either way). Moore's rounds are at most as many
 * as states, each linear in the edges.
 */
export function minimizeAutomaton(a: Automaton, maxStates: number, maxWork: number): Automaton {
  const dfa = determinize(a, maxStates, maxWork);
  if (dfa === undefined) return a;
  // States that can no longer accept are dead: their edges go, so that they all look alike.
  const live = dfa.accept.slice();
  for (let changed = true; changed; ) {
    changed = false;
    dfa.edges.forEach((list, s) => {
      if (!live[s] && list.some((e) => live[e.to])) {
        live[s] = true;
        changed = true;
      }
    });
  }
  dfa.edges = dfa.edges.map((list) => list.filter((e) => live[e.to]));
  let block: number[] = dfa.accept.map((x) => (x ? 1 : 0));
  let count = new Set(block).size;
  for (;;) {
    const sigs = dfa.edges.map((list, s) => {
      const byBlock = new Map<number, CharSet[]>();
      for (const e of list) {
        const b = block[e.to]!;
        const got = byBlock.get(b);
        if (got) got.push(e.set);
        else byBlock.set(b, [e.set]);
      }
      const parts = [...byBlock]
        .map(([b, sets]) => `${b}:${charSetOf(sets.flatMap(pairsOf)).join(',')}`)
        .sort();
      return `${block[s]}|${parts.join(';')}`;
    });
    const renumber = new Map<string, number>();
    const next = sigs.map((sig) => {
      let id = renumber.get(sig);
      if (id === undefined) {
        id = renumber.size;
        renumber.set(sig, id);
      }
      return id;
    });
    block = next;
    if (renumber.size === count) break;
    count = renumber.size;
  }
  const edges: AutomatonEdge[][] = Array.from({ length: count }, () => []);
  const accept: boolean[] = Array.from({ length: count }, () => false);
  const done = new Set<number>();
  dfa.edges.forEach((list, s) => {
    const b = block[s]!;
    if (done.has(b)) return;
    done.add(b);
    accept[b] = dfa.accept[s]!;
    const byBlock = new Map<number, Array<[number, number]>>();
    for (const e of list) {
      const to = block[e.to]!;
      const got = byBlock.get(to) ?? [];
      got.push(...pairsOf(e.set));
      byBlock.set(to, got);
    }
    edges[b] = [...byBlock].map(([to, ranges]) => ({ set: charSetOf(ranges), to }));
  });
  return { initial: [block[0]!], accept, edges };
}

function pairsOf(set: CharSet): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i < set.length; i += 2) out.push([set[i]!, set[i + 1]!]);
  return out;
}
