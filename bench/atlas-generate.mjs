#!/usr/bin/env node
// `hub atlas generate` on a generated repository of 2,000 source files in four languages (TypeScript, Python, Go,
// Rust; a fifth of each language's files are tests), against a bare `node` that lists the same files with git and
// reads each of them (what any extractor must at least do). Also `atlas status` (fingerprint check, fresh) and
// `atlas query` (answered from the index), and the symbols and tests found against those the generator wrote
// (fails unless the counts match; test/fixtures/atlas checks each symbol at its line).
// Usage: node bench/atlas-generate.mjs [--files 2000] [--runs 5] [--quick]   (--quick: 40 files, 1 run, no warm-up)
// (stdout: exactly one JSON object; progress on stderr)
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  createTempDir,
  hubCase,
  progress,
  QUICK,
  round,
  runBench,
  timeInterleaved,
  timeSpawnRss,
} from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: QUICK ? '40' : '2000' },
    runs: { type: 'string', default: QUICK ? '1' : '5' },
    quick: { type: 'boolean' },
  },
});
const FILES = Number(values.files);
const RUNS = Number(values.runs);

const git = (cwd, args) => {
  const r = spawnSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

/** One source file of `lang` (index i): its text, and how many symbols and tests it declares. */
function source(lang, i, test) {
  const pad = Array.from({ length: 20 }, (_, k) => `// filler line ${k}`);
  switch (lang) {
    case 'ts':
      return test
        ? {
            path: `web/src/m${i}.test.ts`,
            text: `import { describe, it } from 'vitest';\ndescribe('m${i}', () => {\n  it('works', () => {});\n  it('fails well', () => {});\n});\n`,
            symbols: 0,
            tests: 2,
          }
        : {
            path: `web/src/m${i}.ts`,
            text: `${pad.join('\n')}\nexport interface Opts${i} { a: number }\nexport type Id${i} = string;\nexport class Service${i} {\n  run(): void {}\n}\nexport function make${i}(o: Opts${i}): Service${i} {\n  return new Service${i}();\n}\nconst hidden = 1;\n`,
            symbols: 4,
            tests: 0,
          };
    case 'py':
      return test
        ? {
            path: `py/tests/test_m${i}.py`,
            text: `def test_one():\n    assert True\n\n\nclass TestM${i}:\n    def test_two(self):\n        pass\n`,
            symbols: 0,
            tests: 2,
          }
        : {
            path: `py/pkg/m${i}.py`,
            text: `${pad.map((l) => l.replace('//', '#')).join('\n')}\nclass Model${i}:\n    def save(self):\n        return 1\n\n\ndef load${i}(x):\n    return x\n\n\ndef _private():\n    return 0\n`,
            symbols: 2,
            tests: 0,
          };
    case 'go':
      return test
        ? {
            path: `go/pkg/m${i}_test.go`,
            text: `package pkg\n\nimport "testing"\n\nfunc TestM${i}(t *testing.T) {}\n\nfunc BenchmarkM${i}(b *testing.B) {}\n`,
            symbols: 0,
            tests: 2,
          }
        : {
            path: `go/pkg/m${i}.go`,
            text: `package pkg\n\n${pad.join('\n')}\ntype Store${i} struct{ n int }\n\ntype Reader${i} interface{ Read() }\n\nfunc (s *Store${i}) Get() int { return s.n }\n\nfunc New${i}() *Store${i} { return &Store${i}{} }\n\nfunc helper${i}() {}\n`,
            symbols: 4,
            tests: 0,
          };
    default:
      return test
        ? {
            path: `rs/tests/t${i}.rs`,
            text: `#[test]\nfn works_${i}() {}\n\n#[test]\nfn fails_well_${i}() {}\n`,
            symbols: 0,
            tests: 2,
          }
        : {
            path: `rs/src/m${i}.rs`,
            text: `${pad.join('\n')}\npub struct Config${i} { pub n: u32 }\n\npub trait Render${i} { fn render(&self); }\n\nimpl Config${i} {\n    pub fn new() -> Self { Config${i} { n: 0 } }\n}\n\npub fn build${i}() -> Config${i} { Config${i}::new() }\n\nfn private() {}\n`,
            symbols: 4,
            tests: 0,
          };
  }
}

/** Writes the repository and commits it; returns the expected counts. */
function makeRepo(dir) {
  let symbols = 0;
  let tests = 0;
  const langs = ['ts', 'py', 'go', 'rs'];
  for (let n = 0; n < FILES; n++) {
    const lang = langs[n % 4];
    const i = Math.floor(n / 4);
    const s = source(lang, i, i % 5 === 4);
    mkdirSync(join(dir, s.path, '..'), { recursive: true });
    writeFileSync(join(dir, s.path), s.text);
    symbols += s.symbols;
    tests += s.tests;
  }
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'generated']);
  return { symbols, tests };
}

// Lists the files as generate does (git ls-files) and reads every one: the floor any extractor stands on.
const READ_ALONE = `
const { execFileSync } = require('node:child_process');
const { readFileSync } = require('node:fs');
const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8', maxBuffer: 1 << 28 }).split('\\0').filter(Boolean);
let bytes = 0;
for (const f of files) if (!f.startsWith('.atlas/')) bytes += readFileSync(f).length;
process.stdout.write(String(bytes));
`;

await runBench('atlas-generate', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-atlas-'));
  progress(`writing ${FILES} files`);
  const expected = makeRepo(dir);
  const env = { HUB_DAEMON: 'off' };
  const init = hubCase(['atlas', 'init', '--generate', '--json'], env, { cwd: dir });
  const first = timeSpawnRss(init.command, init.args, init);
  const r = JSON.parse(first.stdout).generated;
  if (r.symbols !== expected.symbols || r.verifications !== expected.tests)
    throw new Error(
      `found ${r.symbols} symbols and ${r.verifications} tests, expected ${expected.symbols} and ${expected.tests}`,
    );
  const times = timeInterleaved(
    {
      read_alone: { command: process.execPath, args: ['-e', READ_ALONE], env: process.env, cwd: dir },
      generate: hubCase(['atlas', 'generate', '--json'], env, { cwd: dir }),
      status: hubCase(['atlas', 'status', '--json'], env, { cwd: dir }),
      query: hubCase(['atlas', 'query', 'Symbol[name="make1"]', '--json'], env, { cwd: dir }),
      node_e0: { command: process.execPath, args: ['-e', '0'], env: process.env, cwd: dir },
    },
    { runs: RUNS, warmup: QUICK ? 0 : 1 },
  );
  const q = hubCase(['atlas', 'query', 'Symbol[name="make1"]', '--json'], env, { cwd: dir });
  const answer = JSON.parse(spawnSync(q.command, q.args, { cwd: dir, env: q.env, encoding: 'utf8' }).stdout);
  if (FILES >= 8 && (!answer.ok || answer.index !== 'fresh'))
    throw new Error(`query: ${JSON.stringify(answer).slice(0, 200)}`);
  return {
    files: r.files,
    languages: r.languages,
    symbols: r.symbols,
    verifications: r.verifications,
    counts_match: true,
    runs: RUNS,
    read_alone_ms: times.read_alone.median_ms,
    generate_ms: times.generate.median_ms,
    ratio_generate_to_read: round(times.generate.median_ms / times.read_alone.median_ms, 2),
    first_generate_peak_rss_mb: first.peak_rss_mb,
    status_ms: times.status.median_ms,
    query_ms: times.query.median_ms,
    node_e0_ms: times.node_e0.median_ms,
  };
});
