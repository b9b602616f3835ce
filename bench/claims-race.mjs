#!/usr/bin/env node
// Eight agents race to declare overlapping claims on one repository; the count of races that granted more than one
// claim (double grants; the goal is 0) per backend: in process on memory and on local with four store handles of
// one .hub/, eight processes released together on local and through the http backend, and eight concurrent
// requests to a `hub web serve` (local and memory store behind it).
// Usage: node bench/claims-race.mjs [--races 1000] [--process-races 100] [--http-races 300] [--quick]
// (--quick: 10 races in process, 1 of processes, 2 of requests.)
// (stdout: exactly one JSON object; progress on stderr). src/ is bundled with esbuild into a temp file.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createDemo } from '../examples/demo-workspace.mjs';
import { bundleSrc } from './lib/bundle.mjs';
import { createTempDir, HUB_BIN, progress, QUICK, ROOT, round, runBench } from './lib/measure.mjs';

const SELF = fileURLToPath(import.meta.url);
const RACERS = 8;
/** Racer i's patterns in round r: every pair overlaps (race<r>/13/a is under both odd patterns 1 and 3). */
const patternsOf = (r, i) => [i % 2 === 0 ? `race${r}/**` : `race${r}/*${i}*/**`];

/** Under node_modules/.cache, where the bundle's lazy require('yaml') resolves. */
async function bundle() {
  return bundleSrc(join(ROOT, 'node_modules', '.cache', `hub-bench-claims-race-${process.pid}.mjs`), [
    "export { declareClaim, ClaimsDocSchema, claimsDocument, isLive } from './src/acl/index.ts';",
    "export { createLocalStore, createMemoryStore } from './src/state/index.ts';",
    "export { createContext, invoke } from './src/ops/index.ts';",
    "export { claimDeclare } from './src/ops/claim-ops.ts';",
  ]);
}

if (process.argv[2] === '--worker') await worker(process.argv.slice(3));
else await main();

/** One racer process: `ready`, then per `go <round>` line one declaration through the real operation. */
async function worker([bundlePath, root, manifest, repository, index]) {
  const m = await import(pathToFileURL(bundlePath).href);
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const r = Number(line.split(' ')[1]);
    const ctx = m.createContext({ cwd: root, env: process.env, definition: manifest });
    try {
      await m.invoke(m.claimDeclare, ctx, {
        repository,
        agent_id: `racer-${r}-${index}`,
        pattern: patternsOf(r, Number(index)),
      });
      process.stdout.write('granted\n');
    } catch (err) {
      process.stdout.write(
        err?.details?.rule === 'claimed_by_another_agent' ? 'refused\n' : `error ${err.message}\n`,
      );
    }
  }
}

/** Tallies one backend's races. */
function tally() {
  const t = { races: 0, double_grants: 0, no_grant: 0, errors: 0, first_error: undefined };
  return {
    t,
    add(answers) {
      t.races++;
      const granted = answers.filter((a) => a === 'granted').length;
      if (granted > 1) t.double_grants++;
      if (granted === 0) t.no_grant++;
      const errs = answers.filter((a) => a !== 'granted' && a !== 'refused');
      t.errors += errs.length;
      t.first_error ??= errs[0];
    },
  };
}

/**
 * In-process races; `makeStores` gives fresh stores every 100 races, because every refused declaration appends an
 * event and an ever longer events document would time the event log instead of the races.
 */
async function inProcess(m, makeStores, races) {
  const { t, add } = tally();
  let stores;
  for (let r = 0; r < races; r++) {
    if (r % 100 === 0) stores = makeStores(r);
    const outcomes = await Promise.allSettled(
      Array.from({ length: RACERS }, (_, i) =>
        m.declareClaim(
          { store: stores[i % stores.length], retries: 1, now: () => new Date() },
          { repository: 'race/one', agent_id: `racer-${r}-${i}`, patterns: patternsOf(r, i) },
        ),
      ),
    );
    add(
      outcomes.map((o) =>
        o.status === 'fulfilled'
          ? 'granted'
          : o.reason?.details?.rule === 'claimed_by_another_agent'
            ? 'refused'
            : `error ${o.reason?.message}`,
      ),
    );
  }
  return t;
}

