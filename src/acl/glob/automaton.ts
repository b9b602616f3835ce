import { boundariesOf, type CharSet, charSetOf, MAX_CODE, setHas, unionSets } from './char-set.js';
import { type Nfa, TooManyStatesError } from './regex-nfa.js';
import { acceptsAtEnd, closeThreads, stepThread, type Thread, threadKey } from './threads.js';

export interface AutomatonEdge {
  set: CharSet;
  to: number;
}

/**
 * An epsilon-free, lookahead-free NFA over symbolic character sets: the exact language of the regex it came from
 * (the empty string aside: picomatch never matches it, so `accept` is only read after at least one character).
 */
export interface Automaton {
  initial: number[];
  accept: boolean[];
  edges: AutomatonEdge[][];
}

/** Character sets a thread's next step depends on: its own edges' and those of its pending lookaheads. */
function setsOf(nfa: Nfa, t: Thread): { domain: CharSet; sets: CharSet[] } {
  const sets: CharSet[] = [];
  let domain: CharSet = [];
  for (const e of nfa.out[t.q]!) {
    if (e.k !== 'char') continue;
    sets.push(e.set);
    domain = unionSets(domain, e.set);
  }
  for (const s of [...t.pos.flat(), ...t.neg]) {
    for (const e of nfa.out[s]!) if (e.k === 'char') sets.push(e.set);
  }
  return { domain, sets };
}

/**
 * Explores every thread reachable from the start, one representative character per elementary interval (inside
 * an interval every set in play is constant, so every character of it leads to the same threads). Bounded by
 * `maxStates` threads and `maxWork` steps: past either, TooManyStatesError.
 */
export function buildAutomaton(nfa: Nfa, maxStates: number, maxWork: number): Automaton {
  const ids = new Map<string, number>();
  const threads: Thread[] = [];
  const intern = (t: Thread): number => {
    const key = threadKey(t);
    let id = ids.get(key);
    if (id === undefined) {
      if (threads.length >= maxStates)
        throw new TooManyStatesError(`more than ${maxStates} automaton states`);
      id = threads.length;
      ids.set(key, id);
      threads.push(t);
    }
    return id;
  };
  const initial = closeThreads(nfa, [{ q: nfa.start, pos: [], neg: [] }], true).map(intern);
  const accept: boolean[] = [];
  const edges: AutomatonEdge[][] = [];
  let work = 0;
  for (let id = 0; id < threads.length; id++) {
    const t = threads[id]!;
    const { domain, sets } = setsOf(nfa, t);
    const bounds = boundariesOf(sets);
    const byTarget = new Map<number, Array<[number, number]>>();
    for (let k = 0; k < bounds.length; k++) {
      const lo = bounds[k]!;
      if (!setHas(domain, lo)) continue;
      const hi = k + 1 < bounds.length ? bounds[k + 1]! - 1 : MAX_CODE;
      if (++work > maxWork) throw new TooManyStatesError(`more than ${maxWork} steps to build the automaton`);
      for (const next of stepThread(nfa, t, lo)) {
        const to = intern(next);
        const ranges = byTarget.get(to) ?? [];
        ranges.push([lo, hi]);
        byTarget.set(to, ranges);
      }
    }
    edges.push([...byTarget].map(([to, ranges]) => ({ set: charSetOf(ranges), to })));
    accept.push(acceptsAtEnd(nfa, t));
  }
  return { initial: [...new Set(initial)], accept, edges };
}
