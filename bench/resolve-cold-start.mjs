#!/usr/bin/env node
// Start-up cost of `hub component resolve` on a 1,000-repo workspace, against bare `node -e 0`; also the same
// command with a `hub daemon` running (the client then pays Node's start and one socket round trip); and `hub
// --version`. Wall times are interleaved medians; CPU times (user + system, read in each child) are medians too.
// Usage: npm run build && node bench/resolve-cold-start.mjs [--repos 1000] [--runs 30] [--quick]
// Quick mode (--quick): 30 repositories, one run.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startBenchDaemon } from './lib/daemon.mjs';
import { generateWorkspace } from './lib/generate.mjs';
import {
  cpuInterleaved,
  createTempDir,
  hubCase,
  progress,
  QUICK,
  round,
  runBench,
  timeInterleaved,
  timeSpawn,
} from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    repos: { type: 'string', default: QUICK ? '30' : '1000' },
    runs: { type: 'string', default: QUICK ? '1' : '30' },
    quick: { type: 'boolean' },
  },
});
const REPOS = Number(values.repos);
const RUNS = Number(values.runs);
const FILE = 'services/svc-3/src/x.ts';

await runBench('resolve-cold-start', ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-resolve-'));
  const cache = cleanup(createTempDir('hub-bench-cache-'));
  const ws = generateWorkspace(join(dir, 'ws'), { repos: REPOS, components: 10 });
  progress(
    `generated ${ws.manifestPath} (${ws.repos} repos, ${ws.components} components, ${ws.bytes} bytes)`,
  );
  const args = [
    '-c',
    ws.manifestPath,
    'component',
    'resolve',
    FILE,
    '--project',
    ws.sample.project,
    '--repo',
    ws.sample.repo,
    '--json',
  ];
  const warm = hubCase(args, { HUB_CACHE_DIR: cache, HUB_DAEMON: 'off' });
  const version = hubCase(['--version'], { HUB_DAEMON: 'off' });
  const cold = hubCase(args, { HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off' });

  // The first run fills the cache; its answer also proves the command does what is timed.
  const first = JSON.parse(timeSpawn(warm.command, warm.args, warm).stdout);
  const expected = `${ws.sample.project}/${ws.sample.repo}/svc-3`;
  if (first.id !== expected)
    throw new Error(`resolve answered ${JSON.stringify(first)}; expected id ${expected}`);

  const daemon = startBenchDaemon(dir, { HUB_CACHE_DIR: cache });
  const viaDaemon = hubCase(args, { HUB_CACHE_DIR: cache, ...daemon.env });
  let t;
  let served;
  try {
    t = timeInterleaved(
      {
        node: { command: process.execPath, args: ['-e', '0'] },
        warm,
        cold,
        daemon: viaDaemon,
        version,
      },
      { runs: RUNS, warmup: 3, label: 'resolve' },
    );
    served = daemon.served();
  } finally {
    daemon.stop();
  }
  if (served !== RUNS + 3) throw new Error(`the daemon served ${served} commands, not ${RUNS + 3}`);
  const cpu = cpuInterleaved(
    { node: { command: process.execPath, args: ['-e', '0'] }, warm, version },
    { runs: RUNS },
  );
  return {
    repos: ws.repos,
    components: ws.components,
    node_e0_ms: t.node.median_ms,
    resolve_warm_ms: t.warm.median_ms,
    resolve_cold_ms: t.cold.median_ms,
    ratio_warm: round(t.warm.median_ms / t.node.median_ms, 2),
    ratio_cold: round(t.cold.median_ms / t.node.median_ms, 2),
    resolve_daemon_ms: t.daemon.median_ms,
    ratio_daemon: round(t.daemon.median_ms / t.node.median_ms, 2),
    version_ms: t.version.median_ms,
    ratio_version: round(t.version.median_ms / t.node.median_ms, 2),
    cpu_node_e0_ms: cpu.node,
    cpu_resolve_warm_ms: cpu.warm,
    cpu_version_ms: cpu.version,
    ratio_warm_cpu: round(cpu.warm / cpu.node, 2),
    ratio_version_cpu: round(cpu.version / cpu.node, 2),
    target_ratio: 2,
    runs: RUNS,
    node: process.version,
  };
});
