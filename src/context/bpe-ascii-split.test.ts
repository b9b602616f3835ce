import fc from 'fast-check';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { asciiPieceEnd } from './bpe-ascii-split.js';

const sticky = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, 'uy');

/** The pieces of text by the regex, and by the hand scanner wherever it decides. */
function pieces(text: string): { regex: number[]; hand: Array<number | null> } {
  const regex: number[] = [];
  const hand: Array<number | null> = [];
  let pos = 0;
  while (pos < text.length) {
    sticky.lastIndex = pos;
    expect(sticky.test(text)).toBe(true);
    const e = sticky.lastIndex;
    const h = asciiPieceEnd(text, pos);
    regex.push(e);
    hand.push(h < 0 ? null : h);
    pos = e;
  }
  return { regex, hand };
}

/** Characters that exercise every branch: cases, digits, contractions, whitespace kinds, punctuation, slashes. */
const ASCII_PARTS = [
  'a',
  'Z',
  'q',
  'Hello',
  'WORLD',
  'iPhone',
  '7',
  '42',
  '12345',
  "'s",
  "'S",
  "'ll",
  "'LL",
  "'ve",
  "'re",
  "'d",
  "'m",
  "'t",
  "'x",
  "'",
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  ' \n ',
  '\v',
  '\f',
  '{"',
  '"}',
  '":',
  ',',
  '/',
  '//',
  '\\',
  '-',
  '_',
  '<|endoftext|>',
  '\u0000',
  '\u001f',
  '\u007f',
  '},{',
  '...',
  ' /',
  '\n/',
];
const MIXED_PARTS = [
  ...ASCII_PARTS,
  'é',
  'É',
  'ß',
  '\u00a0',
  '\u3000',
  '²',
  '٣',
  '—',
  '中文',
  '😀',
  '\u0301',
  '\ud800',
];

const textOf = (parts: string[]) =>
  fc.array(fc.constantFrom(...parts), { maxLength: 40 }).map((p) => p.join(''));

describe('asciiPieceEnd', () => {
  it('splits ASCII exactly as the o200k pattern does, deciding every piece', () => {
    fc.assert(
      fc.property(
        fc.oneof(textOf(ASCII_PARTS), fc.string({ unit: 'binary-ascii', maxLength: 60 })),
        (text) => {
          const { regex, hand } = pieces(text);
          expect(hand).toEqual(regex);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('never disagrees with the pattern around non-ASCII characters (it defers instead)', () => {
    fc.assert(
      fc.property(fc.oneof(textOf(MIXED_PARTS), fc.string({ unit: 'grapheme', maxLength: 40 })), (text) => {
        const { regex, hand } = pieces(text);
        hand.forEach((h, i) => {
          if (h !== null) expect(h, JSON.stringify(text)).toBe(regex[i]);
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('decides the pieces of a JSON pack without the regex', () => {
    const text = JSON.stringify({
      ok: true,
      cards: [
        { project: 'team', repo: 'repo-001', branch: 'main', dirty: false, readme: "It's the API's home.\n" },
      ],
    });
    expect(pieces(text).hand).not.toContain(null);
  });
});
