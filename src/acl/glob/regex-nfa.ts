import type { CharSet } from './char-set.js';
import { type RegexNode, UnsupportedRegexError } from './regex-parse.js';

/**
 * A Thompson NFA whose edges may also assert: `bol` (at the start of the input), `eol` (at its end) and `look`
 * (the rest of the input does, or does not, begin with a word of the lookahead body that starts at `body`, or at
 * `bodyAtStart` when the lookahead stands at the start of the input and that differs).
 * Lookahead bodies are separate sub-automata ending in states marked in `bodyFinal`.
 */
export type NfaEdge =
  | { k: 'char'; set: CharSet; to: number }
  | { k: 'eps'; to: number }
  | { k: 'bol'; to: number }
  | { k: 'eol'; to: number }
  | { k: 'look'; neg: boolean; body: number; bodyAtStart?: number; to: number };

export interface Nfa {
  out: NfaEdge[][];
  start: number;
  final: number;
  bodyFinal: boolean[];
}

/** An epsilon-free automaton over character sets (automaton.ts's Automaton, restated to keep imports one-way). */
export interface FlatBody {
  initial: number[];
  accept: boolean[];
  edges: Array<Array<{ set: CharSet; to: number }>>;
}

/**
 * A lookahead whose body held lookaheads, made flat (nested-looks.ts): the language of "the rest of the input",
 * read to its end, for which the body holds, with the body's own lookaheads resolved. `atStart` serves a lookahead
 * at the start of the input (a `^` inside can then hold); `emptyAtEnd`, one at the end of the input.
 */
export interface FlatLook {
  anywhere: FlatBody;
  atStart: FlatBody;
  emptyAtEnd: boolean;
}

/** Thrown when the NFA would exceed its state bound; the caller turns it into rule `max_states`. */
export class TooManyStatesError extends Error {}

interface Frag {
  start: number;
  end: number;
}

interface Task {
  node: RegexNode;
  kids: RegexNode[];
  frags: Frag[];
  inLook: boolean;
}

function kidsOf(node: RegexNode, flat: ReadonlyMap<RegexNode, FlatLook>): RegexNode[] {
  switch (node.t) {
    case 'seq':
    case 'alt':
      return node.items;
    case 'rep': {
      const copies = node.min + (node.max === Infinity ? 1 : node.max - node.min);
      return Array.from({ length: copies }, () => node.item);
    }
    case 'look':
      return flat.has(node) ? [] : [node.item];
    default:
      return [];
  }
}

/**
 * Builds the NFA of a regex tree with an explicit stack (no recursion on nesting), within `maxStates` states. A
 * lookahead inside another must be in `flat` (its body already made lookahead-free), else UnsupportedRegexError.
 */
export function buildNfa(
  root: RegexNode,
  maxStates: number,
  flat: ReadonlyMap<RegexNode, FlatLook> = new Map(),
): Nfa {
  const out: NfaEdge[][] = [];
  const bodyFinal: boolean[] = [];
  const state = (): number => {
    if (out.length >= maxStates) throw new TooManyStatesError(`more than ${maxStates} NFA states`);
    out.push([]);
    bodyFinal.push(false);
    return out.length - 1;
  };
  const eps = (from: number, to: number) => out[from]!.push({ k: 'eps', to });
  /**
   * A flat body as NFA states: the automaton's edges, an `eol` edge from each accepting state to the body's end
   * (the body holds only once the whole rest is read), and a fresh entry that reads the initial states' edges
   * (their `accept` is only meaningful past a character) and reaches the end at once when the rest may be empty.
   */
  const flatBody = (body: FlatBody, emptyAtEnd: boolean): number => {
    const end = state();
    bodyFinal[end] = true;
    const ids = body.edges.map(() => state());
    body.edges.forEach((list, k) => {
      for (const e of list) out[ids[k]!]!.push({ k: 'char', set: e.set, to: ids[e.to]! });
      if (body.accept[k]) out[ids[k]!]!.push({ k: 'eol', to: end });
    });
    const entry = state();
    for (const i of body.initial)
      for (const e of body.edges[i]!) out[entry]!.push({ k: 'char', set: e.set, to: ids[e.to]! });
    if (emptyAtEnd) out[entry]!.push({ k: 'eol', to: end });
    return entry;
  };

  const build = (task: Task): Frag => {
    const { node, frags } = task;
    switch (node.t) {
      case 'set':
      case 'bol':
      case 'eol': {
        const s = state();
        const e = state();
        out[s]!.push(node.t === 'set' ? { k: 'char', set: node.set, to: e } : { k: node.t, to: e });
        return { start: s, end: e };
      }
      case 'seq': {
        if (frags.length === 0) {
          const s = state();
          return { start: s, end: s };
        }
        for (let k = 0; k + 1 < frags.length; k++) eps(frags[k]!.end, frags[k + 1]!.start);
        return { start: frags[0]!.start, end: frags[frags.length - 1]!.end };
      }
      case 'alt': {
        const s = state();
        const e = state();
        for (const f of frags) {
          eps(s, f.start);
          eps(f.end, e);
        }
        return { start: s, end: e };
      }
      case 'rep': {
        const s = state();
        let cur = s;
        for (let k = 0; k < node.min; k++) {
          eps(cur, frags[k]!.start);
          cur = frags[k]!.end;
        }
        if (node.max === Infinity) {
          // A hub state that is both the loop's entry and its exit.
          const hub = state();
          const body = frags[node.min]!;
          eps(cur, hub);
          eps(hub, body.start);
          eps(body.end, hub);
          return { start: s, end: hub };
        }
        const e = state();
        for (let k = node.min; k < frags.length; k++) {
          eps(cur, e);
          eps(cur, frags[k]!.start);
          cur = frags[k]!.end;
        }
        eps(cur, e);
        return { start: s, end: e };
      }
      case 'look': {
        const made = flat.get(node);
        if (made) {
          const body = flatBody(made.anywhere, made.emptyAtEnd);
          const atStart = made.atStart === made.anywhere ? body : flatBody(made.atStart, made.emptyAtEnd);
          const s = state();
          const e = state();
          out[s]!.push({ k: 'look', neg: node.neg, body, bodyAtStart: atStart, to: e });
          return { start: s, end: e };
        }
        const body = frags[0]!;
        bodyFinal[body.end] = true;
        const s = state();
        const e = state();
        out[s]!.push({ k: 'look', neg: node.neg, body: body.start, to: e });
        return { start: s, end: e };
      }
    }
  };

  const stack: Task[] = [{ node: root, kids: kidsOf(root, flat), frags: [], inLook: false }];
  let result: Frag | undefined;
  while (stack.length > 0) {
    const task = stack[stack.length - 1]!;
    if (task.frags.length < task.kids.length) {
      const child = task.kids[task.frags.length]!;
      const inLook = task.inLook || task.node.t === 'look';
      if (child.t === 'look' && inLook && !flat.has(child)) {
        throw new UnsupportedRegexError('a lookahead inside a lookahead that was not made flat first');
      }
      stack.push({ node: child, kids: kidsOf(child, flat), frags: [], inLook });
      continue;
    }
    stack.pop();
    const frag = build(task);
    if (stack.length > 0) stack[stack.length - 1]!.frags.push(frag);
    else result = frag;
  }
  return { out, start: result!.start, final: result!.end, bodyFinal };
}
