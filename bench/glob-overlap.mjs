#!/usr/bin/env node
// Exact glob overlap decisions per second on generated claim-like glob pairs, cold (compile included) and warm
// (compiled), and the time to check one new claim of 3 patterns against 10,000 live claims of 1-3 patterns each
// (finding every conflicting claim with its witness), and the same for a claim that conflicts with none.
// Usage: node bench/glob-overlap.mjs [--pairs 20000] [--claims 10000] [--checks 15] [--seed 42] [--quick]
// (--quick: 200 pairs, 100 live claims, 2 checks)
// (stdout: exactly one JSON object; progress on stderr). src/acl/glob is bundled with esbuild into a temp file.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleSrc } from './lib/bundle.mjs';
import { createTempDir, median, progress, QUICK, round } from './lib/measure.mjs';

async function bundleGlob(dir) {
  return bundleSrc(join(dir, 'glob.mjs'), [
    "export { clearGlobCache, compileGlob, compiledOverlap, globsOverlap } from './src/acl/glob/index.ts';",
  ]);
}

/** mulberry32: a small seeded PRNG, so every run measures the same patterns. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DIRS = ['src', 'lib', 'docs', 'test', 'scripts', 'apps', 'packages', 'services', 'config', 'web'];
const NAMES = Array.from(
  { length: 60 },
  (_, i) => `${['core', 'api', 'ui', 'auth', 'db', 'util'][i % 6]}${i}`,
);
const EXTS = ['ts', 'tsx', 'js', 'md', 'json', 'yml', 'go', 'py'];

/** Claim patterns as agents write them: directories, packages, extensions, single files, braces, extglobs. */
function claimPattern(rand) {
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const d = pick(DIRS);
  const n = pick(NAMES);
  const e = pick(EXTS);
  const templates = [
    () => `${d}/**`,
    () => `${d}/${n}/**`,
    () => `packages/${n}/src/**/*.${e}`,
    () => `packages/*/src/**/*.${e}`,
    () => `docs/*.md`,
    () => `docs/${n}.md`,
    () => `{${d},${pick(DIRS)}}/**`,
    () => `**/*.{${e},${pick(EXTS)}}`,
    () => `${d}/${n}/*.${e}`,
    () => `${d}/**/*.test.${e}`,
    () => `apps/${n}/**`,
    () => `.github/workflows/*.yml`,
    () => `${d}/${n}.${e}`,
    () => `**/${n}.${e}`,
    () => `services/${n}/@(api|web)/**`,
    () => `${d}/[a-m]*/**`,
    () => `${d}/${n}/!(*.test).${e}`,
  ];
  return pick(templates)();
}

function rate(count, ms) {
  return Math.round(count / (ms / 1000));
}

async function main() {
  const { values } = parseArgs({
    options: {
      pairs: { type: 'string', default: QUICK ? '200' : '20000' },
      claims: { type: 'string', default: QUICK ? '100' : '10000' },
      checks: { type: 'string', default: QUICK ? '2' : '15' },
      seed: { type: 'string', default: '42' },
      quick: { type: 'boolean' },
    },
  });
  const rand = prng(Number(values.seed));
  const dir = createTempDir('hub-bench-glob-');
  let result;
  try {
    const { clearGlobCache, compileGlob, compiledOverlap, globsOverlap } = await import(
      pathToFileURL(await bundleGlob(dir)).href
    );
    const pairs = Array.from({ length: Number(values.pairs) }, () => [
      claimPattern(rand),
      claimPattern(rand),
    ]);
    // Warm up the JIT on a slice, so that neither mode pays for it alone.
    for (const [a, b] of pairs.slice(0, 500)) globsOverlap(a, b);

    // Cold: the cache emptied before every decision, so both patterns are compiled afresh each time.
    let t0 = performance.now();
    let overlaps = 0;
    for (const [a, b] of pairs) {
      clearGlobCache();
      if (globsOverlap(a, b).overlap) overlaps++;
    }
    const coldMs = performance.now() - t0;
    progress(`cold: ${pairs.length} decisions in ${coldMs.toFixed(0)} ms`);

    // Warm: every pattern compiled once (as the claim store keeps them), then only the product search.
    const compiled = pairs.map(([a, b]) => [compileGlob(a), compileGlob(b)]);
    t0 = performance.now();
    let warmOverlaps = 0;
    for (const [a, b] of compiled) if (compiledOverlap(a, b).overlap) warmOverlaps++;
    const warmMs = performance.now() - t0;
    progress(`warm: ${pairs.length} decisions in ${warmMs.toFixed(0)} ms`);
    if (warmOverlaps !== overlaps) throw new Error(`cold and warm disagree: ${overlaps} vs ${warmOverlaps}`);

    // One new claim of 3 patterns against 10,000 live claims of 1-3 patterns: every conflicting claim found.
    const live = Array.from({ length: Number(values.claims) }, () =>
      Array.from({ length: 1 + Math.floor(rand() * 3) }, () => claimPattern(rand)),
    );
    const livePatterns = live.reduce((n, c) => n + c.length, 0);
    const check = (claim) => {
      const mine = claim.map((p) => compileGlob(p));
      let conflicts = 0;
      for (const other of live) {
        const theirs = other.map((p) => compileGlob(p));
        if (mine.some((a) => theirs.some((b) => compiledOverlap(a, b).overlap))) conflicts++;
      }
      return conflicts;
    };
    const newClaims = Array.from({ length: Number(values.checks) }, () =>
      [0, 1, 2].map(() => claimPattern(rand)),
    );
    clearGlobCache();
    t0 = performance.now();
    check(newClaims[0]);
    const coldCheckMs = performance.now() - t0;
    const warmSamples = [];
    const conflicts = [];
    for (const claim of newClaims) {
      t0 = performance.now();
      conflicts.push(check(claim));
      warmSamples.push(performance.now() - t0);
    }
    progress(
      `10k check: cold ${coldCheckMs.toFixed(0)} ms, warm median ${median(warmSamples).toFixed(1)} ms`,
    );
    // A claim in an area nobody else holds (an extension no generated pattern names): every decision is "no".
    const quietSamples = [];
    for (let i = 0; i < newClaims.length; i++) {
      const claim = [`zone${i}/**/*.rs`, `zone${i}/docs/*.rs`, `zone${i}/*.{rs,toml}`];
      t0 = performance.now();
      const found = check(claim);
      quietSamples.push(performance.now() - t0);
      if (found !== 0) throw new Error(`the quiet claim ${claim.join(' ')} conflicts with ${found} claims`);
    }
    progress(`10k check without conflicts: warm median ${median(quietSamples).toFixed(1)} ms`);

    result = {
      bench: 'glob-overlap',
      pairs: pairs.length,
      overlap_share: Number((overlaps / pairs.length).toFixed(3)),
      cold_decisions_per_s: rate(pairs.length, coldMs),
      warm_decisions_per_s: rate(pairs.length, warmMs),
      check_live_claims: live.length,
      check_live_patterns: livePatterns,
      check_new_patterns: 3,
      check_cold_ms: round(coldCheckMs),
      check_warm_ms: round(median(warmSamples)),
      check_warm_max_ms: round(Math.max(...warmSamples)),
      check_conflicts_median: median(conflicts),
      check_quiet_warm_ms: round(median(quietSamples)),
      node: process.version,
    };
  } catch (err) {
    result = { bench: 'glob-overlap', error: err instanceof Error ? err.message : String(err) };
    process.exitCode = 1;
  } finally {
    if (process.env.BENCH_KEEP === '1') progress(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

await main();
