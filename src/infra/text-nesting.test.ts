import { parse as parseToml, stringify as stringifyToml } from '@decimalturn/toml-patch';
import fc from 'fast-check';
import { visit } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import {
  jsonNestingViolation,
  MAX_FILE_NESTING,
  MAX_TOML_KEY_PARTS,
  nestingMessage,
  tomlNestingViolation,
} from './text-nesting.js';

const RUNS = { numRuns: 400 };

/** Levels of a parsed value: a scalar is 0, `{}` and `[]` are 1. */
function depthOf(v: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[v, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object' || x instanceof Date) continue;
    max = Math.max(max, d + 1);
    for (const y of Object.values(x)) stack.push([y, d + 1]);
  }
  return max;
}

/** The deepest level jsonc-parser itself reaches on a text (its visitor sees every array and object it opens). */
function parserDepth(text: string): number {
  let depth = 0;
  let max = 0;
  const open = () => {
    depth++;
    max = Math.max(max, depth);
  };
  const close = () => {
    depth--;
  };
  visit(
    text,
    { onObjectBegin: open, onArrayBegin: open, onObjectEnd: close, onArrayEnd: close },
    { allowTrailingComma: true, disallowComments: false },
  );
  return max;
}

/** The smallest limit a text passes. */
function measured(check: (text: string, limit: number) => unknown, text: string): number {
  let limit = 0;
  while (check(text, limit)) limit++;
  return limit;
}

