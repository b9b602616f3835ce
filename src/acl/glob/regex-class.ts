import { type CharSet, charSetOf, complementSet, singleChar, unionSets } from './char-set.js';

const DIGIT = charSetOf([[0x30, 0x39]]);
const WORD = charSetOf([
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
]);
/** `\s` as ECMAScript defines it: WhiteSpace plus LineTerminator. */
const SPACE = charSetOf([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
const CONTROL_ESCAPES: Record<string, number> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d };
const CLASS_ESCAPES: Record<string, CharSet> = {
  d: DIGIT,
  D: complementSet(DIGIT),
  w: WORD,
  W: complementSet(WORD),
  s: SPACE,
  S: complementSet(SPACE),
};

/** A construct we do not model exactly; the caller turns it into a ValidationError with rule `unsupported`. */
export class UnsupportedRegexError extends Error {}

export interface Parsed {
  set: CharSet;
  /** True when the escape names a class (`\d`), which cannot be a range endpoint. */
  multi: boolean;
  end: number;
}

/** One escape starting at `source[i] === '\\'`. */
export function parseEscape(source: string, i: number, inClass: boolean): Parsed {
  const c = source[i + 1];
  if (c === undefined) throw new UnsupportedRegexError('a trailing backslash');
  const cls = CLASS_ESCAPES[c];
  if (cls) return { set: cls, multi: true, end: i + 2 };
  const control = CONTROL_ESCAPES[c];
  if (control !== undefined) return { set: singleChar(control), multi: false, end: i + 2 };
  if (c === 'b' && inClass) return { set: singleChar(0x08), multi: false, end: i + 2 };
  if (c === '0' && !/[0-9]/.test(source[i + 2] ?? ''))
    return { set: singleChar(0), multi: false, end: i + 2 };
  if (c === 'x' || c === 'u') {
    const width = c === 'x' ? 2 : 4;
    const hex = source.slice(i + 2, i + 2 + width);
    if (hex.length === width && /^[0-9a-fA-F]+$/.test(hex)) {
      return { set: singleChar(Number.parseInt(hex, 16)), multi: false, end: i + 2 + width };
    }
  }
  // Word boundaries, backreferences, \c, \k, \p and other letter escapes: outside the subset we model.
  if (/[A-Za-z0-9]/.test(c)) throw new UnsupportedRegexError(`the escape '\\${c}'`);
  return { set: singleChar(c.charCodeAt(0)), multi: false, end: i + 2 };
}

function classAtom(source: string, i: number): Parsed {
  if (source[i] === '\\') return parseEscape(source, i, true);
  return { set: singleChar(source.charCodeAt(i)), multi: false, end: i + 1 };
}

/** A character class starting at `source[i] === '['`; `[]` matches nothing and `[^]` anything, as in JS. */
export function parseClass(source: string, i: number): { set: CharSet; end: number } {
  let j = i + 1;
  const negated = source[j] === '^';
  if (negated) j++;
  let set: CharSet = [];
  while (j < source.length && source[j] !== ']') {
    const first = classAtom(source, j);
    j = first.end;
    if (source[j] === '-' && j + 1 < source.length && source[j + 1] !== ']') {
      const second = classAtom(source, j + 1);
      if (first.multi || second.multi)
        throw new UnsupportedRegexError('a range with a class escape as an end');
      const lo = first.set[0]!;
      const hi = second.set[0]!;
      if (lo > hi) throw new UnsupportedRegexError('a range out of order');
      set = unionSets(set, [lo, hi]);
      j = second.end;
      continue;
    }
    set = unionSets(set, first.set);
  }
  if (j >= source.length) throw new UnsupportedRegexError('an unclosed character class');
  return { set: negated ? complementSet(set) : set, end: j + 1 };
}
