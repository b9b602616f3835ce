import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInside, normalizeRelPath, resolveInside } from './paths.js';

const RUNS = { numRuns: 300 };

/** A name that is neither `.` nor `..` and holds no separator. */
const safeSegment = fc.stringMatching(/^[A-Za-z0-9._-]{1,6}$/).filter((s) => s !== '.' && s !== '..');
/** Any segment, including the ones that mean something. */
const anySegment = fc.oneof(safeSegment, fc.constantFrom('.', '..', ''));
const separator = fc.constantFrom('/', '\\', '//');

/** A path built from segments joined by mixed separators, optionally absolute. */
const pathLike = fc
  .tuple(
    fc.array(fc.tuple(anySegment, separator), { maxLength: 8 }),
    fc.constantFrom('', '', '', '/', '\\', 'C:/', 'c:\\', './', '../'),
  )
  .map(([parts, lead]) => lead + parts.map(([seg, sep]) => seg + sep).join(''));
/** Arbitrary strings over the characters that matter to paths. */
const noisy = fc.string({
  unit: fc.constantFrom('a', 'b', '.', '/', '\\', 'C', ':', ' ', '~'),
  maxLength: 24,
});
const anyPath = fc.oneof(pathLike, noisy);

/**
 * The model: absolute means escaping; otherwise escaping means the depth ever drops below zero, or the path left
 * once `.` and `..` are gone starts with a drive (`C:`: absolute or drive-relative on Windows).
 */
function climbsAboveRoot(input: string): boolean {
  const raw = input.replace(/\\/g, '/');
  if (raw.startsWith('/') || /^[A-Za-z]:\//.test(raw)) return true;
  const kept: string[] = [];
  for (const seg of raw.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg !== '..') kept.push(seg);
    else if (kept.pop() === undefined) return true;
  }
  return /^[A-Za-z]:/.test(kept[0] ?? '');
}

describe('normalizeRelPath', () => {
  it('is idempotent', () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        const once = normalizeRelPath(p);
        expect(normalizeRelPath(once.path)).toEqual(once);
      }),
      RUNS,
    );
  });

  it('says a path that starts with a drive once normalized escapes, and stays so normalized again', () => {
    // Found by the property above (seed 2007247136): `./a:\\a` gave `a:/a` not escaping, then escaping.
    for (const p of ['./a:\\a', 'x/../C:foo', 'a:', './c:/x/..']) {
      const once = normalizeRelPath(p);
      expect(once.escapes).toBe(true);
      expect(normalizeRelPath(once.path)).toEqual(once);
    }
    expect(normalizeRelPath('x/a:')).toEqual({ path: 'x/a:', escapes: false });
  });

  it('reads svc, ./svc/, svc/. and svc// as the same path', () => {
    expect(
      new Set(['svc', './svc/', 'svc/.', 'svc//', '.\\svc\\'].map((p) => normalizeRelPath(p).path)),
    ).toEqual(new Set(['svc']));
    fc.assert(
      fc.property(fc.array(safeSegment, { minLength: 1, maxLength: 6 }), (segs) => {
        const plain = segs.join('/');
        const want = normalizeRelPath(plain);
        expect(want).toEqual({ path: plain, escapes: false });
        for (const v of [
          `./${plain}/`,
          `${plain}/.`,
          `${plain}//`,
          segs.join('//'),
          segs.join('/./'),
          segs.join('\\'),
        ])
          expect(normalizeRelPath(v)).toEqual(want);
      }),
      RUNS,
    );
  });

  it('never yields //, /./, a leading ./, a trailing / or an empty path', () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        const { path } = normalizeRelPath(p);
        expect(path).not.toBe('');
        expect(path).not.toContain('//');
        expect(path).not.toContain('/./');
        expect(path).not.toContain('\\');
        expect(path.startsWith('./')).toBe(false);
        expect(path.endsWith('/.')).toBe(false);
        // Only a bare absolute root keeps its slash.
        if (!/^([A-Za-z]:)?\/$/.test(path)) expect(path.endsWith('/')).toBe(false);
      }),
      RUNS,
    );
  });

  it('escapes exactly when the path is absolute or climbs above its root', () => {
    for (const p of ['..', '../x', 'a/../..', '/etc', 'C:\\x', '\\\\server\\share'])
      expect(normalizeRelPath(p).escapes).toBe(true);
    for (const p of ['', '.', 'a/..', 'a/b/../c', '..a', 'a..', '...'])
      expect(normalizeRelPath(p).escapes).toBe(false);
    fc.assert(
      fc.property(anyPath, (p) => {
        expect(normalizeRelPath(p).escapes).toBe(climbsAboveRoot(p));
      }),
      RUNS,
    );
  });

  it('never lets a path of safe segments escape', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(safeSegment, separator), { maxLength: 10 }), (parts) => {
        const p = parts.map(([s, sep]) => s + sep).join('');
        const n = normalizeRelPath(p);
        expect(n.escapes).toBe(false);
        expect(n.path).toBe(parts.length === 0 ? '.' : parts.map(([s]) => s).join('/'));
      }),
      RUNS,
    );
  });

  it('keeps the leading .. of an escaping path so it reads as what it is', () => {
    expect(normalizeRelPath('a/../../b/')).toEqual({ path: '../b', escapes: true });
    expect(normalizeRelPath('//x//y/./')).toEqual({ path: '/x/y', escapes: true });
  });
});

