import { globRefusal } from './refuse.js';

/**
 * A claim pattern's alternatives, held to the rules of a plain pattern that keep it inside the repository (issue
 * 25): `/etc/**` is refused as absolute and `../x` for its parent segment, so `{/etc,src}/**`, `@(/etc|src)/**`,
 * `[/]etc/**`, `a/.{.,x}/b` and `+(.)/x` are too. What a pattern spells is checked: braces (nested too, and
 * `{x..y}` ranges), groups `(a|b)` and extglobs `@( )`, `?( )`, `*( )`, `+( )` are expanded as picomatch reads
 * them (a repeated extglob as zero, one and two copies, so that `+(.)` shows `..`), and a class of one character
 * is that character. Wildcards, wider classes and `!( )` stand for an ordinary character: they spell no path (and
 * overlap is decided over real repository paths only, where `..` and a leading `/` never occur). A leading `!`
 * or an empty alternative is no rule here: inside braces and groups `!` is a plain character, and `{,a}` names
 * `a`. The expansion is counted before it is built, and refused past MAX_ALTERNATIVES.
 */

/** Expansions of one pattern past which it is refused (`max_alternatives`): 12 binary braces in a row is 4,096. */
export const MAX_ALTERNATIVES = 4096;

/** One character a wildcard or a class may stand for that no rule looks at. */
const ORDINARY = '\uE000';
/** The characters the rules look at (absolute paths, drive letters, parent segments), and an ordinary one. */
const TELLING = ['/', '.', ':', 'C', ORDINARY] as const;

type Node = { kind: 'lit'; text: string } | { kind: 'seq'; parts: Node[] } | { kind: 'alt'; options: Node[] };

const lit = (text: string): Node => ({ kind: 'lit', text });
const seq = (parts: Node[]): Node => ({ kind: 'seq', parts });
const alt = (options: Node[]): Node => ({ kind: 'alt', options });

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
  const options = splitTop(p, open + 1, end, '|').map(parse);
  const twice = options.flatMap((a) => options.map((b) => seq([a, b])));
  if (kind === '?') return alt([lit(''), ...options]);
  if (kind === '*') return alt([lit(''), ...options, ...twice]);
  if (kind === '+') return alt([...options, ...twice]);
  return alt(options);
}

/** How many expansions `node` has, counted up to `cap + 1`. */
function count(node: Node, cap: number): number {
  if (node.kind === 'lit') return 1;
  let n = node.kind === 'seq' ? 1 : 0;
  for (const part of node.kind === 'seq' ? node.parts : node.options) {
    const k = count(part, cap);
    n = node.kind === 'seq' ? n * k : n + k;
    if (n > cap) return cap + 1;
  }
  return n;
}

function expand(node: Node): string[] {
  if (node.kind === 'lit') return [node.text];
  if (node.kind === 'alt') return node.options.flatMap(expand);
  let out = [''];
  for (const part of node.parts) {
    const next = expand(part);
    out = out.flatMap((head) => next.map((tail) => head + tail));
  }
  return out;
}

/** The plain-pattern rule an expansion breaks, with its reason; undefined when it keeps them all. */
function brokenRule(e: string): { rule: string; reason: string } | undefined {
  if (e.startsWith('/') || /^[A-Za-z]:(\/|$)/.test(e))
    return { rule: 'relative', reason: 'a pattern is relative to the repository root, never absolute' };
  if (e.split('/').includes('..'))
    return { rule: 'no_parent_segments', reason: "a pattern may not climb out with a '..' segment" };
  return undefined;
}

/** Refuses a pattern one of whose alternatives breaks a rule of a plain pattern, naming the alternative. */
export function checkAlternatives(normalized: string, field: string, pattern: string): void {
  if (!/[{([]/.test(normalized)) return;
  const tree = parse(normalized);
  const n = count(tree, MAX_ALTERNATIVES);
  if (n > MAX_ALTERNATIVES)
    throw globRefusal(
      field,
      pattern,
      'max_alternatives',
      `its braces and groups expand to more than ${MAX_ALTERNATIVES} alternatives; claim fewer, broader patterns`,
    );
  for (const e of expand(tree)) {
    const broken = brokenRule(e);
    if (broken) {
      const shown = JSON.stringify(e.replaceAll(ORDINARY, '*'));
      throw globRefusal(
        field,
        pattern,
        broken.rule,
        `its alternative ${shown} breaks a rule: ${broken.reason}`,
      );
    }
  }
}
