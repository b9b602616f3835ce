// Sign-in codes open the server once, within their time; the clock is injected, nothing waits.
import { describe, expect, it } from 'vitest';
import { createLoginCodes } from './login-codes.js';

describe('createLoginCodes', () => {
  it('redeems a code once, before it expires; a used, expired or foreign code is told apart', () => {
    let now = 1_000;
    const codes = createLoginCodes({ ttlMs: 100, now: () => now });
    const a = codes.issue();
    const b = codes.issue();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(codes.redeem(a)).toBe('ok');
    expect(codes.redeem(a)).toBe('used');
    now += 101;
    expect(codes.redeem(b)).toBe('expired');
    expect(codes.redeem('A'.repeat(43))).toBe('unknown');
  });

  it('keeps a bounded number of codes, forgetting the oldest', () => {
    const codes = createLoginCodes();
    const first = codes.issue();
    for (let i = 0; i < 64; i++) codes.issue();
    expect(codes.redeem(first)).toBe('unknown');
  });
});
