#!/usr/bin/env node
// Token counter load time and counting throughput: hub's o200k_base table (dist/tokenizer/o200k_base.bin,
// src/context/bpe-*.ts) against gpt-tokenizer loaded from its ranks as JSON (the loader it replaced). Each
// sample is a fresh node process timing, with performance.now(), the import, the load, then passes over ~1 MB
// of this repository's text (the first pass cold, the others warm); counts must agree.
// Usage: npm run build && node bench/tokenizer-load.mjs [--runs 7] [--quick]
// (--quick: 1 run of one warm pass over scripts/ only, no page-cache warm-up.)
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createTempDir, median, progress, QUICK, ROOT, round, runBench, timeSpawn } from './lib/measure.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: QUICK ? '1' : '7' }, quick: { type: 'boolean' } },
});
const RUNS = Number(values.runs);
const WARM_PASSES = QUICK ? 1 : 3;

// Loads a counter as hub did before the table: gpt-tokenizer's GptEncoding over its ranks read as JSON.
const OLD_LOADER = `
import { readFileSync } from 'node:fs';
export async function load(dir) {
  const { GptEncoding } = await import('gpt-tokenizer/GptEncoding');
  const ranks = JSON.parse(readFileSync(dir + '/o200k_base.json', 'utf8'));
  const api = GptEncoding.getEncodingApi('o200k_base', () => ranks);
  const plain = { disallowedSpecial: new Set() };
  return (text) => api.countTokens(text, plain);
}`;

const NEW_LOADER = `
import { loadTokenCounter } from './src/context/tokens.ts';
export async function load() {
  const counter = await loadTokenCounter();
  return counter.count;
}`;

// One sample: prints {import_ms, load_ms, first_pass_ms, warm_pass_ms, tokens}.
const PROBE = `
import { readFileSync } from 'node:fs';
const [bundle, dir, corpus] = process.argv.slice(2);
const texts = JSON.parse(readFileSync(corpus, 'utf8'));
const t0 = performance.now();
const { load } = await import(bundle);
const t1 = performance.now();
const count = await load(dir);
const t2 = performance.now();
const pass = () => { const s = performance.now(); let n = 0; for (const t of texts) n += count(t); return [performance.now() - s, n]; };
const [first, tokens] = pass();
const warm = [];
for (let i = 0; i < ${WARM_PASSES}; i++) warm.push(pass()[0]);
warm.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ import_ms: t1 - t0, load_ms: t2 - t1, first_pass_ms: first, warm_pass_ms: warm[warm.length >> 1], tokens }));
`;

/** Bundles a loader the way the CLI is built (ESM, split chunks) into dir/loader.mjs. */
async function bundle(dir, contents) {
  const { build } = await import('esbuild');
  await build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts' },
    outdir: dir,
    entryNames: 'loader',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  return join(dir, 'loader.mjs');
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

function summarize(samples) {
  const keys = ['import_ms', 'load_ms', 'first_pass_ms', 'warm_pass_ms'];
  return Object.fromEntries(keys.map((k) => [k, round(median(samples.map((s) => s[k])), 2)]));
}

await runBench('tokenizer-load', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-tokenizer-'));
  const oldDir = join(dir, 'old');
  const newDir = join(dir, 'new');
  const oldBundle = await bundle(oldDir, OLD_LOADER);
  const newBundle = await bundle(newDir, NEW_LOADER);
  const { default: ranks } = await import('gpt-tokenizer/bpeRanks/o200k_base');
  writeFileSync(join(oldDir, 'o200k_base.json'), JSON.stringify(ranks));
  // The built table, where the bundle looks for it (./tokenizer/ next to it).
  mkdirSync(join(newDir, 'tokenizer'), { recursive: true });
  copyFileSync(
    join(ROOT, 'dist', 'tokenizer', 'o200k_base.bin'),
    join(newDir, 'tokenizer', 'o200k_base.bin'),
  );
  const files = (QUICK ? ['scripts'] : ['src', 'docs', 'bench', 'scripts']).flatMap((d) =>
    filesUnder(join(ROOT, d)),
  );
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const corpus = join(dir, 'corpus.json');
  writeFileSync(corpus, JSON.stringify(texts));
  const probe = join(dir, 'probe.mjs');
  writeFileSync(probe, PROBE);
  const sample = (bundlePath, loaderDir) =>
    JSON.parse(timeSpawn(process.execPath, [probe, bundlePath, loaderDir, corpus]).stdout);
  const cases = { gpt_tokenizer_json: [oldBundle, oldDir], hub_table: [newBundle, newDir] };
  const samples = { gpt_tokenizer_json: [], hub_table: [] };
  if (!QUICK) for (const args of Object.values(cases)) sample(...args); // warm the page cache
  for (let i = 0; i < RUNS; i++) {
    for (const [name, args] of Object.entries(cases)) samples[name].push(sample(...args));
    progress(`runs: ${i + 1}/${RUNS}`);
  }
  const tokens = new Set(Object.values(samples).flatMap((xs) => xs.map((s) => s.tokens)));
  if (tokens.size !== 1) throw new Error(`the counters disagree: ${[...tokens].join(' vs ')} tokens`);
  const old = summarize(samples.gpt_tokenizer_json);
  const now = summarize(samples.hub_table);
  const mb = Buffer.byteLength(texts.join('')) / 1e6;
  return {
    corpus_files: files.length,
    corpus_mb: round(mb, 2),
    tokens: [...tokens][0],
    gpt_tokenizer_json: old,
    hub_table: now,
    load_speedup: round((old.import_ms + old.load_ms) / (now.import_ms + now.load_ms), 1),
    first_pass_mb_s: {
      gpt_tokenizer_json: round(mb / (old.first_pass_ms / 1e3)),
      hub_table: round(mb / (now.first_pass_ms / 1e3)),
    },
    warm_pass_mb_s: {
      gpt_tokenizer_json: round(mb / (old.warm_pass_ms / 1e3)),
      hub_table: round(mb / (now.warm_pass_ms / 1e3)),
    },
    runs: RUNS,
    node: process.version,
  };
});
