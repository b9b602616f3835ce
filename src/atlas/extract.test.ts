import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { extractFile } from './extract.js';
import { createParsers, type Parsers } from './parsers.js';
import { languageOf } from './sources.js';

const FIXTURES = join(import.meta.dirname, '../../test/fixtures/atlas');

function filesOf(dir: string): string[] {
  const out: string[] = [];
  const stack = [dir];
  while (stack.length > 0) {
    const d = stack.pop()!;
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) stack.push(p);
      else if (languageOf(p)) out.push(p);
    }
  }
  return out.sort();
}

/** What the fixture's `atlas:` comments expect, one string per finding: `symbol <kind> <name> [receiver] @<line>`. */
function expected(text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    const m = /atlas:(symbol|test) (.+)$/.exec(line);
    if (m) out.push(`${m[1]} ${m[2]!.trim()} @${i + 1}`);
  });
  return out.sort();
}

let parsers: Parsers;
beforeAll(async () => {
  parsers = await createParsers();
});

describe('atlas extractors on fixtures in four languages', () => {
  for (const lang of ['ts', 'py', 'go', 'rust']) {
    it(`finds every symbol and test of the ${lang} fixture at its line, and nothing else`, async () => {
      const files = filesOf(join(FIXTURES, lang));
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        const rel = relative(join(FIXTURES, lang), file);
        const r = await extractFile(parsers, languageOf(file)!, rel, text);
        const found = [
          ...r.symbols.map(
            (s) => `symbol ${s.kind} ${s.name}${s.receiver ? ` ${s.receiver}` : ''} @${s.line}`,
          ),
          ...r.tests.map((t) => `test ${t.name} @${t.line}`),
        ].sort();
        expect({ file, found }).toEqual({ file, found: expected(text) });
      }
    });
  }

  it('names the test framework of each file', async () => {
    const fw = async (rel: string) =>
      (
        await extractFile(parsers, languageOf(rel)!, rel, readFileSync(join(FIXTURES, rel), 'utf8'))
      ).tests.map((t) => t.framework);
    expect(new Set(await fw('ts/test/parser.test.ts'))).toEqual(new Set(['vitest']));
    expect(await fw('py/tests/test_core.py')).toEqual(['pytest', 'pytest', 'unittest']);
    expect(new Set(await fw('go/server/server_test.go'))).toEqual(new Set(['go test']));
  });

  it('parses broken source without throwing and keeps what it can read', async () => {
    const r = await extractFile(parsers, 'python', 'x.py', 'def ok():\n  pass\n\ndef broken(:\n');
    expect(r.symbols.map((s) => s.name)).toContain('ok');
  });
});
