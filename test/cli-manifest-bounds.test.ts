// Manifests whose size is within the limits but whose shape used to cost too much, through the built CLI:
// a 6,000-component depends_on chain (recursive walks overflowed the stack), every component depending on all
// others (quadratic cycle reports), and limits that refuse early naming the rule, the file and the line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_LIMITS, YAML_LIMITS } from '../src/model/index.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
beforeAll(() => {
  dir = createTempDir('hub-manifest-bounds-');
});
afterAll(() => removeTempDir(dir));

/** One repo whose components are `c0..c{n-1}`, `deps(i)` naming what `ci` depends on. */
function manifest(name: string, n: number, deps: (i: number) => string[]): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const d = deps(i);
    parts.push(
      `            - name: c${i}\n              path: c${i}\n${d.length ? `              depends_on: [${d.join(', ')}]\n` : ''}`,
    );
  }
  const root = join(dir, name);
  mkdirSync(root, { recursive: true });
  const file = join(root, '.hub.yml');
  writeFileSync(
    file,
    `workspace:\n  name: w\n  projects:\n    - name: p\n      repos:\n        - name: r\n          path: r\n          components:\n${parts.join('')}`,
  );
  return file;
}

const hub = (file: string, args: string[]) => runHub(['-c', file, ...args, '--json']);
const STACK = /Maximum call stack|\n\s+at /;

describe('a 6,000-component depends_on chain', () => {
  const N = 6000;
  let file: string;
  beforeAll(() => {
    file = manifest('chain', N, (i) => (i + 1 < N ? [`c${i + 1}`] : []));
  });

  it('validates', () => {
    const r = hub(file, ['config', 'validate']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ valid: true, counts: { components: N } });
  });

  it('lists, a page at a time', () => {
    const r = hub(file, ['component', 'list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(STACK);
    expect(r.json()).toMatchObject({ total: N, next_offset: 1000, truncated: true });
    const last = hub(file, ['component', 'list', '--offset', String(N - 1)]);
    expect(last.json().components.map((c: { id: string }) => c.id)).toEqual(['p/r/c5999']);
  });

  it('resolves', () => {
    const r = hub(file, ['component', 'resolve', join(dir, 'chain', 'r', 'c5999', 'main.go')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json()).toMatchObject({ matched: true, id: 'p/r/c5999' });
  });

  it('graphs both ways', () => {
    const out = hub(file, ['component', 'graph', 'c0', '--depth', '5']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.json().nodes).toHaveLength(6);
    const into = hub(file, ['component', 'graph', 'c5999', '--direction', 'in', '--depth', '5']);
    expect(into.code, into.stderr).toBe(0);
    expect(into.json().nodes).toHaveLength(6);
  });

  it('reports the chain closed into a ring as one cycle', () => {
    const ring = manifest('ring', N, (i) => [`c${(i + 1) % N}`]);
    const r = hub(ring, ['config', 'validate']);
    expect(r.code).toBe(1);
    const problems = r.json().problems;
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ rule: 'dependency_cycle', line: 11 });
    expect(problems[0].message).toMatch(/^dependency cycle in p\/r: c0 -> c1 -> .* -> c5999 -> c0$/);
  });
});

describe('every component depending on every other', () => {
  it('is one cycle problem, not one per cycle', () => {
    const n = 200;
    const file = manifest('dense', n, (i) =>
      Array.from({ length: n }, (_, j) => `c${j}`).filter((_, j) => j !== i),
    );
    const r = hub(file, ['config', 'validate']);
    expect(r.code).toBe(1);
    expect(r.json().problems).toEqual([
      expect.objectContaining({
        rule: 'dependency_cycle',
        message: `dependency cycle in p/r: c0 -> c1 -> c0 (and ${n - 2} more component(s) in cycles with these)`,
      }),
    ]);
  });

  it('past the depends_on total it is refused naming the limit, the file and the line', () => {
    const n = 700;
    const file = manifest('dense-700', n, (i) =>
      Array.from({ length: n }, (_, j) => `c${j}`).filter((_, j) => j !== i),
    );
    const r = hub(file, ['component', 'list']);
    expect(r.code).toBe(1);
    const err = r.json().error;
    expect(err.code).toBe('validation');
    expect(err.message).toContain(file);
    expect(err.message).toMatch(/line \d+/);
    expect(err.message).toContain(`limit ${MANIFEST_LIMITS.maxDependsOnTotal}`);
  });
});

describe('a list longer than the entry limit', () => {
  it('is refused before parsing, naming the line', () => {
    const root = join(dir, 'long');
    mkdirSync(root, { recursive: true });
    const file = join(root, '.hub.yml');
    writeFileSync(
      file,
      `workspace:\n  name: w\n  projects:\n    - name: p\n      repos:\n        - name: r\n          components:\n            - name: c\n              path: c\n              produces: [${'a,'.repeat(YAML_LIMITS.maxItems)}a]\n`,
    );
    const r = hub(file, ['config', 'validate']);
    expect(r.code).toBe(1);
    expect(r.json().problems).toEqual([expect.objectContaining({ rule: 'max_items', line: 10 })]);
  });
});
