import { setHas } from './char-set.js';
import type { Nfa } from './regex-nfa.js';

/**
 * A thread of the NFA with its pending lookaheads. A lookahead is a condition on the rest of the input, so a thread
 * carries it forward as an obligation and advances it with every character:
 * - `pos`: each entry is one pending positive lookahead, as the set of its body's states still alive (a subset:
 *   the lookahead holds once any of them reaches the body's end; it fails when the set dies out);
 * - `neg`: the union of every pending negative lookahead's live body states (the thread dies as soon as one reaches
 *   its body's end; a body state belongs to one lookahead only, so one union serves all of them).
 * A thread's future depends only on (q, pos, neg), which makes the set of threads a finite automaton with no
 * lookaheads left: the exact language of the regex.
 */
export interface Thread {
  q: number;
  pos: number[][];
  neg: number[];
}

export function threadKey(t: Thread): string {
  return `${t.q}|${t.pos.map((s) => s.join('.')).join(';')}|${t.neg.join('.')}`;
}

interface Closure {
  /** Live states: those that read a character, or that wait for the end of input (`$`) when not at it. */
  core: number[];
  /** A body's end was reached. */
  final: boolean;
}

/** Epsilon closure inside lookahead bodies (which hold no lookaheads themselves: nested ones are made flat first). */
export function bodyClosure(nfa: Nfa, seeds: Iterable<number>, atStart: boolean, atEnd: boolean): Closure {
  const seen = new Set<number>();
  const stack = [...seeds];
  const core: number[] = [];
  let final = false;
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    if (nfa.bodyFinal[s]) final = true;
    let live = false;
    for (const e of nfa.out[s]!) {
      if (e.k === 'eps' || (e.k === 'bol' && atStart) || (e.k === 'eol' && atEnd)) stack.push(e.to);
      else if (e.k === 'char' || e.k === 'eol') live = true;
    }
    if (live) core.push(s);
  }
  return { core: core.sort((x, y) => x - y), final };
}

function stepStates(nfa: Nfa, states: readonly number[], code: number): number[] {
  const next: number[] = [];
  for (const s of states) {
    for (const e of nfa.out[s]!) if (e.k === 'char' && setHas(e.set, code)) next.push(e.to);
  }
  return next;
}

function unionSorted(a: readonly number[], b: readonly number[]): number[] {
  return [...new Set([...a, ...b])].sort((x, y) => x - y);
}

/** Canonical obligations: no duplicates, and no superset of another (the smaller set implies the larger). */
function normalizePos(pos: number[][]): number[][] {
  const unique = [...new Map(pos.map((s) => [s.join('.'), s])).values()];
  const kept = unique.filter(
    (s) => !unique.some((o) => o !== s && o.length < s.length && o.every((x) => s.includes(x))),
  );
  return kept.sort((x, y) => (x.join('.') < y.join('.') ? -1 : 1));
}

/** The closure of a lookahead body from its start: the same at every visit, so computed once per NFA. */
const lookStarts = new WeakMap<Nfa, Map<number, Closure>>();
function lookStart(nfa: Nfa, body: number, atStart: boolean): Closure {
  let byBody = lookStarts.get(nfa);
  if (byBody === undefined) {
    byBody = new Map();
    lookStarts.set(nfa, byBody);
  }
  const key = body * 2 + (atStart ? 1 : 0);
  let got = byBody.get(key);
  if (got === undefined) {
    got = bodyClosure(nfa, [body], atStart, false);
    byBody.set(key, got);
  }
  return got;
}

/**
 * The live threads reachable from `seeds` without reading a character (not at the end of input). Obligations only
 * change at lookahead edges, so they are interned to small ids and a visit is keyed by (obligations, state).
 */
export function closeThreads(nfa: Nfa, seeds: Thread[], atStart: boolean): Thread[] {
  const ids = new Map<string, number>();
  const obligations: Array<Pick<Thread, 'pos' | 'neg'>> = [];
  const intern = (pos: number[][], neg: number[]): number => {
    const key = `${pos.map((set) => set.join('.')).join(';')}|${neg.join('.')}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = obligations.length;
      ids.set(key, id);
      obligations.push({ pos, neg });
    }
    return id;
  };
  const width = nfa.out.length;
  const seen = new Set<number>();
  const stack: number[] = [];
  for (const t of seeds) stack.push(intern(t.pos, t.neg) * width + t.q);
  const out: Thread[] = [];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    if (seen.has(visit)) continue;
    seen.add(visit);
    const q = visit % width;
    const ob = (visit - q) / width;
    const { pos, neg } = obligations[ob]!;
    let live = q === nfa.final;
    for (const e of nfa.out[q]!) {
      if (e.k === 'eps' || (e.k === 'bol' && atStart)) stack.push(ob * width + e.to);
      else if (e.k === 'char' || e.k === 'eol') live = true;
      else if (e.k === 'look') {
        const body = lookStart(nfa, atStart ? (e.bodyAtStart ?? e.body) : e.body, atStart);
        if (e.neg) {
          if (!body.final) stack.push(intern(pos, unionSorted(neg, body.core)) * width + e.to);
        } else if (body.final) stack.push(ob * width + e.to);
        else if (body.core.length > 0)
          stack.push(intern(normalizePos([...pos, body.core]), neg) * width + e.to);
      }
    }
    if (live) out.push({ q, pos, neg });
  }
  return out;
}

/**
 * The threads after reading the character `code` (an empty list when the thread dies). `memo` caches closures by
 * seed across the steps of one build: many steps land on the same seed.
 */
export function stepThread(nfa: Nfa, t: Thread, code: number, memo: Map<string, Thread[]>): Thread[] {
  const targets = stepStates(nfa, [t.q], code);
  if (targets.length === 0) return [];
  const pos: number[][] = [];
  for (const obligation of t.pos) {
    const body = bodyClosure(nfa, stepStates(nfa, obligation, code), false, false);
    if (body.final) continue;
    if (body.core.length === 0) return [];
    pos.push(body.core);
  }
  const negBody = bodyClosure(nfa, stepStates(nfa, t.neg, code), false, false);
  if (negBody.final) return [];
  const base = { pos: normalizePos(pos), neg: negBody.core };
  const out: Thread[] = [];
  for (const q of targets) {
    const seed = { q, ...base };
    const key = threadKey(seed);
    let closed = memo.get(key);
    if (closed === undefined) {
      closed = closeThreads(nfa, [seed], false);
      memo.set(key, closed);
    }
    out.push(...closed);
  }
  return out;
}

/** Does the thread accept if the input ends here (past its first character)? */
export function acceptsAtEnd(nfa: Nfa, t: Thread): boolean {
  if (!t.pos.every((s) => bodyClosure(nfa, s, false, true).final)) return false;
  if (bodyClosure(nfa, t.neg, false, true).final) return false;
  const seen = new Set<number>();
  const stack = [t.q];
  while (stack.length > 0) {
    const q = stack.pop()!;
    if (q === nfa.final) return true;
    if (seen.has(q)) continue;
    seen.add(q);
    for (const e of nfa.out[q]!) {
      if (e.k === 'eps' || e.k === 'eol') stack.push(e.to);
      else if (e.k === 'look' && bodyClosure(nfa, [e.body], false, true).final !== e.neg) stack.push(e.to);
    }
  }
  return false;
}
