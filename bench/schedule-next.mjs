#!/usr/bin/env node
// `schedule next` over 10,000 task nodes (4 graphs of 2,500 across the demo's repositories, each node depending on
// up to 3 earlier nodes of its graph, about a third completed, so a few thousand are ready), against the floor of
// reading and parsing the task documents alone, in the same run: in process on the local backend (a dry run that
// only ranks, and a real one that also starts the pick for the agent and records the decision), and through the
// CLI (`schedule next --dry-run` against `task ready --limit 1`, which reads and parses the same documents, and
// against a bare `node` that reads and JSON-parses them). Plus the cycle check of a 10,000-node graph (as stored,
// and a 10,000-deep chain that would overflow a recursive walk).
// Usage: node bench/schedule-next.mjs [--nodes 10000] [--graphs 4] [--runs 7] [--quick]
// (--quick: 40 nodes, 1 run, no warm-up.)
// (stdout: exactly one JSON object; progress on stderr). src/ is bundled with esbuild into a temp file.
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDemo } from '../examples/demo-workspace.mjs';
import { importSrc } from './lib/bundle.mjs';
import {
  createTempDir,
  hubCase,
  median,
  progress,
  QUICK,
  round,
  runBench,
  timeInterleaved,
} from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: QUICK ? '40' : '10000' },
    graphs: { type: 'string', default: '4' },
    runs: { type: 'string', default: QUICK ? '1' : '7' },
    quick: { type: 'boolean' },
  },
});
const N = Number(values.nodes);
const G = Number(values.graphs);
const RUNS = Number(values.runs);
const WARMUP = QUICK ? 0 : 2;
const REPOS = [
  'platform/identity',
  'platform/gateway',
  'platform/cloud-infra',
  'storefront/web',
  'storefront/catalog',
];

async function bundle(dir) {
  return importSrc(join(dir, 'tasks.mjs'), [
    "export { checkAcyclic, checkGraphLimits, checkKnownDependencies, findCycle, refreshReady, TaskGraphDocSchema } from './src/taskgraph/index.ts';",
    "export { scheduleNext } from './src/schedule/index.ts';",
    "export { createLocalStore } from './src/state/index.ts';",
  ]);
}

