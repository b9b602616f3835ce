import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../infra/index.js';
import { GLOB_PICOMATCH_OPTIONS, globMatches, globsOverlap, isRealPath, literalGlob } from './index.js';

// biome-ignore lint/style/noProcessEnv: a knob for deeper local runs; CI runs the default.
const SCALE = Number(process.env.GLOB_PROPERTY_SCALE ?? 1);

const pico = (pattern: string, path: string) => picomatch.isMatch(path, pattern, GLOB_PICOMATCH_OPTIONS);

describe('literalGlob: a pattern matching exactly one path (and its own spelling)', () => {
  it.each([
    ['src/app', 'src/app'],
    ['docs/a.b.md', 'docs/a.b.md'],
    ['legacy/[old]/x', 'legacy/[[]old[]]/x'],
    ['a{b,c}', 'a[{]b,c[}]'],
    ['fn(x)*?', 'fn[(]x[)][*][?]'],
    ['a|b+c', 'a[|]b[+]c'],
    ['!important', '@(!)important'],
    ['say "hi"', 'say ["-"]hi["-"]'],
    ['$$a^^', '[$][$]a@(^)@(^)'],
    // Issue 27: a space at either end is spelled as a one-branch extglob (a pattern may not start or end with one).
    ['a ', 'a@( )'],
    [' a', '@( )a'],
    [' ', '@( )'],
    ['  ', '@( )@( )'],
    ['x/ a b ', 'x/ a b@( )'],
    ['a\u00a0', 'a@(\u00a0)'],
  ])('%j -> %j', (path, pattern) => {
    expect(literalGlob(path)).toBe(pattern);
    expect(pico(pattern, path)).toBe(true);
    expect(globMatches(pattern, path)).toBe(true);
  });

  it('keeps its meaning under a folder claim', () => {
    const folder = `${literalGlob('legacy/[old]')}/**`;
    expect(globMatches(folder, 'legacy/[old]/a.ts')).toBe(true);
    expect(globMatches(folder, 'legacy/o/a.ts')).toBe(false);
    expect(globsOverlap(folder, 'legacy/d/**')).toEqual({ overlap: false });
  });

  it('refuses what is not a real path, and what no glob can spell exactly', () => {
    for (const [path, rule] of [
      ['../x', 'real_path'],
      ['/abs', 'real_path'],
      ['a//b', 'real_path'],
      ['a\\b', 'not_expressible'],
    ]) {
      try {
        literalGlob(path!, 'component.path');
        expect.unreachable(path);
      } catch (err) {
        expect(err).toBeInstanceOf(ValidationError);
        expect((err as ValidationError).details).toMatchObject({
          field: 'component.path',
          value: path,
          rule,
        });
      }
    }
  });

  it('matches no other real path than its own and its spelling (property)', () => {
    const chars = [
      'a',
      'b',
      '.',
      '/',
      '*',
      '?',
      '[',
      ']',
      '{',
      '}',
      '(',
      ')',
      '!',
      '@',
      '+',
      '|',
      ',',
      '"',
      '$',
      '^',
      ' ',
    ];
    const path = fc
      .string({ unit: fc.constantFrom(...chars), minLength: 1, maxLength: 8 })
      .filter(isRealPath);
    const other = fc.string({ unit: fc.constantFrom(...chars), minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(path, fc.array(other, { maxLength: 10 }), (p, others) => {
        // Every character here has a spelling: a refusal would be a defect as much as a wrong pattern.
        const pattern = literalGlob(p);
        expect(pico(pattern, p)).toBe(true);
        // picomatch matches any path spelled like the pattern itself: the one other match allowed.
        for (const q of [...others, `${p}a`, p.slice(0, -1)]) {
          if (isRealPath(q) && q !== p && q !== pattern) {
            expect({ pattern, q, m: pico(pattern, q) }).toMatchObject({ m: false });
          }
        }
      }),
      { numRuns: 400 * SCALE },
    );
  });
});
