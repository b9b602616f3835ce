import { type Automaton, buildAutomaton } from './automaton.js';
import { ANY_SET } from './char-set.js';
import { minimizeAutomaton } from './minimize.js';
import { buildNfa, type FlatLook } from './regex-nfa.js';
import type { RegexNode } from './regex-parse.js';
import { acceptsAtEnd, closeThreads } from './threads.js';

export interface AutomatonLimits {
  maxNfaStates: number;
  maxStates: number;
  maxWork: number;
  maxEdges: number;
}

function childrenOf(node: RegexNode): RegexNode[] {
  switch (node.t) {
    case 'seq':
    case 'alt':
      return node.items;
    case 'rep':
    case 'look':
      return [node.item];
    default:
      return [];
  }
}

/**
 * The lookaheads that hold a lookahead, innermost first, and whether each body holds a `^`. picomatch wraps one
 * negated extglob in a lookahead that holds its own (a dot segment, a non-empty rest): `!(*.*)` is one.
 */
function nestingLooks(root: RegexNode): Array<{ look: RegexNode & { t: 'look' }; bol: boolean }> {
  const facts = new Map<RegexNode, { look: boolean; bol: boolean }>();
  const order: Array<{ look: RegexNode & { t: 'look' }; bol: boolean }> = [];
  const stack: Array<{ node: RegexNode; expanded: boolean }> = [{ node: root, expanded: false }];
  while (stack.length > 0) {
    const top = stack.pop()!;
    if (facts.has(top.node)) continue;
    const kids = childrenOf(top.node);
    if (!top.expanded) {
      stack.push({ node: top.node, expanded: true });
      for (const k of kids) if (!facts.has(k)) stack.push({ node: k, expanded: false });
      continue;
    }
    let look = false;
    let bol = top.node.t === 'bol';
    for (const k of kids) {
      const f = facts.get(k)!;
      look ||= f.look || k.t === 'look';
      bol ||= f.bol;
    }
    if (top.node.t === 'look' && (facts.get(top.node.item)!.look || top.node.item.t === 'look')) {
      order.push({ look: top.node, bol });
    }
    facts.set(top.node, { look, bol });
  }
  return order;
}

/**
 * The exact automaton of a regex tree whose lookaheads may nest. Innermost first, each lookahead that holds
 * another is made flat: its body followed by anything (`B[^]*`, its inner lookaheads reading the whole rest as in
 * JavaScript) is built into an automaton of its own, which stands for the body in the lookahead above. One step
 * budget serves every build, so nesting cannot multiply the cost of a pattern.
 */
export function regexAutomaton(root: RegexNode, limits: AutomatonLimits): Automaton {
  const flat = new Map<RegexNode, FlatLook>();
  const spent = { work: 0 };
  const build = (nfa: ReturnType<typeof buildNfa>, atStart: boolean) =>
    buildAutomaton(nfa, limits.maxStates, limits.maxWork, limits.maxEdges, spent, atStart);
  // A flat body is carried by every thread that meets it: minimal, it costs the automaton above the least.
  const body = (nfa: ReturnType<typeof buildNfa>, atStart: boolean) =>
    minimizeAutomaton(build(nfa, atStart), limits.maxStates, limits.maxWork * 10);
  for (const { look, bol } of nestingLooks(root)) {
    const rest: RegexNode = {
      t: 'seq',
      items: [look.item, { t: 'rep', min: 0, max: Infinity, item: { t: 'set', set: ANY_SET } }],
    };
    const nfa = buildNfa(rest, limits.maxNfaStates, flat);
    const anywhere = body(nfa, false);
    const emptyAtEnd = closeThreads(nfa, [{ q: nfa.start, pos: [], neg: [] }], false).some((t) =>
      acceptsAtEnd(nfa, t),
    );
    flat.set(look, { anywhere, atStart: bol ? body(nfa, true) : anywhere, emptyAtEnd });
  }
  return build(buildNfa(root, limits.maxNfaStates, flat), true);
}