describe('resolveInside', () => {
  let base: string;
  let root: string;
  let outside: string;

  beforeAll(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'hub-paths-')));
    root = join(base, 'root');
    outside = join(base, 'outside');
    mkdirSync(join(root, 'sub', 'deep'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.txt'), 'x');
    writeFileSync(join(root, 'sub', 'file.txt'), 'x');
    symlinkSync(outside, join(root, 'out'));
    symlinkSync(join(outside, 'secret.txt'), join(root, 'secret-link'));
    symlinkSync(join(root, 'sub'), join(root, 'in'));
    symlinkSync(join(base, 'nowhere'), join(root, 'dangling'));
    symlinkSync(root, join(base, 'root-link'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('never returns a path outside the root, for any input', () => {
    const roots = () => [root, join(base, 'root-link'), join(base, 'missing-root')];
    fc.assert(
      fc.property(anyPath, (p) => {
        for (const r of roots()) {
          const got = resolveInside(r, p);
          if (got !== undefined) expect(isInside(resolve(r), got)).toBe(true);
          if (normalizeRelPath(p).escapes) expect(got).toBeUndefined();
        }
      }),
      RUNS,
    );
  });

  it('refuses symlinks that lead outside, also for paths beneath them that do not exist yet', () => {
    for (const p of [
      'out',
      'out/secret.txt',
      'out/new/file.txt',
      'secret-link',
      'dangling',
      'dangling/x',
      'in/../out',
    ])
      expect(resolveInside(root, p), p).toBeUndefined();
  });

  it('accepts paths inside, through inside symlinks and under a symlinked root', () => {
    expect(resolveInside(root, '.')).toBe(root);
    expect(resolveInside(root, 'sub/file.txt')).toBe(join(root, 'sub', 'file.txt'));
    expect(resolveInside(root, 'sub/not-yet/new.txt')).toBe(join(root, 'sub', 'not-yet', 'new.txt'));
    expect(resolveInside(root, 'in/file.txt')).toBe(join(root, 'in', 'file.txt'));
    expect(resolveInside(join(base, 'root-link'), 'sub/deep')).toBe(join(base, 'root-link', 'sub', 'deep'));
    expect(resolveInside(join(base, 'root-link'), 'out')).toBeUndefined();
  });
});

describe('isInside', () => {
  const absPath = fc
    .array(fc.constantFrom('a', 'b', 'ab', '..a', '.', '..'), { maxLength: 5 })
    .map((segs) => resolve('/r', ...segs));

  it('is reflexive', () => {
    fc.assert(
      fc.property(absPath, (p) => {
        expect(isInside(p, p)).toBe(true);
      }),
      RUNS,
    );
  });

  it('is transitive and antisymmetric', () => {
    fc.assert(
      fc.property(absPath, absPath, absPath, (a, b, c) => {
        if (isInside(a, b) && isInside(b, c)) expect(isInside(a, c)).toBe(true);
        if (isInside(a, b) && isInside(b, a)) expect(a).toBe(b);
      }),
      { numRuns: 1_000 },
    );
  });

  it('holds for every descendant and for no sibling that only shares a prefix', () => {
    fc.assert(
      fc.property(absPath, fc.array(safeSegment, { maxLength: 4 }), safeSegment, (p, below, name) => {
        expect(isInside(p, join(p, ...below))).toBe(true);
        const sibling = join(p, name);
        expect(isInside(sibling, `${sibling}x`)).toBe(false);
        expect(isInside(sibling, p)).toBe(false);
      }),
      RUNS,
    );
  });
});
