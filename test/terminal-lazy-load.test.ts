// The prompt library is loaded by nav and tui only: no other command starts slower for it. Checked on the built
// bundle: the modules every command loads (dist/cli.js, the CLI's main and commander's, and what they import
// statically) hold none of it; the chunk nav and tui import() does.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIST = join(import.meta.dirname, '..', 'dist');
const CHUNKS = join(DIST, 'chunks');
/** Text only @inquirer/core holds (its Ctrl-C message), and fuzzysort's own chunk name. */
const INQUIRER = 'User force closed the prompt';

const read = (file: string) => readFileSync(file, 'utf8');
const chunk = (prefix: string) => {
  const name = readdirSync(CHUNKS).find((f) => f.startsWith(prefix) && f.endsWith('.js'));
  if (!name) throw new Error(`no dist/chunks/${prefix}*.js: run npm run build`);
  return join(CHUNKS, name);
};

/** `files` and every module they import statically (`import ... from "./x.js"`, `import "./x.js"`). */
function staticClosure(files: string[]): Set<string> {
  const seen = new Set<string>();
  const todo = [...files];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const dir = file.startsWith(CHUNKS) ? CHUNKS : DIST;
    for (const m of read(file).matchAll(/import\s*(?:[\w$*{}\s,]+from\s*)?["'](\.\/[^"']+)["']/g))
      todo.push(join(dir, m[1]!));
  }
  return seen;
}

describe('the terminal library loads lazily', () => {
  it('is in no module that every command loads', () => {
    const always = staticClosure([join(DIST, 'cli.js'), chunk('main-'), chunk('commander-main-')]);
    expect(always.size).toBeGreaterThan(3);
    for (const file of always) {
      expect(file, file).not.toMatch(/fuzzysort/);
      expect(read(file).includes(INQUIRER), file).toBe(false);
    }
  });

  it('is what the chunk that nav and tui import() loads in its turn', () => {
    expect(read(chunk('commander-main-'))).toMatch(/import\("\.\/tui-[\w-]+\.js"\)/);
    const loaded = [...read(chunk('tui-')).matchAll(/import\("\.\/([^"]+)"\)/g)].map((m) =>
      join(CHUNKS, m[1]!),
    );
    const closure = [...staticClosure(loaded)];
    expect(closure.some((f) => read(f).includes(INQUIRER))).toBe(true);
    expect(closure.some((f) => /fuzzysort/.test(f))).toBe(true);
  });
});
