import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../infra/index.js';
import { checkGlob, GLOB_LIMITS, globMatches, globsOverlap } from './index.js';

/** The ValidationError thrown by `fn`, or a failure when it does not throw one. */
function refusal(fn: () => unknown): ValidationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return err;
    throw err;
  }
  throw new Error('expected a ValidationError');
}

describe('checkGlob: normalization', () => {
  it.each([
    ['src/**', 'src/**'],
    ['./src/**', 'src/**'],
    ['././src/*.ts', 'src/*.ts'],
    ['src//a/*.ts', 'src/a/*.ts'],
    ['a/./b', 'a/b'],
    ['src/.', 'src'],
    ['src/', 'src/**'],
    ['src/a//', 'src/a/**'],
    ['src/**/', 'src/**'],
    ['**', '**'],
    ['.github/**', '.github/**'],
    ['docs/*.md', 'docs/*.md'],
    ['{a,b}/**', '{a,b}/**'],
  ])('%j -> %j', (input, expected) => {
    expect(checkGlob(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const p of ['./src//a/', 'a/./b/', '**/*.{ts,tsx}'])
      expect(checkGlob(checkGlob(p))).toBe(checkGlob(p));
  });
});

describe('checkGlob: refusals name the field, the value and the rule', () => {
  it.each([
    ['', 'not_empty'],
    ['   ', 'not_empty'],
    ['.', 'not_empty'],
    ['./', 'not_empty'],
    [' src/**', 'no_surrounding_whitespace'],
    ['src/** ', 'no_surrounding_whitespace'],
    ['/etc/**', 'relative'],
    ['C:/x/**', 'relative'],
    ['c:/', 'relative'],
    ['../x/**', 'no_parent_segments'],
    ['a/../b', 'no_parent_segments'],
    ['a/..', 'no_parent_segments'],
    ['src\\a.ts', 'no_backslash'],
    ['a\u0000b', 'no_control_chars'],
    ['a\nb', 'no_control_chars'],
    ['!src/**', 'no_negation'],
    ['!!src/**', 'no_negation'],
    ['[a', 'syntax'],
    ['a]', 'syntax'],
    ['{a,b', 'syntax'],
    ['a)', 'syntax'],
    ['@(a|b', 'syntax'],
    ['{1..10}', 'brace_range'],
    ['x{a..cc}', 'brace_range'],
    ['(?<=a)b', 'unsupported'],
    ['(?!a)a', 'matches_nothing'],
  ])('%j is refused (%s)', (input, rule) => {
    const err = refusal(() => checkGlob(input, 'patterns[2]'));
    expect(err.details).toMatchObject({ field: 'patterns[2]', value: input, rule });
    expect(err.message).toContain('patterns[2]');
    expect(err.message).toContain(rule);
  });

  it.each([
    // Every alternative of braces (nested too), of groups and extglobs, and one-character classes, is held to the
    // rules of a plain pattern (issue 25): `/etc/**` is refused, so is `{/etc,src}/**`.
    ['{/etc,src}/**', 'relative'],
    ['{src,{a,/etc}}/**', 'relative'],
    ['{a,}/b', 'relative'],
    ['{,/}etc/**', 'relative'],
    ['{C:,x}/y', 'relative'],
    ['{C..D}:/x', 'relative'],
    ['@(/etc|src)/**', 'relative'],
    ['(/etc|a)/x', 'relative'],
    ['?(/)etc', 'relative'],
    ['*(/)etc', 'relative'],
    ['[/]etc/**', 'relative'],
    ['{a,(b|/c)}', 'relative'],
    ['a/.{.,x}/b', 'no_parent_segments'],
    ['@(..|src)/x', 'no_parent_segments'],
    ['(..|a)/x', 'no_parent_segments'],
    ['a/+(.)/b', 'no_parent_segments'],
    ['a/*(.)/b', 'no_parent_segments'],
    ['a/.@(.)/b', 'no_parent_segments'],
    ['[.][.]/x', 'no_parent_segments'],
    ['a/[.]./b', 'no_parent_segments'],
    [`{x,/y}${'{a,b}'.repeat(13)}`, 'relative'],
    ['+(+(+(+(+(a|.)))))/x', 'no_parent_segments'],
  ])('%j: an alternative breaks a rule of a plain pattern (%s)', (input, rule) => {
    const err = refusal(() => checkGlob(input, 'patterns[0]'));
    expect(err.details).toMatchObject({ field: 'patterns[0]', value: input, rule });
    expect(err.message).toContain(rule);
    // The alternative is named when the expansions are few enough to list.
    const many = input.startsWith('{x,/y}{a,b}') || input.startsWith('+(+(');
    expect(err.message).toMatch(many ? /one of its alternatives/ : /its alternative "/);
  });

  it.each([
    '{a,b}/**',
    '**/*.{ts,tsx}',
    '@(src|lib)/**',
    '*(a|b).txt',
    'src/{,lib/}x',
    '.{a,b}rc',
    '[.]env',
    '{a}/x',
    '{src,{lib,test}}/**/*.{js,{m,c}js}',
    `${'{a,b}'.repeat(12)}`,
    `${'{a,b}'.repeat(20)}`,
    '+(+(+(+(+(a|b)))))/**',
    '{!src,b}/**',
    '@(!)important',
    '{,a}',
    '*(a)',
    '[!b][!b]/x',
    '??/x',
  ])('%j: alternatives within the rules are accepted', (input) => {
    expect(checkGlob(input)).toBe(input);
  });

  // Issue 27: one negated extglob compiles to a lookahead that holds picomatch's own lookaheads (a dot segment,
  // a non-empty rest); these were refused as "a negated extglob within another". They are decided exactly now.
  it.each([
    ['!(*.*)', ['Makefile', 'LICENSE', 'a'], ['a.md', 'src/x', '.env']],
    ['a/!(b/*)', ['a/c', 'a/b', 'a/c/d', 'a/b/c/d'], ['a/b/c', 'b/c', 'a']],
    [
      'src/!(*.test).*',
      ['src/app.ts', 'src/a.b.c', 'src/.env'],
      ['src/app.test.ts', 'src/a/b.ts', 'src/app', 'lib/app.ts'],
    ],
    ['src/!(*.test).ts', ['src/app.ts', 'src/x.spec.ts'], ['src/app.test.ts', 'src/app.js']],
    ['*.!(js)', ['a.ts', 'a.json', 'a.jsx'], ['a.js', 'a/b.ts']],
    ['!(a!(b))', ['b', 'ab', 'x'], ['a', 'ac', 'a/b']],
  ])('%j: a negated extglob is accepted and matches as picomatch does', (pattern, yes, no) => {
    expect(checkGlob(pattern)).toBe(pattern);
    for (const path of yes) expect({ path, m: globMatches(pattern, path) }).toEqual({ path, m: true });
    for (const path of no) expect({ path, m: globMatches(pattern, path) }).toEqual({ path, m: false });
  });

  it('decides overlap of single-negation claims with a witness', () => {
    expect(globsOverlap('src/!(*.test).*', 'src/*.test.ts')).toEqual({ overlap: false });
    expect(globsOverlap('src/!(*.test).*', 'src/**/*.ts')).toMatchObject({ overlap: true });
    expect(globsOverlap('!(*.*)', '*.md')).toEqual({ overlap: false });
    expect(globsOverlap('a/!(b/*)', 'a/b/*')).toEqual({ overlap: false });
  });

  it('refuses a pattern over the length limit and accepts one at it', () => {
    const at = 'a'.repeat(GLOB_LIMITS.maxLength);
    expect(checkGlob(at)).toBe(at);
    expect(refusal(() => checkGlob(`${at}a`)).details).toMatchObject({ rule: 'max_length' });
  });

  it('refuses a pattern whose automaton is too large (max_states)', () => {
    // "not ending in an `a` followed by 16 more characters": the complement needs a subset per suffix, 2^16 of them.
    const err = refusal(() => checkGlob(`!(*a${'?'.repeat(16)})`));
    expect(err.details).toMatchObject({ rule: 'max_states' });
    // The message names the real cause: the complement of a negated extglob's body.
    expect(err.message).toMatch(/negated extglob !\(\.\.\.\) matches the complement of its body/);
    expect(err.message).not.toMatch(/within another/);
  });

  it('accepts a plain file name that picomatch only matches by its spelling', () => {
    // picomatch's fast path compiles `$$a` to /\$$a/ (an anchor: nothing), and matches the file `$$a` by equality.
    expect(checkGlob('$$a')).toBe('$$a');
    expect(globMatches('$$a', '$$a')).toBe(true);
    expect(globsOverlap('$$a', '*a')).toEqual({ overlap: true, witness: '$$a' });
  });

  it('refuses a value that is not a string', () => {
    expect(refusal(() => checkGlob(42 as unknown as string)).details).toMatchObject({ rule: 'string' });
  });

  it('names the default field "pattern"', () => {
    expect(refusal(() => checkGlob('/abs')).details).toMatchObject({ field: 'pattern' });
  });
});
