import { parse as parseToml } from '@decimalturn/toml-patch';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TomlLines } from './toml-lines.js';

const RUNS = { numRuns: 200 };

/** Keys: bare, or quoted with the characters Cargo's `cfg(...)` and dotted names bring. */
const bare = fc.stringMatching(/^[a-z][a-z0-9_-]{0,5}$/);
const quoted = fc.stringMatching(/^[a-z(),. =#[\]]{1,8}$/).map((s) => ({ quoted: s }));
const key = fc.oneof(bare, bare, quoted);
const render = (k: string | { quoted: string }) => (typeof k === 'string' ? k : `'${k.quoted}'`);
const raw = (k: string | { quoted: string }) => (typeof k === 'string' ? k : k.quoted);

/** A value that may span lines, or hold text that looks like keys and headers. */
const value = fc.constantFrom(
  '"1"',
  '{ version = "1", features = ["a"] }',
  '[\n  "x = 1",\n  "[not.a.table]",\n]',
  '"""\nname = "inside"\n[nope]\n"""',
  "'''\nk = 2\n'''",
  '42 # trailing comment with = and [x]',
);

/** Tables of distinct keys: each renders `[a.'b']` then `k = v` lines, with comments and blank lines between. */
const doc = fc.uniqueArray(
  fc.record({
    path: fc.array(key, { minLength: 1, maxLength: 3 }),
    keys: fc.uniqueArray(fc.tuple(key, value), { maxLength: 4, selector: ([k]) => raw(k) }),
  }),
  { maxLength: 5, selector: (t) => t.path.map(raw).join('\u0000') },
);

describe('TomlLines', () => {
  it('places every key of every table at the line it is written on', () => {
    fc.assert(
      fc.property(doc, (tables) => {
        const lines: string[] = ['# header comment: name = "x"', ''];
        const want: Array<[string[], number]> = [];
        const headers = new Set<string>();
        for (const t of tables) {
          const path = t.path.map(raw);
          // A table that is a prefix of, or equal to, a dotted key already written would not parse: skip those.
          const id = path.join('\u0000');
          if (headers.has(id)) continue;
          headers.add(id);
          lines.push(`[${t.path.map(render).join('.')}]`);
          want.push([path, lines.length]);
          for (const [k, v] of t.keys) {
            want.push([[...path, raw(k)], lines.length + 1]);
            lines.push(...`${render(k)} = ${v}`.split('\n'));
          }
          lines.push('# between tables', '');
        }
        const text = lines.join('\n');
        try {
          parseToml(text);
        } catch {
          return true; // a generated clash (a key that is also a table): not a document
        }
        const at = new TomlLines(text);
        for (const [path, line] of want) expect(at.line(path), path.join('.')).toBe(line);
        return true;
      }),
      RUNS,
    );
  });
});
