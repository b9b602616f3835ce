import { describe, expect, it } from 'vitest';
import { endsDisjoint } from './ends.js';
import { compileGlob } from './index.js';

const disjoint = (a: string, b: string) => endsDisjoint(compileGlob(a).ends, compileGlob(b).ends);

describe('ends: the quick disjointness test before the overlap search', () => {
  it.each([
    ['zone/**/*.rs', '**/*.{ts,tsx}'],
    ['src/**', 'docs/**'],
    ['*.rs', '*.ts'],
    ['docs/*.md', 'packages/*/src/**/*.ts'],
  ])('settles %j and %j as disjoint', (a, b) => {
    expect(disjoint(a, b)).toBe(true);
  });

  it.each([
    ['**', 'a'],
    ['src/**', 'src'],
    ['a/**/b', 'a/b'],
    ['*.ts', 'a.ts'],
    ['*', 'a'],
    // `*,b}` matches the file spelled `{a,b}`, which `{a,b}` matches as picomatch matches its own spelling.
    ['{a,b}', '*,b}'],
    ['?(a)x', 'x'],
  ])('never calls %j and %j disjoint (they overlap)', (a, b) => {
    expect(disjoint(a, b)).toBe(false);
    expect(disjoint(b, a)).toBe(false);
  });
});
