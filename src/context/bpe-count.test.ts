import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { BytePairEncodingCore } from 'gpt-tokenizer/BytePairEncodingCore';
import ranks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { countTokens, isWithinTokenLimit } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { createBpeCounter } from './bpe-count.js';
import { type BpeTable, buildBpeTableFromRanks, parseBpeTable } from './bpe-table.js';
import { BPE_TABLE_FILE, buildBpeTable } from './bpe-table-build.js';
import { loadTokenCounter } from './tokens.js';

const ROOT = join(import.meta.dirname, '..', '..');
// What hub passes: special-token text is read as text, never refused.
const plain = { disallowedSpecial: new Set<string>() };
const expected = (text: string) => countTokens(text, plain);

// The file the build writes, as production reads it (when a build exists), and the in-memory fallback.
const distFile = join(ROOT, 'dist', 'tokenizer', BPE_TABLE_FILE);
const tables: Array<[string, BpeTable]> = [['in-memory table', await buildBpeTableFromRanks()]];
if (existsSync(distFile)) {
  const built = parseBpeTable(readFileSync(distFile));
  if (!built) throw new Error(`${distFile} is not a table of this version: run npm run build`);
  tables.unshift(['dist table', built]);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

/** Token strings from the vocabulary, joined at random: realistic words and many merges across them. */
const vocabText = fc
  .array(fc.integer({ min: 0, max: ranks.length - 1 }), { maxLength: 30 })
  .map((ids) => ids.map((id) => (typeof ranks[id] === 'string' ? ranks[id] : '')).join(''));

/** Characters where splitting, merging or decoding have edge cases. */
const edgeText = fc.string({
  unit: fc.constantFrom(
    ' ',
    '  ',
    '\n',
    '\r\n',
    '\t',
    '\u00a0',
    '\u3000',
    'a',
    'Z',
    'é',
    'e\u0301',
    "'",
    "'S",
    "'LL",
    "'ve",
    '1',
    '2024',
    '/',
    '.',
    '<|endoftext|>',
    '\ufeff',
    '\ufeffusing',
    '\ufffd',
    '\ud800',
    '\udfff',
    '中',
    '😀',
    '\u200d',
    '👩‍💻',
  ),
  maxLength: 40,
});

const handPicked: Array<[string, string]> = [
  ['empty', ''],
  ['one space', ' '],
  ['whitespace runs', '   \t\t  \u00a0 \u2003  x  '],
  ['newlines mixed with spaces', 'a\n\n  \n \r\n\t\n   b \n'],
  ['trailing spaces before newline', 'line   \n   next'],
  ['digit runs', '1 12 123 1234 12345678901234567890 3.14159 1,000,000'],
  ['contractions, upper case', "HE'LL SAY IT'S WE'VE THEY'RE I'M DON'T 'S 'LL 'Ll"],
  ['CJK', '你好，世界。这是一个测试句子，没有空格分隔的长句子也应该正确计数。日本語のテキストです。'],
  ['emoji with ZWJ', '👨‍👩‍👧‍👦 👩🏽‍💻 🏳️‍🌈 ❤️‍🔥'],
  ['lone surrogates', 'a\ud800b \udc00 \ud83d x\ud83d\ude00\ude00 \ud800\ud800'],
  ['endoftext', '<|endoftext|>'],
  ['endofprompt in text', 'before <|endofprompt|> after<|im_start|>user<|im_end|>'],
  [
    'BOM-prefixed source',
    '\ufeffusing System;\n\ufeffnamespace A {}\n\ufeff// c\n\ufeff#!\n\ufeff\n\n\ufeff\ufeff',
  ],
  ['replacement characters', '\ufffd\ufffd\ufffd abc\ufffd'],
  ['control characters', '\u0000\u0001\u001b[31mred\u001b[0m\u007f'],
  ['long ascii word', 'a'.repeat(10_000)],
  ['long mixed word', 'Supercalifragilistic'.repeat(400)],
  ['long CJK run', '语言模型'.repeat(1_500)],
  ['long base64', Buffer.from(Array.from({ length: 6_000 }, (_, i) => (i * 7919) % 256)).toString('base64')],
  ['100 KB repeated text', 'The quick brown fox jumps over the lazy dog. 12345\n'.repeat(2_000)],
];

describe.each(tables)('BPE counter on the %s', (_name, table) => {
  const counter = createBpeCounter(table);
  const check = (text: string): void => {
    expect(counter.count(text)).toBe(expected(text));
  };

  it.each(handPicked)('counts %s as gpt-tokenizer does', (_label, text) => check(text));

  it('counts arbitrary unicode as gpt-tokenizer does', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), check), { numRuns: 300 });
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), check), { numRuns: 300 });
    const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));
    fc.assert(fc.property(fc.string({ unit: codeUnit, maxLength: 200 }), check), { numRuns: 300 });
    fc.assert(fc.property(edgeText, check), { numRuns: 1_000 });
    fc.assert(fc.property(vocabText, check), { numRuns: 500 });
  });

  it('counts every file under src/ and docs/ as gpt-tokenizer does', () => {
    const files = [...filesUnder(join(ROOT, 'src')), ...filesUnder(join(ROOT, 'docs'))];
    expect(files.length).toBeGreaterThan(50);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(counter.count(text), file).toBe(expected(text));
    }
  });

  it('answers within() as isWithinTokenLimit does, for limits around the count', () => {
    const texts = [
      ...handPicked.map(([, t]) => t).slice(0, 14),
      readFileSync(join(ROOT, 'package.json'), 'utf8'),
    ];
    for (const text of texts) {
      const n = expected(text);
      for (const limit of [-1, 0, 1, 2, n >> 1, n - 1, n, n + 1, 10 * n + 5]) {
        expect(counter.within(text, limit), `${limit} on ${JSON.stringify(text.slice(0, 30))}`).toBe(
          isWithinTokenLimit(text, limit, plain),
        );
      }
    }
    fc.assert(
      fc.property(edgeText, fc.integer({ min: -2, max: 60 }), (text, limit) => {
        expect(counter.within(text, limit)).toBe(isWithinTokenLimit(text, limit, plain));
      }),
      { numRuns: 500 },
    );
  });
});

