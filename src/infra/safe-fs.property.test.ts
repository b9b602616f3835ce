// Property tests of the one path rule, on a real temp tree: random `..` segments, absolute paths and symlinks
// (inside, outside, dangling, chains, loops, relative, to folders, a symlinked root) never yield a path whose
// real path is outside the root, and every path that really is inside is accepted.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInside, realpathDeepest } from './paths.js';
import { resolveReal, tryReadFileBounded } from './safe-fs.js';

const RUNS = { numRuns: 400 };
let base: string;
let root: string;

/** Independent oracle: the kernel's realpath of the deepest existing ancestor (walking up by hand). */
function kernelRealOfDeepest(p: string): string | undefined {
  for (let cur = p; ; cur = dirname(cur)) {
    try {
      return realpathSync.native(cur);
    } catch {
      if (dirname(cur) === cur) return undefined;
    }
  }
}

function kernelReal(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'hub-safe-fs-prop-')));
  root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(join(root, 'a', 'b'), { recursive: true });
  mkdirSync(join(outside, 'd'), { recursive: true });
  writeFileSync(join(root, 'a', 'f1'), 'f1');
  writeFileSync(join(root, 'a', 'b', 'f2'), 'f2');
  writeFileSync(join(outside, 's'), 's');
  const links: Array<[string, string]> = [
    ['in-dir', join(root, 'a')],
    ['in-file', join(root, 'a', 'f1')],
    ['out-dir', outside],
    ['out-file', join(outside, 's')],
    ['dangling', join(base, 'nowhere')],
    ['chain1', join(root, 'chain2')],
    ['chain2', join(root, 'a')],
    ['chainout1', join(root, 'chainout2')],
    ['chainout2', outside],
    ['rel-up', '../outside'],
    ['rel-in', './a/b'],
    ['loop', join(root, 'loop')],
    ['a/b/up-up', '../../../outside/d'],
    ['a/b/back-in', '..'],
  ];
  for (const [name, target] of links) symlinkSync(target, join(root, name));
  symlinkSync(root, join(base, 'root-link'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const NAMES = [
  'a',
  'b',
  'f1',
  'f2',
  'in-dir',
  'in-file',
  'out-dir',
  'out-file',
  'dangling',
  'chain1',
  'chainout1',
  'rel-up',
  'rel-in',
  'loop',
  'up-up',
  'back-in',
  'd',
  's',
  'outside',
  'root',
  'new',
];
const segment = fc.oneof(fc.constantFrom(...NAMES), fc.constantFrom('..', '.', ''));
const relPath = fc.array(segment, { maxLength: 7 }).map((s) => s.join('/'));
const anyPath = fc.oneof(
  relPath,
  fc.tuple(fc.constantFrom('base', 'root', 'root-link', 'outside', '/'), relPath).map(([lead, rest]) => {
    const prefix = lead === '/' ? '/' : lead === 'base' ? base : join(base, lead);
    return `${prefix}/${rest}`;
  }),
);
const roots = () => [root, join(base, 'root-link')];

describe('resolveReal', () => {
  it('never returns a path whose real path lies outside the root', () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        for (const r of roots()) {
          const got = resolveReal(r, p);
          if (got === undefined) continue;
          expect(isInside(root, got), `${p} -> ${got}`).toBe(true);
          const real = kernelRealOfDeepest(got);
          expect(real !== undefined && isInside(root, real), `${p} -> ${got} (real ${real})`).toBe(true);
        }
      }),
      RUNS,
    );
  });

  it('accepts every existing path whose real path is inside, and returns that real path', () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        for (const r of roots()) {
          const real = kernelReal(resolve(r, p));
          if (real === undefined || !isInside(root, real)) continue;
          expect(resolveReal(r, p), p).toBe(real);
        }
      }),
      RUNS,
    );
  });

  it('accepts a new path under a real inside folder', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', 'a', 'a/b', 'in-dir', 'chain1/b', 'rel-in'),
        fc.constantFrom('n1', 'n1/n2'),
        (dir, tail) => {
          for (const r of roots()) {
            const got = resolveReal(r, dir ? `${dir}/${tail}` : tail);
            expect(got).toBe(join(realpathSync(join(root, dir)), tail));
          }
        },
      ),
      RUNS,
    );
  });

  it('agrees with realpathDeepest, which never throws on loops, dangling links or noise', () => {
    const noise = fc.string({
      unit: fc.constantFrom('a', '/', '.', '\\', ' ', 'l', 'o', 'p'),
      maxLength: 20,
    });
    fc.assert(
      fc.property(fc.oneof(anyPath, noise), (p) => {
        const deepest = realpathDeepest(resolve(root, p));
        const got = resolveReal(root, p);
        if (got !== undefined) expect(got).toBe(deepest);
      }),
      RUNS,
    );
  });
});

describe('tryReadFileBounded under a root', () => {
  it('reads only regular files whose real path is inside, and every such file', () => {
    fc.assert(
      fc.property(anyPath, (p) => {
        for (const r of roots()) {
          const abs = resolve(r, p);
          const got = tryReadFileBounded(p, { maxBytes: 64, root: r });
          const real = kernelReal(abs);
          const legit = real !== undefined && isInside(root, real) && lstatSync(real).isFile();
          if (got.ok) {
            expect(isInside(root, realpathSync(got.path)), p).toBe(true);
            expect(lstatSync(got.path).isFile()).toBe(true);
          }
          expect(got.ok, `${p}: ${got.ok ? '' : got.reason}`).toBe(legit);
          if (!got.ok && real !== undefined && !isInside(root, real)) expect(got.rule).toBe('inside_root');
          if (!got.ok && legit === false && real === undefined && !existsSync(abs))
            expect(got.rule).not.toBe('max_size');
        }
      }),
      RUNS,
    );
  });
});
