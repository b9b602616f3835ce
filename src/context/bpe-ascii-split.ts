// The o200k split pattern, decided by hand for ASCII text: packs are JSON, nearly all ASCII, and a hand-written
// scanner is several times faster than the Unicode-property regex (whose first use also compiles it). Where a
// decision would read a non-ASCII character (a letter, mark, digit or space class the pattern knows and this
// file does not), it answers -1 and the regex decides.
//
// The pattern's alternatives, tried in order (JavaScript alternation is ordered, not longest):
//   1. [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(contraction)?
//   2. [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(contraction)?
//   3. \p{N}{1,3}
//   4. ' '?[^\s\p{L}\p{N}]+[\r\n/]*
//   5. \s*[\r\n]+
//   6. \s+(?!\S)
//   7. \s+
// where contraction is '(s|d|m|t|ll|ve|re), case-insensitive.

const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
/** Whitespace other than \r and \n. */
const SPACE = 4;
const NEWLINE = 5;
/** Punctuation, symbols and control characters: neither letter, digit nor whitespace. */
const OTHER = 6;
const END = 7;
const UNKNOWN = 0;

const CLASS = new Uint8Array(128).fill(OTHER);
for (let c = 65; c <= 90; c++) CLASS[c] = UPPER;
for (let c = 97; c <= 122; c++) CLASS[c] = LOWER;
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT;
for (const c of [9, 11, 12, 32]) CLASS[c] = SPACE;
CLASS[10] = NEWLINE;
CLASS[13] = NEWLINE;

function classAt(text: string, i: number): number {
  if (i >= text.length) return END;
  const c = text.charCodeAt(i);
  return c < 128 ? CLASS[c]! : UNKNOWN;
}

/** Length of a contraction ('s, 'll, ...) at i, or 0. */
function contraction(text: string, i: number): number {
  if (text.charCodeAt(i) !== 39) return 0;
  const a = text.charCodeAt(i + 1) | 0x20;
  if (a === 0x73 || a === 0x64 || a === 0x6d || a === 0x74) return 2;
  const b = text.charCodeAt(i + 2) | 0x20;
  if ((a === 0x6c && b === 0x6c) || (a === 0x76 && b === 0x65) || (a === 0x72 && b === 0x65)) return 3;
  return 0;
}

/** Alternatives 1 and 2 from j (after any prefix character): the end of the letters, or -1 / -2 (no match). */
function letters(text: string, j: number): number {
  let k = j;
  let c = classAt(text, k);
  while (c === UPPER) c = classAt(text, ++k);
  if (c === UNKNOWN) return -1;
  while (c === LOWER) c = classAt(text, ++k);
  if (c === UNKNOWN) return -1;
  // Alternative 1 (uppercase*, lowercase+) and 2 (uppercase+, lowercase*) end alike; together they need a letter.
  if (k === j) return -2;
  return k + contraction(text, k);
}

/**
 * Where the piece starting at `pos` ends under the o200k split pattern, or -1 when a non-ASCII character
 * takes part in the decision (then the regex decides). `pos` must be inside the text.
 */
export function asciiPieceEnd(text: string, pos: number): number {
  const k0 = classAt(text, pos);
  if (k0 === UNKNOWN) return -1;
  if (k0 === UPPER || k0 === LOWER) return letters(text, pos);
  if (k0 === SPACE || k0 === OTHER) {
    const e = letters(text, pos + 1);
    if (e !== -2) return e;
  }
  if (k0 === DIGIT) {
    let k = pos + 1;
    while (k < pos + 3 && classAt(text, k) === DIGIT) k++;
    return k < pos + 3 && classAt(text, k) === UNKNOWN ? -1 : k;
  }
  // 4: an optional space, punctuation, then newlines and slashes.
  let j = pos;
  if (text.charCodeAt(pos) === 32) {
    j = pos + 1;
    const c = classAt(text, j);
    if (c === UNKNOWN) return -1;
    if (c !== OTHER) j = -1;
  }
  if (j >= 0 && classAt(text, j) === OTHER) {
    let c = classAt(text, j);
    while (c === OTHER) c = classAt(text, ++j);
    if (c === UNKNOWN) return -1;
    for (let ch = text.charCodeAt(j); ch === 10 || ch === 13 || ch === 47; ch = text.charCodeAt(++j));
    return j;
  }
  // 5-7: a run of whitespace.
  let r = pos;
  let lastNewline = -1;
  for (let c = k0; c === SPACE || c === NEWLINE; c = classAt(text, ++r)) if (c === NEWLINE) lastNewline = r;
  if (classAt(text, r) === UNKNOWN) return -1;
  if (lastNewline >= 0) return lastNewline + 1;
  if (r === text.length || r - pos === 1) return r;
  return r - 1;
}
