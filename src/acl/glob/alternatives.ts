import { globRefusal } from './refuse.js';

/**
 * A claim pattern's alternatives, held to the rules of a plain pattern that keep it inside the repository (issue
 * 25): `/etc/**` is refused as absolute and `../x` for its parent segment, so `{/etc,src}/**`, `@(/etc|src)/**`,
 * `[/]etc/**`, `a/.{.,x}/b` and `+(.)/x` are too. What a pattern spells is checked: braces (nested too, and
 * `{x..y}` ranges), groups `(a|b)` and extglobs `@( )`, `?( )`, `*( )`, `+( )` are read as picomatch reads them
 * (a repeated extglob as any number of copies, so that `+(.)` spells `..`), and a class of one character is that
 * character. Wildcards, wider classes and `!( )` stand for an ordinary character: they spell no path (and
 * overlap is decided over real repository paths only, where `..` and a leading `/` never occur). A leading `!`
 * or an empty alternative is no rule here: inside braces and groups `!` is a plain character, and `{,a}` names
 * `a`. The decision runs a small automaton over the pattern's tree, so any number of alternatives costs the same.
 */

/** Expansions listed to name the one that breaks a rule (12 binary braces in a row is 4,096); past it, none is named. */
const MAX_NAMED_ALTERNATIVES = 4096;

/** One character a wildcard or a class may stand for that no rule looks at. */
const ORDINARY = '\uE000';
/** The characters the rules look at (absolute paths, drive letters, parent segments), and an ordinary one. */
const TELLING = ['/', '.', ':', 'C', ORDINARY] as const;

type Node =
  | { kind: 'lit'; text: string }
  | { kind: 'seq'; parts: Node[] }
  | { kind: 'alt'; options: Node[] }
  /** `*( )` (min 0) and `+( )` (min 1): any number of copies. */
  | { kind: 'rep'; node: Node; min: 0 | 1 };

const lit = (text: string): Node => ({ kind: 'lit', text });
const seq = (parts: Node[]): Node => ({ kind: 'seq', parts });
const alt = (options: Node[]): Node => ({ kind: 'alt', options });
const rep = (node: Node, min: 0 | 1): Node => ({ kind: 'rep', node, min });

/** Index of the `]` closing the class opened at `open` (POSIX classes `[:alpha:]` inside), or -1. */
function classEnd(p: string, open: number): number {
  let i = open + 1;
  if (p[i] === '!' || p[i] === '^') i++;
  if (p[i] === ']') i++;
  for (; i < p.length; i++) {
    if (p[i] === '[' && p[i + 1] === ':') {
      const end = p.indexOf(':]', i + 2);
      if (end >= 0) i = end + 1;
    } else if (p[i] === ']') return i;
  }
  return -1;
}

/** Index of the bracket closing the brace or group opened at `open`, skipping classes and nested groups, or -1. */
function groupEnd(p: string, open: number): number {
  const stack: string[] = [p[open] === '{' ? '}' : ')'];
  for (let i = open + 1; i < p.length; i++) {
    const c = p[i]!;
    if (c === '[') {
      const end = classEnd(p, i);
      if (end >= 0) i = end;
    } else if (c === '{') stack.push('}');
    else if (c === '(') stack.push(')');
    else if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** Splits the inside of a group at its top-level separators (`,` of braces, `|` of groups). */
function splitTop(p: string, from: number, to: number, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < to; i++) {
    const c = p[i]!;
    if (c === '[') {
      const end = classEnd(p, i);
      if (end >= 0 && end < to) i = end;
    } else if (c === '{' || c === '(') depth++;
    else if (c === '}' || c === ')') depth--;
    else if (c === sep && depth === 0) {
      out.push(p.slice(start, i));
      start = i + 1;
    }
  }
  out.push(p.slice(start, to));
  return out;
}

/** A class of one character spells it (`[.]`, `[/]`); any other class stands for an ordinary character. */
function classNode(cls: string): Node {
  const inside = [...cls.slice(1, -1)];
  return lit(inside.length === 1 && inside[0] !== '!' && inside[0] !== '^' ? inside[0]! : ORDINARY);
}

/** The telling characters of a `{x..y}` range (one character at each end: longer ranges are refused apart). */
function rangeNode(from: string, to: string): Node {
  const lo = Math.min(from.codePointAt(0)!, to.codePointAt(0)!);
  const hi = Math.max(from.codePointAt(0)!, to.codePointAt(0)!);
  const inside = TELLING.filter(
    (ch) => ch !== ORDINARY && ch.codePointAt(0)! >= lo && ch.codePointAt(0)! <= hi,
  );
  return alt([...new Set([from, to, ...inside, ORDINARY])].map(lit));
}

/** The pattern as a tree of sequences and alternatives. */
function parse(p: string): Node {
  const parts: Node[] = [];
  let text = '';
  const flush = () => {
    if (text !== '') parts.push(lit(text));
    text = '';
  };
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    const extglob = '@?*+!'.includes(c) && p[i + 1] === '(';
    if (c === '[') {
      const end = classEnd(p, i);
      if (end < 0) {
        text += c;
        continue;
      }
      flush();
      parts.push(classNode(p.slice(i, end + 1)));
      i = end;
    } else if (c === '{' || c === '(' || extglob) {
      const open = extglob ? i + 1 : i;
      const end = groupEnd(p, open);
      if (end < 0) {
        text += c;
        continue;
      }
      flush();
      parts.push(groupNode(p, c, open, end));
      i = end;
    } else if (c === '*' || c === '?') {
      flush();
      parts.push(lit(ORDINARY));
    } else text += c;
  }
  flush();
  return parts.length === 1 ? parts[0]! : seq(parts);
}

