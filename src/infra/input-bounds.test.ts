import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from './errors.js';
import {
  checkJsonBounds,
  DOCUMENT_BOUNDS,
  findBoundsViolation,
  INPUT_BOUNDS,
  jsonPath,
} from './input-bounds.js';

/** `{a:{a:...{}}}` with `levels` objects, built without recursion. */
function nested(levels: number, leaf: unknown = {}): unknown {
  let v = leaf;
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
}

describe('input bounds', () => {
  it('measures depth as levels of containers and accepts exactly the limit', () => {
    expect(findBoundsViolation(nested(INPUT_BOUNDS.depth), INPUT_BOUNDS)).toBeUndefined();
    const over = findBoundsViolation({ payload: nested(INPUT_BOUNDS.depth) }, INPUT_BOUNDS);
    expect(over).toMatchObject({ rule: 'max_depth', limit: INPUT_BOUNDS.depth });
    expect(over?.field).toBe(`payload${'.a'.repeat(INPUT_BOUNDS.depth - 1)}`);
  });

  it('walks a million levels without recursion and stops at the limit', () => {
    const deep = nested(1_000_000);
    const v = findBoundsViolation({ payload: deep }, INPUT_BOUNDS);
    expect(v?.rule).toBe('max_depth');
  });

  it('throws a ValidationError naming the limit, the field and the value of the limit', () => {
    let err: unknown;
    try {
      checkJsonBounds({ title: 't', payload: nested(3000) }, INPUT_BOUNDS, 'context.handoff.create');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    const e = err as ValidationError;
    expect(e.message).toMatch(/^context\.handoff\.create: payload\.a\.a/);
    expect(e.message).toContain('64 levels');
    expect(e.message).toContain('max_depth');
    expect(e.details).toMatchObject({ rule: 'max_depth', limit: 64 });
    expect(String(e.details?.field)).toMatch(/^payload(\.a){63}$/);
  });

  it('counts the bytes of the compact JSON and refuses past the limit, naming where', () => {
    const small = { s: 'x'.repeat(100) };
    expect(findBoundsViolation(small, { depth: 8, bytes: 200 })).toBeUndefined();
    const v = findBoundsViolation({ a: 'x'.repeat(50), b: ['y'.repeat(200)] }, { depth: 8, bytes: 200 });
    expect(v).toMatchObject({ rule: 'max_bytes', limit: 200, field: 'b[0]' });
    // Multi-byte characters count as their UTF-8 bytes.
    expect(findBoundsViolation({ s: 'é'.repeat(60) }, { depth: 8, bytes: 100 })?.rule).toBe('max_bytes');
  });

  it('refuses a huge flat list before visiting every item', () => {
    const big = new Array(5_000_000).fill(0);
    expect(findBoundsViolation({ items: big }, INPUT_BOUNDS)).toMatchObject({
      rule: 'max_bytes',
      field: 'items',
    });
  });

  /** True when JSON.stringify writes the string without escape sequences. */
  const unescaped = (s: string) => JSON.stringify(s).length === s.length + 2;

  it('never counts fewer bytes than JSON.stringify writes for plain data (escapes aside)', () => {
    const json = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(null, true, false),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string({ unit: 'grapheme' }).filter(unescaped),
        fc.array(tie('v'), { maxLength: 4 }),
        fc.dictionary(fc.string().filter(unescaped), tie('v'), { maxKeys: 4 }),
      ),
    })).v;
    fc.assert(
      fc.property(json, (value) => {
        const exact = Buffer.byteLength(JSON.stringify(value), 'utf8');
        expect(findBoundsViolation(value, { depth: 1000, bytes: exact })).toBeUndefined();
        if (exact > 2)
          expect(findBoundsViolation(value, { depth: 1000, bytes: exact - 1 })?.rule).toBe('max_bytes');
      }),
    );
  });

  it('documents allow what inputs allow, plus their wrapping', () => {
    expect(DOCUMENT_BOUNDS.depth).toBeGreaterThan(INPUT_BOUNDS.depth);
    expect(DOCUMENT_BOUNDS.bytes).toBeGreaterThan(INPUT_BOUNDS.bytes);
    const doc = { handoffs: [{ id: 'h', payload: nested(INPUT_BOUNDS.depth - 1) }] };
    expect(findBoundsViolation(doc, DOCUMENT_BOUNDS)).toBeUndefined();
  });

  it('writes paths as field names, [index] and quoted odd keys', () => {
    expect(jsonPath(['objectives', 0, 'title'])).toBe('objectives[0].title');
    expect(jsonPath(['a b', 'c'])).toBe('["a b"].c');
    expect(jsonPath([])).toBe('(input)');
  });
});

describe('depth screening of stored values', () => {
  it('finds the first path deeper than the limit, without recursion, and nothing within it', async () => {
    const { findDepthViolation } = await import('./input-bounds.js');
    expect(findDepthViolation({ a: [nested(10)] }, 12)).toBeUndefined();
    expect(findDepthViolation({ a: [nested(1_000_000)] }, 12, 'doc')).toMatchObject({
      rule: 'max_depth',
      limit: 12,
      field: `doc.a[0]${'.a'.repeat(10)}`,
    });
  });
});