async function processes(bundlePath, demo, repository, races, env = {}) {
  const children = Array.from({ length: RACERS }, (_, i) =>
    spawn(
      process.execPath,
      [SELF, '--worker', bundlePath, demo.root, demo.manifestPath, repository, String(i)],
      {
        env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off', ...env },
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    ),
  );
  const lines = children.map((c) => createInterface({ input: c.stdout })[Symbol.asyncIterator]());
  for (const it of lines) if ((await it.next()).value !== 'ready') throw new Error('racer did not start');
  const { t, add } = tally();
  for (let r = 0; r < races; r++) {
    for (const c of children) c.stdin.write(`go ${r}\n`);
    add((await Promise.all(lines.map((it) => it.next()))).map((a) => String(a.value)));
  }
  for (const c of children) c.stdin.end();
  return t;
}

async function server(root, env = {}) {
  const child = spawn(process.execPath, [HUB_BIN, 'web', 'serve', '--root', root, '--port', '0'], {
    env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /url=(http:\/\/\S+?)\/?\s/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`hub web serve exited ${code}`)));
  });
  return { base, close: () => child.kill('SIGTERM') };
}

async function requests(base, repository, races) {
  const { t, add } = tally();
  for (let r = 0; r < races; r++) {
    const replies = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        fetch(`${base}/v3/ops/claims`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ repository, agent_id: `racer-${r}-${i}`, patterns: patternsOf(r, i) }),
        }).then(async (res) =>
          res.status === 200
            ? 'granted'
            : res.status === 409
              ? 'refused'
              : `error ${res.status} ${await res.text()}`,
        ),
      ),
    );
    add(replies);
  }
  return t;
}

async function main() {
  const { values } = parseArgs({
    options: {
      races: { type: 'string', default: QUICK ? '10' : '1000' },
      'process-races': { type: 'string', default: QUICK ? '1' : '100' },
      'http-races': { type: 'string', default: QUICK ? '2' : '300' },
      quick: { type: 'boolean' },
    },
  });
  await runBench('claims-race', async ({ cleanup }) => {
    const dir = cleanup(createTempDir('hub-bench-claims-race-'));
    const bundlePath = await bundle();
    const m = await import(pathToFileURL(bundlePath).href);
    const out = {};
    const timedRun = async (name, fn) => {
      const t0 = performance.now();
      out[name] = await fn();
      out[name].seconds = round((performance.now() - t0) / 1000, 2);
      progress(`${name}: ${JSON.stringify(out[name])}`);
    };
    const races = Number(values.races);
    await timedRun('memory_in_process', () => inProcess(m, () => [m.createMemoryStore()], races));
    const localStores = (r) => {
      const hubDir = join(dir, `local-${r}`, '.hub');
      mkdirSync(hubDir, { recursive: true });
      return Array.from({ length: 4 }, () => m.createLocalStore({ dir: hubDir }));
    };
    await timedRun('local_in_process_4_handles', () => inProcess(m, localStores, races));

    const demo = createDemo(join(dir, 'demo'));
    const pr = Number(values['process-races']);
    await timedRun('local_processes', () => processes(bundlePath, demo, 'platform/identity', pr));
    const local = await server(demo.root);
    const memory = await server(demo.root, { HUB_STATE_BACKEND: 'memory' });
    try {
      const hr = Number(values['http-races']);
      await timedRun('http_requests_local_store', () => requests(local.base, 'platform/gateway', hr));
      await timedRun('http_requests_memory_store', () => requests(memory.base, 'platform/gateway', hr));
      await timedRun('http_backend_processes', () =>
        processes(bundlePath, demo, 'storefront/web', Math.ceil(pr / 2), {
          HUB_STATE_BACKEND: 'http',
          HUB_STATE_URL: local.base,
        }),
      );
    } finally {
      local.close();
      memory.close();
    }
    rmSync(bundlePath, { force: true });
    const total = Object.values(out).reduce((s, t) => s + t.double_grants, 0);
    return { racers: RACERS, double_grants_total: total, backends: out };
  });
}
