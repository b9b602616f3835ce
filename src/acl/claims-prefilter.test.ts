import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { literalBounds, mayMatch, mayOverlap } from './claims-prefilter.js';
import { checkGlob, GLOB_PICOMATCH_OPTIONS, globMatches, globsOverlap } from './glob/index.js';

// The prefilter may only ever say "cannot": a pattern never matches a path it rules out, and two patterns it
// rules out never overlap. Held here against picomatch itself and against the glob engine's exact overlap.

const ATOMS = [
  'a',
  'b',
  'ab',
  'a~',
  '.',
  '/',
  '/',
  '/',
  '*',
  '**',
  '?',
  '[ab]',
  '[!a]',
  '{a,b}',
  '{a,}',
  '{b,a/b}',
  '@(a|b)',
  '*(a)',
  '+(a)',
  '?(b)',
  '!(a)',
  '[[:alpha:]]',
  // A repeated extglob picomatch gives up on (read as literal text), which also unescapes the dots around it.
  '*(a|aa)',
];
const PATH_CHARS = ['a', 'b', 'x', '~', '.', '/'];
const BOUND = 5;
// biome-ignore lint/style/noProcessEnv: a knob for deeper local runs; CI runs the default.
const SCALE = Number(process.env.GLOB_PROPERTY_SCALE ?? 1);

const isRealPath = (p: string) => p !== '' && p.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
const ALL_PATHS = (() => {
  const out: string[] = [];
  let layer = [''];
  for (let len = 1; len <= BOUND; len++) {
    layer = layer.flatMap((prefix) => PATH_CHARS.map((c) => prefix + c));
    out.push(...layer.filter(isRealPath));
  }
  return out;
})();

const rawGlob = fc.array(fc.constantFrom(...ATOMS), { minLength: 1, maxLength: 5 }).map((l) => l.join(''));
const normalized = (raw: string) => {
  try {
    return checkGlob(raw);
  } catch {
    return undefined;
  }
};

describe('literal bounds', () => {
  it('reads the head and tail of common claims', () => {
    expect(literalBounds('src/**')).toEqual({ head: 'src', tail: '' });
    expect(literalBounds('**/*.ts')).toEqual({ head: '', tail: '.ts' });
    expect(literalBounds('**/x/main.go')).toEqual({ head: '', tail: 'x/main.go' });
    expect(literalBounds('pkg/m12/src/*.go')).toEqual({ head: 'pkg/m12/src', tail: '.go' });
    expect(literalBounds('docs/README.md')).toEqual({ head: 'docs/README.md', tail: 'docs/README.md' });
    expect(literalBounds('a(b)/**').head).toBe('a');
    // picomatch leaves '.' unescaped beside a POSIX class: x.y/[[:digit:]] matches x/y/1.
    expect(literalBounds('x.y/[[:digit:]]')).toEqual({ head: 'x', tail: '' });
  });

  it('keeps the paths picomatch matches where it leaves a dot unescaped (found by the property test)', () => {
    // picomatch rebuilds its output from raw tokens after a run of three or more stars, a repeated extglob it
    // gives up on, or a POSIX class, and every '.' in plain text then matches any character.
    for (const [p, path] of [
      ['****a.', 'aa'],
      ['***a.', 'aa'],
      ['a./***', 'aa/a'],
      ['a.+(a|)b', 'aa+(a|)b'],
      ['x.y/[[:digit:]]', 'x/y/1'],
    ] as const) {
      expect({ p, path, picomatch: picomatch(p, GLOB_PICOMATCH_OPTIONS)(path) }).toMatchObject({
        picomatch: true,
      });
      expect({ p, path, engine: globMatches(p, path) }).toMatchObject({ engine: true });
      expect({ p, path, may: mayMatch(literalBounds(p), path) }).toMatchObject({ may: true });
    }
    expect(mayOverlap(literalBounds('****a.'), literalBounds('aa'))).toBe(true);
    // Where picomatch escapes the dot, it stays part of the literal bounds.
    expect(literalBounds('**a.')).toEqual({ head: '', tail: 'a.' });
    expect(literalBounds('a.b/**')).toEqual({ head: 'a.b', tail: '' });
  });

  it('rules out patterns in different folders and with different extensions, never ones that meet', () => {
    const no = (a: string, b: string) => mayOverlap(literalBounds(a), literalBounds(b));
    expect(no('pkg/m1/**', 'pkg/m2/**')).toBe(false);
    expect(no('**/*.ts', '**/*.go')).toBe(false);
    expect(no('pkg/m1/**', 'pkg/m12/**')).toBe(true); // cannot tell by the text alone; the engine decides
    expect(no('src/**', 'src')).toBe(true);
    expect(no('**/b', 'b')).toBe(true);
  });

  it('never rules out a path the pattern matches, or a pair that overlaps (property, exhaustive paths)', () => {
    let kept = 0;
    let overlaps = 0;
    fc.assert(
      fc.property(rawGlob, rawGlob, (ra, rb) => {
        const a = normalized(ra);
        const b = normalized(rb);
        if (a === undefined || b === undefined) return;
        kept++;
        const [ba, bb] = [literalBounds(a), literalBounds(b)];
        for (const [p, bounds] of [
          [a, ba],
          [b, bb],
        ] as const) {
          const m = picomatch(p, GLOB_PICOMATCH_OPTIONS);
          for (const path of [...ALL_PATHS, a, b])
            if (m(path)) expect({ p, path, may: mayMatch(bounds, path) }).toMatchObject({ may: true });
        }
        const r = globsOverlap(a, b);
        if (r.overlap) {
          overlaps++;
          expect({ a, b, may: mayOverlap(ba, bb) }).toMatchObject({ may: true });
          expect({ a, w: r.witness, may: mayMatch(ba, r.witness!) }).toMatchObject({ may: true });
          expect({ b, w: r.witness, may: mayMatch(bb, r.witness!) }).toMatchObject({ may: true });
        }
      }),
      { numRuns: 250 * SCALE },
    );
    expect(kept).toBeGreaterThan(120);
    expect(overlaps).toBeGreaterThan(25);
  });
});
