import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../infra/index.js';
import { MAX_DURATION_MS, parseDuration } from './duration.js';

describe('parseDuration', () => {
  it('reads digits with an optional unit; plain digits are seconds', () => {
    expect(parseDuration('30m')).toBe(30 * 60_000);
    expect(parseDuration('90s')).toBe(90_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('1d')).toBe(86_400_000);
    expect(parseDuration('45')).toBe(45_000);
  });

  it('rejects other forms, naming the value and the rule', () => {
    for (const bad of ['', '1.5h', '10 m', '5w', 'm', '-1s', '1h30m', 'PT1H']) {
      const err = (() => {
        try {
          parseDuration(bad);
        } catch (e) {
          return e;
        }
      })();
      expect(err, bad).toBeInstanceOf(ValidationError);
      expect((err as Error).message).toContain(`'${bad}'`);
      expect((err as Error).message).toContain('s, m, h or d');
    }
  });

  it('rejects zero and more than 365 days', () => {
    expect(() => parseDuration('0s')).toThrow(/out of range/);
    expect(() => parseDuration('366d')).toThrow(/out of range/);
    expect(parseDuration('365d')).toBe(MAX_DURATION_MS);
  });

  it('agrees with n * unit for every valid value (property)', () => {
    const units = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 365 }), fc.constantFrom('s', 'm', 'h', 'd'), (n, u) => {
        expect(parseDuration(`${n}${u}`)).toBe(n * units[u as keyof typeof units]);
      }),
    );
  });
});
