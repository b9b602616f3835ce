#!/usr/bin/env node
// Compare-and-swap updates per second through the local state backend with 1, 2 and 8 concurrent processes,
// against the raw cost of an fsync'd atomic file replace on the same disk.
// Usage: node bench/state-cas.mjs [--updates 200] [--raw 400] [--quick]
// Quick mode (--quick): 10 updates per process, 20 raw writes.
// (stdout: exactly one JSON object; progress on stderr). src/state is bundled with esbuild into a temp file.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleSrc } from './lib/bundle.mjs';
import { createTempDir, median, progress, QUICK } from './lib/measure.mjs';

const DOC = 'bench.counter';
const SELF = fileURLToPath(import.meta.url);

if (process.argv[2] === '--worker') await worker(process.argv.slice(3));
else await main();

/** One contending process: waits for "go" on stdin, does `count` increments, prints its attempt count. */
async function worker([bundle, dir, count]) {
  const { createLocalStore, updateDocument } = await import(pathToFileURL(bundle).href);
  const store = createLocalStore({ dir, lockTimeoutMs: 60_000 });
  process.stdout.write('ready\n');
  await once(createInterface({ input: process.stdin }), 'line');
  let attempts = 0;
  for (let i = 0; i < Number(count); i++) {
    await updateDocument(
      store,
      DOC,
      (cur) => {
        attempts++;
        return { value: { n: (cur?.n ?? 0) + 1 }, result: undefined };
      },
      { retries: 100_000 },
    );
  }
  process.stdout.write(`${JSON.stringify({ attempts })}\n`);
}

async function bundleState(dir) {
  return bundleSrc(join(dir, 'state.mjs'), [
    "export { createLocalStore, updateDocument } from './src/state/index.ts';",
    "export { writeFileAtomicSync } from './src/infra/atomic-file.ts';",
  ]);
}

/** `processes` workers start together on one document; returns total successful updates per second. */
async function runContended(bundle, dir, processes, perProcess) {
  const hub = join(dir, `hub-p${processes}`);
  const children = Array.from({ length: processes }, () =>
    spawn(process.execPath, [SELF, '--worker', bundle, hub, String(perProcess)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const lines = children.map((c) => createInterface({ input: c.stdout })[Symbol.asyncIterator]());
  for (const it of lines) {
    const { value } = await it.next();
    if (value !== 'ready') throw new Error(`worker did not start: ${value}`);
  }
  const start = process.hrtime.bigint();
  for (const c of children) c.stdin.end('go\n');
  const reports = await Promise.all(
    lines.map(async (it, i) => {
      const { value } = await it.next();
      const [code] = await once(children[i], 'exit');
      if (code !== 0 || !value) throw new Error(`worker ${i} failed (exit ${code})`);
      return JSON.parse(value);
    }),
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const { createLocalStore } = await import(pathToFileURL(bundle).href);
  const final = (await createLocalStore({ dir: hub }).read(DOC)).value;
  const expected = processes * perProcess;
  if (final?.n !== expected)
    throw new Error(`lost updates with ${processes} processes: n=${final?.n}, expected ${expected}`);
  const attempts = reports.reduce((s, r) => s + r.attempts, 0);
  progress(`p${processes}: ${expected} updates in ${seconds.toFixed(2)} s, ${attempts} attempts`);
  return { ups: expected / seconds, attemptsPerUpdate: attempts / expected };
}

async function main() {
  const { values } = parseArgs({
    options: {
      updates: { type: 'string', default: QUICK ? '10' : '200' },
      raw: { type: 'string', default: QUICK ? '20' : '400' },
      quick: { type: 'boolean' },
    },
  });
  const perProcess = Number(values.updates);
  const rawOps = Number(values.raw);
  const dir = createTempDir('hub-bench-state-');
  let result;
  try {
    const bundle = await bundleState(dir);
    const { writeFileAtomicSync } = await import(pathToFileURL(bundle).href);

    // The floor under every local write: one fsync'd temp file, a rename, an fsync of the directory. Measured
    // right before each contended run, so the ratios compare like with like on a disk whose speed drifts.
    const rawDir = join(dir, 'raw');
    mkdirSync(rawDir);
    const payload = `${JSON.stringify({ n: 123456 }, null, 2)}\n`;
    const rawRate = () => {
      for (let i = 0; i < 20; i++) writeFileAtomicSync(join(rawDir, `${DOC}.json`), payload);
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < rawOps; i++) writeFileAtomicSync(join(rawDir, `${DOC}.json`), payload);
      const ops = rawOps / (Number(process.hrtime.bigint() - t0) / 1e9);
      progress(`raw atomic replace: ${ops.toFixed(0)} ops/s`);
      return ops;
    };

    const runs = {};
    for (const p of [1, 2, 8]) {
      const raw = rawRate();
      runs[`p${p}`] = { raw, ...(await runContended(bundle, dir, p, perProcess)) };
    }
    const perRun = (f) => Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, f(v)]));
    const raws = Object.values(runs).map((r) => r.raw);
    result = {
      bench: 'state-cas',
      updates_per_process: perProcess,
      local_cas_ups: perRun((v) => Math.round(v.ups)),
      raw_atomic_replace_ops: Math.round(median(raws)),
      ratio_p1: Number((runs.p1.ups / runs.p1.raw).toFixed(3)),
      ratio_p2: Number((runs.p2.ups / runs.p2.raw).toFixed(3)),
      ratio_p8: Number((runs.p8.ups / runs.p8.raw).toFixed(3)),
      raw_samples_ops: raws.map(Math.round),
      attempts_per_update: perRun((v) => Number(v.attemptsPerUpdate.toFixed(2))),
      lost_updates: 0,
      node: process.version,
    };
  } catch (err) {
    result = { bench: 'state-cas', error: err instanceof Error ? err.message : String(err) };
    process.exitCode = 1;
  } finally {
    if (process.env.BENCH_KEEP === '1') progress(`kept ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
