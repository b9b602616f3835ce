import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { GLOB_PICOMATCH_OPTIONS, globMatches } from './index.js';

/** Each construct against paths that probe its edges; the expectation is picomatch's own answer. */
const CASES: Array<[string, string[]]> = [
  ['*', ['a', '.a', 'a.b', 'a/b', '.', '..', 'a/']],
  ['src/*.py', ['src/a.py', 'src/.py', 'src/a/b.py', 'src/a.pyc', 'src/a.py/']],
  ['?', ['a', '.', '/', 'ab', '']],
  ['src/**', ['src', 'src/a', 'src/.env', 'src/a/.git/x', 'src/..', 'src/./a', 'srcx', 'src/']],
  ['**', ['a', '.env', 'a/.b', 'a/../b', './a', 'a//b']],
  ['**/a', ['a', 'x/a', 'x/y/a', '.x/a', 'xa']],
  ['a/**/b', ['a/b', 'a/x/b', 'a/x/y/b', 'a/.x/b', 'ab', 'a/bb']],
  ['a**b', ['ab', 'axb', 'ax/b']],
  ['a/**b', ['a/b', 'a/xb', 'a/x/b']],
  ['.*', ['.a', '..', '.', 'a.']],
  ['[a-c]x', ['ax', 'bx', 'dx', '/x']],
  ['[!b]x', ['ax', 'bx', '!x', '/x', '[!b]x']],
  ['[[:alpha:]]x', ['ax', 'Zx', '1x']],
  ['{a,b}/x', ['a/x', 'b/x', 'c/x', '{a,b}/x']],
  ['{a..c}', ['a', 'b', 'c', 'd']],
  ['@(a|b)', ['a', 'b', 'ab']],
  ['*(a)', ['a', 'aa', 'b']],
  ['+(a)x', ['x', 'ax', 'aax']],
  ['?(a)x', ['x', 'ax', 'aax']],
  ['!(a)', ['a', 'b', 'ab', 'ba', '.a']],
  ['x/!(a|b)/y', ['x/c/y', 'x/ca/y', 'x/ac/y', 'x/a/y']],
  ['*.!(js)', ['a.ts', 'a.js', 'a.jsx']],
  ['{a,b}', ['{a,b}', 'a']],
  ['src/**/*.{ts,tsx}', ['src/a.ts', 'src/x/y.tsx', 'src/a.js']],
  ['a\u00e9*', ['a\u00e9', 'a\u00e9x', 'ae']],
  ['*', ['\u{1f600}', 'a\nb']],
  ['?', ['\u{1f600}', '\n']],
];

describe('globMatches agrees with picomatch on each construct', () => {
  it.each(CASES)('%j', (pattern, paths) => {
    for (const path of paths) {
      const expected = path !== '' && picomatch.isMatch(path, pattern, GLOB_PICOMATCH_OPTIONS);
      expect({ path, match: globMatches(pattern, path) }).toEqual({ path, match: expected });
    }
  });

  it('normalizes the pattern as checkGlob does', () => {
    expect(globMatches('./src/', 'src/a/b')).toBe(true);
    expect(globMatches('src//*.ts', 'src/a.ts')).toBe(true);
  });

  it('throws on an invalid pattern rather than matching nothing', () => {
    expect(() => globMatches('../x', 'x')).toThrow(/no_parent_segments/);
  });
});
