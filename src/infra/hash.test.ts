import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fnv1a64Hex, randomHex, sha256Hex } from './hash.js';

describe('hashes', () => {
  it('sha256Hex is SHA-256', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('fnv1a64Hex is 16 stable hex characters that tell different paths apart', () => {
    expect(fnv1a64Hex('/work/a/.hub.yml')).toMatch(/^[0-9a-f]{16}$/);
    expect(fnv1a64Hex('/work/a/.hub.yml')).toBe(fnv1a64Hex('/work/a/.hub.yml'));
    const seen = new Map<string, string>();
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const h = fnv1a64Hex(s);
        const before = seen.get(h);
        if (before !== undefined) expect(before).toBe(s);
        seen.set(h, s);
      }),
      { numRuns: 5000 },
    );
  });

  it('randomHex gives the asked number of random bytes', () => {
    expect(randomHex(4)).toMatch(/^[0-9a-f]{8}$/);
    expect(randomHex(8)).not.toBe(randomHex(8));
  });
});