describe('JSON and JSONC nesting', () => {
  it('refuses 100,000 levels at the level past the limit, with its line and column', () => {
    const deep = `{\n  "a": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const v = jsonNestingViolation(deep);
    expect(v).toEqual({ rule: 'max_depth', limit: MAX_FILE_NESTING, line: 2, column: 7 + MAX_FILE_NESTING });
    expect(nestingMessage(v!)).toBe(
      `nests deeper than the limit of ${MAX_FILE_NESTING} levels at line 2, column ${7 + MAX_FILE_NESTING} (max_depth)`,
    );
  });

  it('counts exactly the levels of any JSON value, however it is laid out', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.constantFrom(0, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(measured(jsonNestingViolation, text)).toBe(depthOf(value));
      }),
      RUNS,
    );
  });

  it('does not count brackets in strings and comments, nor let a stray closer lower the count', () => {
    const tricky = '{"a\\"[[[": "]]]\\\\", // [[[[\n /* {{{ */ "b": [1, "[" ] }';
    expect(measured(jsonNestingViolation, tricky)).toBe(2);
    // jsonc-parser skips a closer that does not match and keeps nesting: `[}, [}, ...` goes one level down each time.
    const stray = '[}, '.repeat(500);
    expect(parserDepth(stray)).toBe(500);
    expect(jsonNestingViolation(stray)).toBeDefined();
    // A string ends at a line break: what follows is structure to the parser.
    expect(measured(jsonNestingViolation, '["abc\n[[[]]]]')).toBe(4);
  });

  it('never counts fewer levels than jsonc-parser opens, on any text', () => {
    const unit = fc.constantFrom('[', ']', '{', '}', '"', '\\', '/', '*', '\n', ',', ':', 'a', ' ', '1');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80 }), (text) => {
        expect(measured(jsonNestingViolation, text)).toBeGreaterThanOrEqual(parserDepth(text));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('TOML nesting', () => {
  const levels = (text: string) => measured(tomlNestingViolation, text);

  it('counts arrays, inline tables, dotted keys and table headers', () => {
    expect(levels('a = 1\n')).toBe(1);
    expect(levels('a = [[1], {b = [2]}]\n')).toBe(4);
    expect(levels('a.b.c = 1\n')).toBe(3);
    expect(levels('[x.y]\nz = 1\n')).toBe(5);
    expect(levels('[[x.y]]\nz.w = [1]\n')).toBe(7);
    expect(levels('[[a]]\n[a.b]\nc = 1\n')).toBe(5);
    expect(levels('[x]\na = {b.c = {d = 1}}\n')).toBe(6);
  });

  it('does not add up the dots of floats, nor count brackets in strings and comments', () => {
    expect(levels(`a = [${Array.from({ length: 500 }, (_, i) => `${i}.5`).join(', ')}]\n`)).toBe(3);
    expect(levels(`a = "[[[{{{" # [[[\nb = '[[[.'\nc = """\n[[[\n"""\nd = '''[[['''\n`)).toBe(1);
    expect(levels('a = """x\\"""[[["""\n')).toBe(1);
    expect(levels('a = """x""""\nb = [[1]]\n')).toBe(3);
  });

  it('refuses deep arrays, inline tables, dotted keys and headers before toml-patch sees them', () => {
    const n = 100_000;
    for (const text of [
      `a = ${'['.repeat(n)}${']'.repeat(n)}\n`,
      `a = ${'{b = '.repeat(n)}1${'}'.repeat(n)}\n`,
      `a${'.b'.repeat(n)} = 1\n`,
      `[a${'.b'.repeat(n)}]\n`,
    ])
      expect(tomlNestingViolation(text)).toMatchObject({
        rule: 'max_depth',
        limit: MAX_FILE_NESTING,
        line: 1,
      });
  });

  it('bounds the dotted-key parts of a file, which toml-patch spends tens of microseconds on each', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}.a.b.c.d = 1`).join('\n');
    expect(tomlNestingViolation(keys(MAX_TOML_KEY_PARTS / 4))).toBeUndefined();
    const v = tomlNestingViolation(keys(MAX_TOML_KEY_PARTS / 4 + 1));
    expect(v).toMatchObject({
      rule: 'max_key_parts',
      limit: MAX_TOML_KEY_PARTS,
      line: MAX_TOML_KEY_PARTS / 4 + 1,
    });
    expect(nestingMessage(v!)).toMatch(
      /^holds more than 50000 dotted-key parts at line \d+, column \d+ \(max_key_parts\)$/,
    );
  });

  /** Keys that need quoting (dots, brackets, quotes) and strings holding TOML's own punctuation. */
  const key = fc.constantFrom('a', 'b.c', '[x]', '"q"', "it's", '#h', '=', ' ');
  const scalar = fc.oneof(
    fc.constantFrom('[[[', ']]]', '{{', '}}', '"""', "'''", '#', '.', '\\', 'a\nb', '1.5'),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
  );
  const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('tree'), { maxLength: 3 }),
      fc.dictionary(key, tie('tree'), { maxKeys: 3 }),
    ),
  }));

  it('never counts fewer levels than toml-patch builds, in every layout it writes', () => {
    fc.assert(
      fc.property(
        fc.dictionary(key, tree, { maxKeys: 4 }),
        fc.constantFrom(0, 1, 2, 4),
        fc.boolean(),
        (doc, inlineTableStart, multilineArray) => {
          let text: string;
          let value: unknown;
          try {
            text = stringifyToml(doc, { inlineTableStart, multilineArray });
            value = parseToml(text);
          } catch {
            return; // not representable in that layout (toml-patch refuses it, or writes what it cannot read back)
          }
          expect(levels(text)).toBeGreaterThanOrEqual(depthOf(value));
        },
      ),
      RUNS,
    );
  });

  it('never counts fewer levels than toml-patch builds from texts made of TOML pieces', () => {
    const piece = fc.constantFrom(
      'a = [',
      '[',
      ']',
      '{b = ',
      '{c.d = ',
      '}',
      'a.b = ',
      'q."r.s".t = ',
      '\n',
      '"[["',
      ', ',
      '1',
      '1.5',
      "'''[['''",
      '"""x"""',
      '"""x""""',
      '# [[\n',
      '[x.y]\n',
      '[[x.z]]\n',
      '[[x]]\n',
      '[x.z.w]\n',
      "'a.b' = ",
      '"\\"',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        let value: unknown;
        try {
          value = parseToml(text);
        } catch {
          return; // toml-patch refuses it
        }
        expect(levels(text)).toBeGreaterThanOrEqual(depthOf(value));
      }),
      { numRuns: 20_000 },
    );
  });
});
