import { type CharSet, charSetOf, complementSet, singleChar } from './char-set.js';
import { parseClass, parseEscape, UnsupportedRegexError } from './regex-class.js';

export { UnsupportedRegexError };

/**
 * The regular expressions picomatch emits, as a tree. We parse picomatch's own output (`makeRe`) rather than the
 * glob, so the automaton has picomatch's semantics by construction, quirks included. Anything outside this subset
 * (lookbehind, backreferences, word boundaries, named groups, nested lookaheads) is refused, never guessed.
 */
export type RegexNode =
  | { t: 'set'; set: CharSet }
  | { t: 'seq'; items: RegexNode[] }
  | { t: 'alt'; items: RegexNode[] }
  | { t: 'rep'; min: number; max: number; item: RegexNode }
  | { t: 'bol' }
  | { t: 'eol' }
  | { t: 'look'; neg: boolean; item: RegexNode };

/** `.` without the `s` flag: anything but the four line terminators. */
export const DOT_SET: CharSet = complementSet(
  charSetOf([
    [0x0a, 0x0a],
    [0x0d, 0x0d],
    [0x2028, 0x2029],
  ]),
);

/** Repetition counts above this are refused: picomatch itself never emits more than {1,2}. */
const MAX_REPEAT = 16;

interface Frame {
  kind: 'root' | 'group' | 'look';
  neg: boolean;
  alts: RegexNode[][];
  cur: RegexNode[];
}

function close(frame: Frame): RegexNode {
  const alts = [...frame.alts, frame.cur].map((items): RegexNode => {
    if (items.length === 1) return items[0]!;
    return { t: 'seq', items };
  });
  return alts.length === 1 ? alts[0]! : { t: 'alt', items: alts };
}

const QUANTIFIER = /^\{(\d+)(?:(,)(\d*))?\}/;

/** Parses a JS regular expression source (no flags) into a tree, iteratively (no recursion on nesting). */
export function parseRegex(source: string): RegexNode {
  const stack: Frame[] = [{ kind: 'root', neg: false, alts: [], cur: [] }];
  let i = 0;
  const top = () => stack[stack.length - 1]!;
  while (i < source.length) {
    const ch = source[i]!;
    if (ch === '(') {
      if (source.startsWith('(?:', i)) {
        stack.push({ kind: 'group', neg: false, alts: [], cur: [] });
        i += 3;
      } else if (source.startsWith('(?=', i) || source.startsWith('(?!', i)) {
        stack.push({ kind: 'look', neg: source[i + 2] === '!', alts: [], cur: [] });
        i += 3;
      } else if (source[i + 1] === '?') {
        throw new UnsupportedRegexError(`the group '${source.slice(i, i + 4)}' (lookbehind or named group)`);
      } else {
        stack.push({ kind: 'group', neg: false, alts: [], cur: [] });
        i += 1;
      }
      continue;
    }
    if (ch === ')') {
      const frame = stack.pop();
      if (!frame || frame.kind === 'root') throw new UnsupportedRegexError('an unbalanced ")"');
      const node = close(frame);
      top().cur.push(frame.kind === 'look' ? { t: 'look', neg: frame.neg, item: node } : node);
      i += 1;
      continue;
    }
    if (ch === '|') {
      const frame = top();
      frame.alts.push(frame.cur);
      frame.cur = [];
      i += 1;
      continue;
    }
    const quant = readQuantifier(source, i);
    if (quant) {
      const cur = top().cur;
      const last = cur.pop();
      // A quantified assertion (`(?:$)*`, Annex B's `(?=a)?`) is a plain loop of its edges in the NFA.
      if (!last) throw new UnsupportedRegexError('a quantifier with nothing to repeat');
      if (quant.min > MAX_REPEAT || (quant.max !== Infinity && quant.max > MAX_REPEAT)) {
        throw new UnsupportedRegexError(`a repetition count above ${MAX_REPEAT}`);
      }
      cur.push({ t: 'rep', min: quant.min, max: quant.max, item: last });
      // A lazy quantifier (`*?`) matches the same strings: laziness only changes which match is reported.
      i = quant.end < source.length && source[quant.end] === '?' ? quant.end + 1 : quant.end;
      continue;
    }
    if (ch === '^' || ch === '$') {
      top().cur.push({ t: ch === '^' ? 'bol' : 'eol' });
      i += 1;
      continue;
    }
    if (ch === '.') {
      top().cur.push({ t: 'set', set: DOT_SET });
      i += 1;
      continue;
    }
    if (ch === '[') {
      const cls = parseClass(source, i);
      top().cur.push({ t: 'set', set: cls.set });
      i = cls.end;
      continue;
    }
    if (ch === '\\') {
      const esc = parseEscape(source, i, false);
      top().cur.push({ t: 'set', set: esc.set });
      i = esc.end;
      continue;
    }
    top().cur.push({ t: 'set', set: singleChar(ch.charCodeAt(0)) });
    i += 1;
  }
  if (stack.length !== 1) throw new UnsupportedRegexError('an unclosed group');
  return close(stack[0]!);
}

function readQuantifier(source: string, i: number): { min: number; max: number; end: number } | undefined {
  const ch = source[i];
  if (ch === '*') return { min: 0, max: Infinity, end: i + 1 };
  if (ch === '+') return { min: 1, max: Infinity, end: i + 1 };
  if (ch === '?') return { min: 0, max: 1, end: i + 1 };
  if (ch !== '{') return undefined;
  // Without the `u` flag a `{` that does not start a well-formed quantifier is a literal (Annex B).
  const m = QUANTIFIER.exec(source.slice(i, i + 24));
  if (!m) return undefined;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
  return { min, max, end: i + m[0].length };
}
