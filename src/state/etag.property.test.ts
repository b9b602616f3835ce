import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, etagOf } from './etag.js';

/** -0 is a JavaScript number, not a JSON value: JSON writes it as 0, so the generator maps it to 0. */
function noNegativeZero(value: unknown): unknown {
  if (Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(noNegativeZero);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    Object.defineProperty(out, k, {
      value: noNegativeZero(v),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

const json = fc.jsonValue({ stringUnit: 'binary', maxDepth: 5 }).map(noNegativeZero);

/** The same value with every object's keys inserted in a seed-dependent order. */
function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffleKeys(v, seed + i));
  if (value === null || typeof value !== 'object') return value;
  let s = seed >>> 0 || 1;
  const keys = Object.keys(value);
  for (let i = keys.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    const j = s % (i + 1);
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    // defineProperty keeps a `__proto__` key an own data property, as JSON.parse makes it.
    Object.defineProperty(out, k, {
      value: shuffleKeys((value as Record<string, unknown>)[k], s + k.length),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

describe('canonicalJson', () => {
  it('does not depend on key order', () => {
    fc.assert(
      fc.property(json, fc.integer(), (x, seed) => {
        expect(canonicalJson(shuffleKeys(x, seed))).toBe(canonicalJson(x));
        expect(etagOf(shuffleKeys(x, seed))).toBe(etagOf(x));
      }),
    );
  });

  it('is stable: the same value, a copy, and its own re-parse give the same text', () => {
    fc.assert(
      fc.property(json, (x) => {
        const c = canonicalJson(x);
        expect(canonicalJson(x)).toBe(c);
        expect(canonicalJson(structuredClone(x))).toBe(c);
        expect(canonicalJson(JSON.parse(c))).toBe(c);
      }),
    );
  });

  it('parses back to a deep-equal value', () => {
    fc.assert(
      fc.property(json, (x) => {
        expect(JSON.parse(canonicalJson(x))).toStrictEqual(x);
      }),
    );
  });

  it('lists object keys sorted, with no whitespace outside strings', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ unit: 'binary' }), fc.integer()), (d) => {
        const keys = Object.keys(d).sort();
        const expected = `{${keys.map((k) => `${JSON.stringify(k)}:${d[k]}`).join(',')}}`;
        expect(canonicalJson(d)).toBe(expected);
      }),
    );
    expect(canonicalJson({ b: [1, { d: null, c: ' x ' }], a: true })).toBe(
      '{"a":true,"b":[1,{"c":" x ","d":null}]}',
    );
    // Array-index keys are enumerated in numeric order whatever the insertion order: still sorted as strings.
    expect(canonicalJson({ a: { b: 1, '10': 2, '2': 3, '0': 4 }, z: [{ '9': 0, '10': 1 }] })).toBe(
      '{"a":{"0":4,"10":2,"2":3,"b":1},"z":[{"10":1,"9":0}]}',
    );
    // A `__proto__` key (JSON.parse makes it an own property) stays a key of the sorted copy.
    expect(canonicalJson(JSON.parse('{"b":1,"__proto__":{"y":2,"x":1}}'))).toBe(
      '{"__proto__":{"x":1,"y":2},"b":1}',
    );
  });

  it('gives an ETag of `"` + SHA-256 hex of the UTF-8 canonical text + `"`', () => {
    fc.assert(
      fc.property(json, (x) => {
        fc.pre(x !== null);
        const hex = createHash('sha256')
          .update(Buffer.from(canonicalJson(x), 'utf8'))
          .digest('hex');
        expect(etagOf(x)).toBe(`"${hex}"`);
      }),
    );
    expect(etagOf(undefined)).toBeUndefined();
  });
});

describe('canonicalJson of deep values', () => {
  it('writes a value nested 100,000 levels without overflowing the stack', () => {
    const n = 100_000;
    const text = `${'{"a":['.repeat(n)}1${']}'.repeat(n)}`;
    expect(canonicalJson(JSON.parse(text))).toBe(text);
    expect(etagOf(JSON.parse(text))).toMatch(/^"[0-9a-f]{64}"$/);
  });
});

describe('canonicalJson past the recursion depth', () => {
  it('writes the same text as below it', () => {
    fc.assert(
      fc.property(json, fc.integer({ min: 250, max: 262 }), (leaf, levels) => {
        let v: unknown = leaf;
        let expected = canonicalJson(leaf);
        for (let i = 0; i < levels; i++) {
          v = i % 2 ? { k: v, b: [1, null] } : [v, 'x'];
          expected = i % 2 ? `{"b":[1,null],"k":${expected}}` : `[${expected},"x"]`;
        }
        expect(canonicalJson(v)).toBe(expected);
      }),
      { numRuns: 50 },
    );
  });
});