/** A small deterministic generator (mulberry32), so every run builds the same graphs. */
function rng(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One stored graph of `n` nodes: dependencies on up to 3 earlier nodes, a third completed where allowed. */
function graphDoc(tasks, id, n, seed) {
  const r = rng(seed);
  const at = new Date().toISOString();
  const nodes = [];
  for (let i = 0; i < n; i++) {
    const deps = new Set();
    const k = i === 0 ? 0 : Math.floor(r() * 4);
    for (let j = 0; j < k; j++) deps.add(`n${Math.floor(r() * i)}`);
    const depends_on = [...deps];
    const canComplete = depends_on.every((d) => nodes[Number(d.slice(1))].status === 'completed');
    nodes.push({
      node_id: `n${i}`,
      graph_id: id,
      title: `Task ${i} of ${id}: change the handler and its tests`,
      depends_on,
      status: canComplete && r() < 0.35 ? 'completed' : 'pending',
      repository: REPOS[Math.floor(r() * REPOS.length)],
      priority: Math.floor(r() * 5),
      estimated_tokens: 500 + Math.floor(r() * 8000),
      created_at: at,
      updated_at: at,
    });
  }
  tasks.refreshReady(nodes, at);
  return {
    graph: {
      graph_id: id,
      title: `Graph ${id}`,
      acceptance: [],
      status: 'active',
      created_at: at,
      updated_at: at,
    },
    nodes,
  };
}

/** Median ms of `fn` over RUNS runs after WARMUP untimed ones. */
async function timed(fn, runs = RUNS) {
  const r = await interleaved({ fn }, runs);
  return r.fn;
}

/**
 * Median ms of each function, timed in rounds (each function once per round, after WARMUP untimed rounds), so drift in
 * the machine's load (it is shared) touches every function alike.
 */
async function interleaved(fns, runs = RUNS) {
  const xs = Object.fromEntries(Object.keys(fns).map((k) => [k, []]));
  for (let i = 0; i < runs + WARMUP; i++)
    for (const [name, fn] of Object.entries(fns)) {
      const t = process.hrtime.bigint();
      await fn();
      if (i >= WARMUP) xs[name].push(Number(process.hrtime.bigint() - t) / 1e6);
    }
  return Object.fromEntries(Object.entries(xs).map(([k, v]) => [k, median(v)]));
}

await runBench('schedule-next', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-schedule-'));
  const tasks = await bundle(dir);
  const demo = createDemo(join(dir, 'demo'));
  const hubDir = join(demo.root, '.hub');
  mkdirSync(join(hubDir, 'tasks'), { recursive: true });
  const ids = Array.from({ length: G }, (_, i) => `bench-${i}`);
  let ready = 0;
  let bytes = 0;
  for (const [i, id] of ids.entries()) {
    const doc = graphDoc(tasks, id, Math.floor(N / G), 42 + i);
    ready += doc.nodes.filter((n) => n.status === 'ready').length;
    const file = join(hubDir, 'tasks', `${id}.json`);
    writeFileSync(file, JSON.stringify(doc));
    bytes += statSync(file).size;
  }
  progress(`${N} nodes in ${G} graphs (${bytes} bytes), ${ready} ready`);

  const store = tasks.createLocalStore({ dir: hubDir, root: demo.root });
  const deps = { store, retries: 1, now: () => new Date() };
  const readParse = async () => {
    for (const id of ids) tasks.TaskGraphDocSchema.parse((await store.read(`tasks/${id}`)).value);
  };
  const readJson = async () => {
    for (const id of ids) await store.read(`tasks/${id}`);
  };
  let agent = 0;
  const t = await interleaved({
    read_json: readJson,
    read_parse: readParse,
    dry: () => tasks.scheduleNext(deps, { agent_id: 'bench', dry_run: true }, []),
    start: () => tasks.scheduleNext(deps, { agent_id: `bench-${agent++}` }, []),
  });
  const { read_json: read_json_ms, read_parse: read_parse_ms, dry: dry_ms, start: start_ms } = t;
  progress(
    `in process: read ${read_json_ms} ms, read+parse ${read_parse_ms} ms, next dry ${dry_ms} ms, start ${start_ms} ms`,
  );

  // The cycle check of one 10,000-node graph as stored, and of a chain 10,000 deep.
  const big = graphDoc(tasks, 'one', N, 7).nodes;
  const chain = Array.from({ length: N }, (_, i) => ({
    node_id: `c${i}`,
    depends_on: i ? [`c${i - 1}`] : [],
  })).reverse();
  const cycle_ms = await timed(() => tasks.findCycle(big));
  const checks_ms = await timed(() => {
    tasks.checkGraphLimits(big, 'one');
    tasks.checkKnownDependencies(big, 'one');
    tasks.checkAcyclic(big);
  });
  const chain_ms = await timed(() => tasks.findCycle(chain));

  const env = { HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off' };
  const c = ['-c', demo.manifestPath];
  const files = readdirSync(join(hubDir, 'tasks')).map((f) => join(hubDir, 'tasks', f));
  const cli = timeInterleaved(
    {
      node_parse: {
        command: process.execPath,
        args: [
          '-e',
          `const fs=require('fs');for(const f of ${JSON.stringify(files)})JSON.parse(fs.readFileSync(f,'utf8'))`,
        ],
        env: process.env,
      },
      ready: hubCase([...c, 'task', 'ready', '--limit', '1', '--json'], env),
      next: hubCase([...c, 'schedule', 'next', '--agent-id', 'cli', '--dry-run', '--json'], env),
    },
    { runs: RUNS, warmup: QUICK ? 0 : 1, label: 'cli' },
  );
  return {
    nodes: N,
    graphs: G,
    ready,
    document_bytes: bytes,
    runs: RUNS,
    in_process: {
      read_json_ms: round(read_json_ms),
      read_parse_ms: round(read_parse_ms),
      next_dry_run_ms: round(dry_ms),
      next_start_ms: round(start_ms),
      dry_run_ratio: round(dry_ms / read_parse_ms, 2),
      start_ratio: round(start_ms / read_parse_ms, 2),
      dry_run_vs_json_ratio: round(dry_ms / read_json_ms, 2),
    },
    cycle_check: {
      nodes: N,
      find_cycle_ms: round(cycle_ms, 2),
      all_write_checks_ms: round(checks_ms, 2),
      chain_depth: N,
      chain_find_cycle_ms: round(chain_ms, 2),
    },
    cli: {
      node_read_parse_ms: cli.node_parse.median_ms,
      task_ready_ms: cli.ready.median_ms,
      schedule_next_dry_run_ms: cli.next.median_ms,
      ratio_vs_task_ready: round(cli.next.median_ms / cli.ready.median_ms, 2),
      ratio_vs_node_parse: round(cli.next.median_ms / cli.node_parse.median_ms, 2),
    },
  };
});
