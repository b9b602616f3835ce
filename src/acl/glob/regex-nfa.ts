import type { CharSet } from './char-set.js';
import { type RegexNode, UnsupportedRegexError } from './regex-parse.js';

/**
 * A Thompson NFA whose edges may also assert: `bol` (at the start of the input), `eol` (at its end) and `look`
 * (the rest of the input does, or does not, begin with a word of the lookahead body that starts at `body`).
 * Lookahead bodies are separate sub-automata ending in states marked in `bodyFinal`.
 */
export type NfaEdge =
  | { k: 'char'; set: CharSet; to: number }
  | { k: 'eps'; to: number }
  | { k: 'bol'; to: number }
  | { k: 'eol'; to: number }
  | { k: 'look'; neg: boolean; body: number; to: number };

export interface Nfa {
  out: NfaEdge[][];
  start: number;
  final: number;
  bodyFinal: boolean[];
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

function kidsOf(node: RegexNode): RegexNode[] {
  switch (node.t) {
    case 'seq':
    case 'alt':
      return node.items;
    case 'rep': {
      const copies = node.min + (node.max === Infinity ? 1 : node.max - node.min);
      return Array.from({ length: copies }, () => node.item);
    }
    case 'look':
      return [node.item];
    default:
      return [];
  }
}

/** Builds the NFA of a regex tree with an explicit stack (no recursion on nesting), within `maxStates` states. */
export function buildNfa(root: RegexNode, maxStates: number): Nfa {
  const out: NfaEdge[][] = [];
  const bodyFinal: boolean[] = [];
  const state = (): number => {
    if (out.length >= maxStates) throw new TooManyStatesError(`more than ${maxStates} NFA states`);
    out.push([]);
    bodyFinal.push(false);
    return out.length - 1;
  };
  const eps = (from: number, to: number) => out[from]!.push({ k: 'eps', to });

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
        const body = frags[0]!;
        bodyFinal[body.end] = true;
        const s = state();
        const e = state();
        out[s]!.push({ k: 'look', neg: node.neg, body: body.start, to: e });
        return { start: s, end: e };
      }
    }
  };

  const stack: Task[] = [{ node: root, kids: kidsOf(root), frags: [], inLook: false }];
  let result: Frag | undefined;
  while (stack.length > 0) {
    const task = stack[stack.length - 1]!;
    if (task.frags.length < task.kids.length) {
      const child = task.kids[task.frags.length]!;
      const inLook = task.inLook || task.node.t === 'look';
      if (child.t === 'look' && inLook) {
        throw new UnsupportedRegexError('a lookahead inside a lookahead (a negated extglob within another)');
      }
      stack.push({ node: child, kids: kidsOf(child), frags: [], inLook });
      continue;
    }
    stack.pop();
    const frag = build(task);
    if (stack.length > 0) stack[stack.length - 1]!.frags.push(frag);
    else result = frag;
  }
  return { out, start: result!.start, final: result!.end, bodyFinal };
}
