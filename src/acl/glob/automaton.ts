import { ANY_SET, boundariesOf, type CharSet, charSetOf, MAX_CODE, setHas, unionSets } from './char-set.js';
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

/** Accepts every string: searched against it, an automaton yields its own least real path. */
export const EVERYTHING: Automaton = { initial: [0], accept: [true], edges: [[{ set: ANY_SET, to: 0 }]] };

/** Per NFA state, computed once per build: its character sets and the points where their membership changes. */
class StateSets {
  private readonly sets: Array<CharSet[] | undefined> = [];
  private readonly bounds: Array<number[] | undefined> = [];
  private readonly domains: Array<CharSet | undefined> = [];
  constructor(private readonly nfa: Nfa) {}

  setsOf(s: number): CharSet[] {
    let got = this.sets[s];
    if (got === undefined) {
      got = [];
      for (const e of this.nfa.out[s]!) if (e.k === 'char') got.push(e.set);
      this.sets[s] = got;
    }
    return got;
  }

  boundsOf(s: number): number[] {
    let got = this.bounds[s];
    if (got === undefined) {
      got = boundariesOf(this.setsOf(s));
      this.bounds[s] = got;
    }
    return got;
  }

  domainOf(s: number): CharSet {
    let got = this.domains[s];
    if (got === undefined) {
      got = this.setsOf(s).reduce<CharSet>((acc, set) => unionSets(acc, set), []);
      this.domains[s] = got;
    }
    return got;
  }
}

/**
 * The elementary intervals of a thread's next step, grouped by signature: which of the sets in play (its own edges'
 * and its pending lookaheads') hold the interval. Intervals of one signature lead to the same threads.
 */
function stepClasses(tables: StateSets, t: Thread): Array<Array<[number, number]>> {
  const states = [t.q, ...t.pos.flat(), ...t.neg];
  const points = new Set<number>();
  for (const s of states) for (const b of tables.boundsOf(s)) points.add(b);
  const bounds = [...points].sort((x, y) => x - y);
  const domain = tables.domainOf(t.q);
  const sets = states.flatMap((s) => tables.setsOf(s));
  const bySignature = new Map<string, Array<[number, number]>>();
  for (let k = 0; k < bounds.length; k++) {
    const lo = bounds[k]!;
    if (!setHas(domain, lo)) continue;
    const hi = k + 1 < bounds.length ? bounds[k + 1]! - 1 : MAX_CODE;
    let signature = '';
    for (const set of sets) signature += setHas(set, lo) ? '1' : '0';
    const ranges = bySignature.get(signature);
    if (ranges) ranges.push([lo, hi]);
    else bySignature.set(signature, [[lo, hi]]);
  }
  return [...bySignature.values()];
}

/**
 * Explores every thread reachable from the start, one step per class of characters that every set in play treats
 * alike (see stepClasses). Bounded by `maxStates` threads, `maxWork` steps and `maxEdges` edges: past any,
 * TooManyStatesError. `spent` counts steps across the builds of one pattern (nested-looks.ts builds several);
 * `atStart`: whether the input read begins at the start of the whole input (a `^` can hold there).
 */
export function buildAutomaton(
  nfa: Nfa,
  maxStates: number,
  maxWork: number,
  maxEdges: number,
  spent: { work: number } = { work: 0 },
  atStart = true,
): Automaton {
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
  const initial = closeThreads(nfa, [{ q: nfa.start, pos: [], neg: [] }], atStart).map(intern);
  const accept: boolean[] = [];
  const edges: AutomatonEdge[][] = [];
  const memo = new Map<string, Thread[]>();
  const tables = new StateSets(nfa);
  let edgeCount = 0;
  for (let id = 0; id < threads.length; id++) {
    const t = threads[id]!;
    const byTarget = new Map<number, Array<[number, number]>>();
    for (const ranges of stepClasses(tables, t)) {
      if (++spent.work > maxWork)
        throw new TooManyStatesError(`more than ${maxWork} steps to build the automaton`);
      for (const next of stepThread(nfa, t, ranges[0]![0], memo)) {
        const to = intern(next);
        const got = byTarget.get(to);
        if (got) got.push(...ranges);
        else byTarget.set(to, [...ranges]);
      }
    }
    edges.push([...byTarget].map(([to, ranges]) => ({ set: charSetOf(ranges), to })));
    edgeCount += byTarget.size;
    if (edgeCount > maxEdges) throw new TooManyStatesError(`more than ${maxEdges} automaton edges`);
    accept.push(acceptsAtEnd(nfa, t));
  }
  return { initial: [...new Set(initial)], accept, edges };
}

/** Does the automaton accept this non-empty string? */
export function runAutomaton(automaton: Automaton, input: string): boolean {
  let current = new Set(automaton.initial);
  for (let i = 0; i < input.length && current.size > 0; i++) {
    const code = input.charCodeAt(i);
    const next = new Set<number>();
    for (const s of current) for (const e of automaton.edges[s]!) if (setHas(e.set, code)) next.add(e.to);
    current = next;
  }
  for (const s of current) if (automaton.accept[s]) return true;
  return false;
}