/** A brace or group from `open` to `end`; `kind` is `{`, `(` or an extglob's character. */
function groupNode(p: string, kind: string, open: number, end: number): Node {
  if (kind === '{') {
    const options = splitTop(p, open + 1, end, ',');
    if (options.length > 1) return alt(options.map(parse));
    const range = /^(.)\.\.(.)$/u.exec(options[0]!);
    if (range) return rangeNode(range[1]!, range[2]!);
    // `{a}` is no brace expansion to picomatch: the braces are literal characters.
    return seq([lit('{'), parse(options[0]!), lit('}')]);
  }
  if (kind === '!') return lit(ORDINARY);
  const options = alt(splitTop(p, open + 1, end, '|').map(parse));
  if (kind === '?') return alt([lit(''), options]);
  if (kind === '*' || kind === '+') return rep(options, kind === '*' ? 0 : 1);
  return options;
}

// The decision: a small automaton read over the tree (every expansion at once, repetition included, in time linear
// in the pattern). A state is a pair: where the current segment stands (at its start, `.`, `..`, anything else, or
// a `..` segment already ended) and what the expansion's start says (nothing read, one letter, a letter and `:`,
// absolute, or surely relative). A node's effect is, for each state, the set of states it can end in (a bit mask).
const SEG = { start: 0, dot: 1, dots: 2, other: 3, climbed: 4 } as const;
const PRE = { none: 0, letter: 1, drive: 2, absolute: 3, relative: 4 } as const;
const STATES = 25;
const stateOf = (seg: number, pre: number) => seg * 5 + pre;
type Effect = Uint32Array;

function step(state: number, ch: string): number {
  let seg = Math.floor(state / 5);
  let pre = state % 5;
  if (seg !== SEG.climbed) {
    if (ch === '/') seg = seg === SEG.dots ? SEG.climbed : SEG.start;
    else if (ch === '.') seg = seg === SEG.start ? SEG.dot : seg === SEG.dot ? SEG.dots : SEG.other;
    else seg = SEG.other;
  }
  if (pre === PRE.none) pre = ch === '/' ? PRE.absolute : /^[A-Za-z]$/.test(ch) ? PRE.letter : PRE.relative;
  else if (pre === PRE.letter) pre = ch === ':' ? PRE.drive : PRE.relative;
  else if (pre === PRE.drive) pre = ch === '/' ? PRE.absolute : PRE.relative;
  return stateOf(seg, pre);
}

const identity = (): Effect => Uint32Array.from({ length: STATES }, (_, s) => 1 << s);

/** `a` then `b`. */
function compose(a: Effect, b: Effect): Effect {
  const out = new Uint32Array(STATES);
  for (let s = 0; s < STATES; s++) for (let t = 0; t < STATES; t++) if (a[s]! & (1 << t)) out[s]! |= b[t]!;
  return out;
}

