import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../infra/index.js';
import { allPatternOverlaps, GLOB_PICOMATCH_OPTIONS, globsOverlap, patternsOverlap } from './index.js';

/** Both sides match the witness per picomatch itself, not per our own matcher. */
function expectWitness(a: string, b: string, witness: string | undefined): void {
  expect(witness).toBeTypeOf('string');
  expect(picomatch.isMatch(witness!, a, GLOB_PICOMATCH_OPTIONS)).toBe(true);
  expect(picomatch.isMatch(witness!, b, GLOB_PICOMATCH_OPTIONS)).toBe(true);
}

describe('globsOverlap: the known tricky pairs', () => {
  it.each([
    // The earlier product said "no overlap" here: fnmatch both ways and prefix tests miss it.
    ['src/*.py', 'src/a*', 'src/a.py'],
    ['src/**', 'src/.env', 'src/.env'],
    ['a/**/b', 'a/b', 'a/b'],
    ['{a,b}/x', 'b/*', 'b/x'],
    ['[a-c]*', '[!b]x', 'ax'],
    ['src/**', 'src', 'src'],
    ['a/**', 'a/b/c/**', 'a/b/c'],
    ['**', 'deep/er/file.ts', 'deep/er/file.ts'],
    ['**/*.md', 'docs/*.md', 'docs/a.md'],
    ['packages/*/src/**/*.ts', 'packages/core/**', 'packages/core/src/a.ts'],
    ['src/**/*.test.ts', 'src/**/*.ts', 'src/a.test.ts'],
    ['@(a|b)/x', 'b/*', 'b/x'],
    ['+(a)/x', 'aaa/*', 'aaa/x'],
    ['?(a)x', 'x', 'x'],
    ['*(ab)', 'abab', 'abab'],
    ['!(a)', '?', 'x'],
    ['x/!(a|b)/y', 'x/*/y', 'x/x/y'],
    ['*.!(js)', '*.jsx', 'a.jsx'],
    // The star may take `a.`, leaving `.js` for the negated extglob, which excludes only `js` itself.
    ['*.!(js)', '*.js', 'a..js'],
    ['[[:digit:]]x', '1*', '1x'],
    ['.github/**', '**/*.yml', '.github/a.yml'],
    ['src/*.{ts,tsx}', 'src/a.*', 'src/a.ts'],
  ])('%j and %j overlap (both match %j)', (a, b, witness) => {
    const r = globsOverlap(a, b);
    expect(r).toEqual({ overlap: true, witness });
    expectWitness(a, b, r.witness);
    // Symmetric decision, and the same witness from either side.
    expect(globsOverlap(b, a)).toEqual({ overlap: true, witness });
  });

  it.each([
    ['*.ts', '*.js'],
    ['src/**', 'docs/**'],
    ['*', 'a/b'],
    ['a?c', 'a/c'],
    ['!(a)', 'a'],
    // picomatch's negated extglob excludes segments that start with a branch, not only equal ones.
    ['x/!(a|b)/y', 'x/ab/y'],
    ['*.!(js)', 'a.js'],
    ['src/*.py', 'src/a/*'],
    ['@(a|b)/x', 'c/x'],
    ['a/**/b', 'a/bc'],
    ['[!b]x', 'bx'],
    ['src/**/*.ts', 'src/**/*.js'],
  ])('%j and %j do not overlap', (a, b) => {
    expect(globsOverlap(a, b)).toEqual({ overlap: false });
    expect(globsOverlap(b, a)).toEqual({ overlap: false });
  });

  it('counts picomatch matching a path equal to the pattern itself', () => {
    // `{a,b}` compiles to (a|b), yet picomatch also matches the file literally named `{a,b}`; `*,b}` matches it too.
    expect(picomatch.isMatch('{a,b}', '{a,b}', GLOB_PICOMATCH_OPTIONS)).toBe(true);
    expect(globsOverlap('{a,b}', '*,b}')).toEqual({ overlap: true, witness: '{a,b}' });
  });

  it('prefers a witness without dotfiles when one exists, and keeps a dotfile when it is the only one', () => {
    // The shortest common path is `src/.ts`; `src/a.ts` reads better and is still a real path matching both.
    expect(globsOverlap('src/**', '**/*.ts').witness).toBe('src/a.ts');
    expect(globsOverlap('**/.env', 'config/**').witness).toBe('config/.env');
  });

  it('refuses invalid patterns with a ValidationError', () => {
    expect(() => globsOverlap('../x/**', 'src/**')).toThrow(ValidationError);
    expect(() => globsOverlap('src/**', '[a')).toThrow(ValidationError);
  });
});

describe('patternsOverlap', () => {
  it('returns the first overlapping pair with its witness, or undefined', () => {
    expect(patternsOverlap(['docs/**', 'src/*.py'], ['lib/**', 'src/a*'])).toEqual({
      a: 'src/*.py',
      b: 'src/a*',
      witness: 'src/a.py',
    });
    expect(patternsOverlap(['docs/**'], ['src/**', 'lib/**'])).toBeUndefined();
    expect(patternsOverlap([], ['src/**'])).toBeUndefined();
  });

  it('lists every overlapping pair', () => {
    expect(allPatternOverlaps(['src/**', 'docs/*.md'], ['**/*.md', 'lib/**'])).toEqual([
      { a: 'src/**', b: '**/*.md', witness: 'src/a.md' },
      { a: 'docs/*.md', b: '**/*.md', witness: 'docs/a.md' },
    ]);
  });

  it('reports patterns in their normalized form', () => {
    expect(patternsOverlap(['./src/'], ['src//a.ts'])).toEqual({
      a: 'src/**',
      b: 'src/a.ts',
      witness: 'src/a.ts',
    });
  });

  it('names the offending entry of a list', () => {
    try {
      patternsOverlap(['src/**'], ['lib/**', '/abs']);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      expect((err as ValidationError).details).toMatchObject({ field: 'patterns[1]', value: '/abs' });
    }
  });
});
