#!/usr/bin/env node
// Concurrent writers through the real CLI: `--workers` chains of `--updates` sequential `hub context objective set`
// processes, the chains running at once, on the default local backend and through the http backend (a real
// `hub web serve` whose own store is local). Default conflict_retries (1). Target: every call accepted and every
// objective present, on both.
// Usage: node bench/concurrent-writers.mjs [--workers 8] [--updates 25] [--backend local|http|both] [--quick]
// (--quick: 2 workers of 1 update each, both backends.)
// (stdout: exactly one JSON object; progress on stderr).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createKit } from './hostile/kit.mjs';
import { createTempDir, HUB_BIN, progress, QUICK, round, runBench } from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: QUICK ? '2' : '8' },
    updates: { type: 'string', default: QUICK ? '1' : '25' },
    backend: { type: 'string', default: 'both' },
    quick: { type: 'boolean' },
  },
});
const WORKERS = Number(values.workers);
const UPDATES = Number(values.updates);

function hub(manifest, args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HUB_BIN, '-c', manifest, ...args], {
      env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off', HUB_AGENT_MODE: 'true', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Runs the writers against one workspace; counts accepted calls and the objectives the store then holds. */
async function run(root, manifest, env) {
  const started = performance.now();
  const failures = [];
  let accepted = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, i) => {
      for (let j = 0; j < UPDATES; j++) {
        const r = await hub(
          manifest,
          ['context', 'objective', 'set', '--id', `w${i}-${j}`, '--title', `W ${i} ${j}`],
          env,
        );
        if (r.code === 0) accepted++;
        else failures.push(`w${i}-${j}: exit ${r.code}: ${r.out.trim().split('\n').at(-1)}`);
      }
    }),
  );
  const ms = performance.now() - started;
  const doc = JSON.parse(readFileSync(join(root, '.hub', 'objectives.json'), 'utf8'));
  const ids = new Set(doc.objectives.map((o) => o.id));
  let present = 0;
  for (let i = 0; i < WORKERS; i++) for (let j = 0; j < UPDATES; j++) if (ids.has(`w${i}-${j}`)) present++;
  return {
    calls: WORKERS * UPDATES,
    accepted,
    present,
    failed: failures.length,
    wall_s: round(ms / 1000, 2),
    ...(failures.length ? { first_failures: failures.slice(0, 3) } : {}),
  };
}

await runBench('concurrent-writers', async ({ cleanup }) => {
  const out = { workers: WORKERS, updates: UPDATES, conflict_retries: 1 };
  if (values.backend === 'local' || values.backend === 'both') {
    const demo = createDemo(join(cleanup(createTempDir('hub-writers-local-')), 'demo'));
    progress(`local: ${WORKERS} x ${UPDATES}`);
    out.local = await run(demo.root, demo.manifestPath, {});
  }
  if (values.backend === 'http' || values.backend === 'both') {
    const demo = createDemo(join(cleanup(createTempDir('hub-writers-http-')), 'demo'));
    const kit = createKit();
    const srv = await kit.server(demo.root);
    try {
      progress(`http: ${WORKERS} x ${UPDATES} through ${srv.base}`);
      out.http = await run(demo.root, demo.manifestPath, {
        HUB_STATE_BACKEND: 'http',
        HUB_STATE_URL: srv.base,
      });
    } finally {
      await srv.close();
      await kit.cleanup();
    }
  }
  const all = [out.local, out.http].filter(Boolean);
  out.ok = all.every((r) => r.accepted === r.calls && r.present === r.calls);
  if (!out.ok) throw Object.assign(new Error(`lost or refused writes: ${JSON.stringify(out)}`));
  return out;
});
