import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineOp, READ_ONLY } from '../../ops/registry.js';
import { coerceQuery, familyOf, fastifyPath } from './routes-from-registry.js';

const op = defineOp({
  id: 'test.query',
  summary: 'An operation with one field of each kind, for query coercion.',
  input: z.strictObject({
    flag: z.boolean().optional(),
    limit: z.coerce.number().int().optional(),
    depth: z.union([z.number(), z.string()]).optional(),
    tags: z.array(z.string()).optional(),
    payload: z.record(z.string(), z.unknown()).optional(),
    name: z.string().optional(),
    mode: z.enum(['a', 'b']).default('a'),
  }),
  gate: 'none',
  attributes: READ_ONLY,
  handler: (_ctx, input) => input,
});

describe('coerceQuery', () => {
  it('converts query strings to the types of the schema', () => {
    const q = coerceQuery(op, {
      flag: 'true',
      limit: '5',
      depth: '2',
      tags: 'x',
      payload: '{"a":1}',
      name: '007',
      mode: 'b',
    });
    expect(q).toEqual({
      flag: true,
      limit: 5,
      depth: 2,
      tags: ['x'],
      payload: { a: 1 },
      name: '007',
      mode: 'b',
    });
    expect(op.input.parse(q)).toEqual(q);
    expect(coerceQuery(op, { flag: '', tags: ['x', 'y'] })).toEqual({ flag: true, tags: ['x', 'y'] });
    expect(coerceQuery(op, { flag: 'false' })).toEqual({ flag: false });
  });

  it('leaves what does not convert for the schema to name, and unknown fields to be refused', () => {
    const q = coerceQuery(op, { flag: 'maybe', depth: 'abc', payload: '{bad', other: '1' });
    expect(q).toEqual({ flag: 'maybe', depth: 'abc', payload: '{bad', other: '1' });
    expect(op.input.safeParse(q).success).toBe(false);
  });
});

describe('route helpers', () => {
  it('maps {param} to :param and finds the route family', () => {
    expect(fastifyPath('/v3/ops/approvals/{id}/resolve')).toBe('/v3/ops/approvals/:id/resolve');
    expect(familyOf('/v3/ops/x')).toBe('v3');
    expect(familyOf('/v1/repos/search')).toBe('v1');
    expect(familyOf('/other')).toBeUndefined();
  });
});
