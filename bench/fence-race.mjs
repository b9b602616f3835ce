#!/usr/bin/env node
// Fenced leases under races: in every race agent A holds a task's lease, stalls past its TTL, and then lands its
// work (the fenced landing merge integrate, promote and rollup use) while agent B takes the task over at the same
// moment (random offsets either way). A landing is stale when B's newer lease was granted before A's ref move
// ended (the goal is 0 stale landings); every race must end with A landed before B's grant or A refused
// (stale_fence). Backends: memory (atomic update), memory as compare-and-swap only (as http and dynamodb
// clients run), local with four store handles of one .hub/, and the http backend against a `hub web serve`.
// A control runs the same races with a check-then-land that takes no pin (what a lock without a fence gives):
// it should show stale landings, so the bench can see them.
// Usage: node bench/fence-race.mjs [--races 1000] [--http-races 300] [--only memory,cas,local,http,control] [--quick]
// (stdout: exactly one JSON object; progress on stderr). src/ is bundled with esbuild into a temp file.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDemo } from '../examples/demo-workspace.mjs';
import { importSrc } from './lib/bundle.mjs';
import { createTempDir, HUB_BIN, progress, QUICK, ROOT, round, runBench } from './lib/measure.mjs';

const REPO = { id: 'race/fence', key: 'race~fence', root: undefined, self: false };
const pause = (ms) => new Promise((r) => setTimeout(r, ms));

/** One race on `stores` (A's handle and B's differ where there are several); returns its outcome. */
async function race(m, stores, r, { pinned }) {
  let now = new Date(Date.UTC(2026, 0, 1) + r * 3_600_000);
  const deps = (i) => ({ store: stores[i % stores.length], retries: 100, now: () => now });
  const task = `T-${r}`;
  const a = await m.acquireLease(deps(0), {
    repository: REPO,
    agent_id: 'agent-a',
    task_id: task,
    ttl: '1m',
  });
  now = new Date(now.getTime() + 2 * 60_000); // A stalled past its TTL.
  let seq = 0;
  let bGranted = Number.POSITIVE_INFINITY;
  let landEnd;
  const land = async () => {
    await pause(Math.random() * 3); // the ref move takes a moment
    landEnd = ++seq;
  };
  const claim = { task_id: task, fence: a.lease.fence, by: 'agent-a', agent_id: 'agent-a', op: 'bench' };
  const landing = (async () => {
    await pause(Math.random() * 3);
    try {
      if (pinned) await m.landFenced(deps(0), REPO, claim, land);
      else {
        // Control: judge the fence, then land, with nothing holding a newer grant back in between.
        if (await m.staleFence(deps(0), REPO, claim)) throw { details: { rule: 'stale_fence' } };
        await land();
      }
      return 'landed';
    } catch (err) {
      if (err?.details?.rule === 'stale_fence') return 'refused';
      throw err;
    }
  })();
  const takeover = (async () => {
    await pause(Math.random() * 3);
    const b = await m.acquireLease(deps(1), {
      repository: REPO,
      agent_id: 'agent-b',
      task_id: task,
      ttl: '1m',
    });
    bGranted = ++seq;
    if (!(b.lease.fence > a.lease.fence))
      throw new Error(`fence did not grow: ${a.lease.fence} -> ${b.lease.fence}`);
  })();
  const [outcome] = await Promise.all([landing, takeover]);
  return outcome === 'landed' ? (bGranted < landEnd ? 'stale' : 'landed') : 'refused';
}

async function races(m, makeStores, count, opts = { pinned: true }) {
  const t = { races: count, landed_first: 0, refused_stale: 0, stale_landings: 0 };
  let stores;
  for (let r = 0; r < count; r++) {
    // Fresh stores every 100 races: each grant appends events, and a longer log would time the log.
    if (r % 100 === 0) stores = await makeStores(r);
    const o = await race(m, stores, r, opts);
    if (o === 'stale') t.stale_landings++;
    else if (o === 'landed') t.landed_first++;
    else t.refused_stale++;
  }
  return t;
}

async function server(root) {
  const child = spawn(process.execPath, [HUB_BIN, 'web', 'serve', '--root', root, '--port', '0'], {
    env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const found = /url=(http:\/\/\S+?)\/?\s/.exec(out);
      if (found) resolve(found[1]);
    });
    child.on('exit', (code) => reject(new Error(`hub web serve exited ${code}`)));
  });
  return { base, close: () => child.kill('SIGTERM') };
}

async function main() {
  const { values } = parseArgs({
    options: {
      races: { type: 'string', default: QUICK ? '20' : '1000' },
      'http-races': { type: 'string', default: QUICK ? '10' : '300' },
      only: { type: 'string', default: 'memory,cas,local,http,control' },
      quick: { type: 'boolean' },
    },
  });
  const only = new Set(values.only.split(','));
  await runBench('fence-race', async ({ cleanup }) => {
    const dir = cleanup(createTempDir('hub-bench-fence-race-'));
    const bundlePath = join(ROOT, 'node_modules', '.cache', `hub-bench-fence-race-${process.pid}.mjs`);
    const m = await importSrc(bundlePath, [
      "export { acquireLease, landFenced, staleFence } from './src/acl/index.ts';",
      "export { createHttpStore, createLocalStore, createMemoryStore } from './src/state/index.ts';",
    ]);
    const out = {};
    const timed = async (name, fn) => {
      const t0 = performance.now();
      out[name] = await fn();
      out[name].seconds = round((performance.now() - t0) / 1000, 2);
      progress(`${name}: ${JSON.stringify(out[name])}`);
    };
    const n = Number(values.races);
    if (only.has('memory')) await timed('memory', () => races(m, () => [m.createMemoryStore()], n));
    if (only.has('cas'))
      await timed('memory_cas_only', () =>
        races(
          m,
          () => {
            const s = m.createMemoryStore();
            return [{ backend: 'memory-cas', read: s.read, write: s.write, append: s.append, list: s.list }];
          },
          n,
        ),
      );
    if (only.has('local'))
      await timed('local_4_handles', () =>
        races(
          m,
          (r) => {
            const hubDir = join(dir, `local-${r}`, '.hub');
            mkdirSync(hubDir, { recursive: true });
            return Array.from({ length: 4 }, () => m.createLocalStore({ dir: hubDir }));
          },
          n,
        ),
      );
    if (only.has('http')) {
      const demo = createDemo(join(dir, 'demo'));
      const srv = await server(demo.root);
      try {
        const store = () => m.createHttpStore({ url: srv.base, timeoutMs: 20_000 });
        await timed('http_backend', () => races(m, () => [store(), store()], Number(values['http-races'])));
      } finally {
        srv.close();
      }
    }
    if (only.has('control'))
      await timed('control_unpinned_memory', () =>
        races(m, () => [m.createMemoryStore()], n, { pinned: false }),
      );
    rmSync(bundlePath, { force: true });
    const fenced = Object.entries(out).filter(([k]) => !k.startsWith('control'));
    return {
      stale_landings_total: fenced.reduce((s, [, t]) => s + t.stale_landings, 0),
      races_total: fenced.reduce((s, [, t]) => s + t.races, 0),
      backends: out,
    };
  });
}

await main();