function union(a: Effect, b: Effect): Effect {
  return a.map((m, s) => m | b[s]!);
}

function effectOf(node: Node): Effect {
  if (node.kind === 'lit') {
    const out = new Uint32Array(STATES);
    for (let s = 0; s < STATES; s++) {
      let t = s;
      for (const ch of node.text) t = step(t, ch);
      out[s] = 1 << t;
    }
    return out;
  }
  if (node.kind === 'seq') return node.parts.map(effectOf).reduce(compose, identity());
  if (node.kind === 'alt') return node.options.map(effectOf).reduce(union, new Uint32Array(STATES));
  // Any number of copies: the closure, reached within as many rounds as there are states.
  const once = effectOf(node.node);
  let closure = identity();
  for (;;) {
    const next = union(closure, compose(closure, once));
    if (next.every((m, s) => m === closure[s])) break;
    closure = next;
  }
  return node.min === 0 ? closure : compose(once, closure);
}

/** The rule some expansion of the tree breaks, decided by the automaton; undefined when none does. */
function brokenByTree(tree: Node): 'relative' | 'no_parent_segments' | undefined {
  const ends = effectOf(tree)[stateOf(SEG.start, PRE.none)]!;
  let climbs = false;
  for (let t = 0; t < STATES; t++) {
    if (!(ends & (1 << t))) continue;
    const seg = Math.floor(t / 5);
    const pre = t % 5;
    if (pre === PRE.absolute || pre === PRE.drive) return 'relative';
    if (seg === SEG.climbed || seg === SEG.dots) climbs = true;
  }
  return climbs ? 'no_parent_segments' : undefined;
}

/** How many expansions `node` has, counted up to `cap + 1`. */
function count(node: Node, cap: number): number {
  if (node.kind === 'lit') return 1;
  if (node.kind === 'rep') {
    const k = count(node.node, cap);
    return Math.min(cap + 1, node.min === 0 ? 1 + k + k * k : k + k * k);
  }
  let n = node.kind === 'seq' ? 1 : 0;
  for (const part of node.kind === 'seq' ? node.parts : node.options) {
    const k = count(part, cap);
    n = node.kind === 'seq' ? n * k : n + k;
    if (n > cap) return cap + 1;
  }
  return n;
}

/** The expansions, a repetition as zero (for `*`), one and two copies: enough to show what it breaks. */
function expand(node: Node): string[] {
  if (node.kind === 'lit') return [node.text];
  if (node.kind === 'rep') {
    const once = expand(node.node);
    const twice = once.flatMap((a) => once.map((b) => a + b));
    return [...(node.min === 0 ? [''] : []), ...once, ...twice];
  }
  if (node.kind === 'alt') return node.options.flatMap(expand);
  let out = [''];
  for (const part of node.parts) {
    const next = expand(part);
    out = out.flatMap((head) => next.map((tail) => head + tail));
  }
  return out;
}

/** The plain-pattern rule one expansion breaks; undefined when it keeps them. */
function brokenRule(e: string): keyof typeof REASONS | undefined {
  if (e.startsWith('/') || /^[A-Za-z]:(\/|$)/.test(e)) return 'relative';
  if (e.split('/').includes('..')) return 'no_parent_segments';
  return undefined;
}

const REASONS = {
  relative: 'a pattern is relative to the repository root, never absolute',
  no_parent_segments: "a pattern may not climb out with a '..' segment",
} as const;

/**
 * Refuses a pattern one of whose alternatives breaks a rule of a plain pattern, naming the alternative when the
 * expansions are few enough to list (MAX_NAMED_ALTERNATIVES); the decision itself never depends on their number.
 */
export function checkAlternatives(normalized: string, field: string, pattern: string): void {
  if (!/[{([]/.test(normalized)) return;
  const tree = parse(normalized);
  const rule = brokenByTree(tree);
  if (!rule) return;
  const named =
    count(tree, MAX_NAMED_ALTERNATIVES) <= MAX_NAMED_ALTERNATIVES
      ? expand(tree).find((e) => brokenRule(e) === rule)
      : undefined;
  const which =
    named === undefined
      ? 'one of its alternatives'
      : `its alternative ${JSON.stringify(named.replaceAll(ORDINARY, '*'))}`;
  throw globRefusal(field, pattern, rule, `${which} breaks a rule: ${REASONS[rule]}`);
}