describe('loadTokenCounter', () => {
  it('is o200k_base and counts special-token text as plain text', async () => {
    const counter = await loadTokenCounter();
    expect(counter.encoding).toBe('o200k_base');
    // gpt-tokenizer refuses this text by default; with no disallowed specials it splits it like any text.
    expect(() => countTokens('<|endoftext|>')).toThrow();
    expect(counter.count('<|endoftext|>')).toBe(expected('<|endoftext|>'));
    expect(counter.count('<|endoftext|>')).toBeGreaterThan(1);
    expect(counter.within('hello world', 1)).toBe(false);
    expect(counter.within('hello world', 2)).toBe(2);
  });
});

describe('BPE counter on a small vocabulary built to hit gpt-tokenizer quirks', () => {
  // Every byte is a token (ASCII as strings, the rest as bytes), plus a few merges chosen for the quirks.
  const vocab: Array<string | number[]> = Array.from({ length: 256 }, (_, b) =>
    b < 128 ? String.fromCharCode(b) : [b],
  );
  vocab.push([0xef, 0xbb], [0xbf, 0x75], [0xbf, 0xc3], 'uu', '\ufffd', 'ab', 'abc', ' a');
  const core = new BytePairEncodingCore({
    bytePairRankDecoder: vocab,
    tokenSplitRegex: O200K_TOKEN_SPLIT_REGEX,
    specialTokensEncoder: new Map([['<|endoftext|>', vocab.length]]),
  });
  const counter = createBpeCounter(parseBpeTable(buildBpeTable(vocab))!);
  const same = (text: string): void => {
    expect(counter.count(text), JSON.stringify(text)).toBe(core.countNative(text));
  };

  it('drops a leading BOM from a pair that is valid UTF-8 before looking it up, as its TextDecoder does', () => {
    // EF BB + BF 75 is "\ufeffu": gpt-tokenizer decodes it to "u", a token, so the piece is one token.
    expect(counter.count('\ufeffu')).toBe(1);
    // EF BB + BF C3 ends inside "é": not valid UTF-8, so it is looked up as it is (and is no token).
    expect(counter.count('\ufeffé')).toBe(3);
    for (const text of ['\ufeffu', '\ufeffuu', 'x\ufeffu', '\ufeff\ufeffu', '\ufeff', '\ufeffab', '\ufeffé'])
      same(text);
  });

  it('never finds a whole piece with a lone surrogate, though its bytes spell U+FFFD', () => {
    // No pair of EF BF BD is a token: the merge leaves three parts, while "\ufffd" itself is one token.
    expect(counter.count('\ud800')).toBe(3);
    expect(counter.count('\ufffd')).toBe(1);
    for (const text of ['\ud800', '\udc00', '\ufffd', 'a\ud800', '\ud800\ud800']) same(text);
  });

  it('counts arbitrary text over those characters as gpt-tokenizer does', () => {
    const unit = fc.constantFrom(
      '\ufeff',
      'u',
      'a',
      'b',
      'c',
      ' ',
      '\n',
      '\ud800',
      '\ufffd',
      'é',
      '<|endoftext|>',
    );
    fc.assert(fc.property(fc.string({ unit, maxLength: 30 }), same), { numRuns: 1_000 });
  });
});
