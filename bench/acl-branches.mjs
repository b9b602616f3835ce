#!/usr/bin/env node
// Branch allocation and leases: the built CLI's `branch allocate` (record + git branch) against plain `git branch`,
// `lease acquire` and `agent registry`, and races of 8 concurrent `branch allocate` processes on one name (the count
// of rounds with other than exactly one winner: goal 0).
// Usage: node bench/acl-branches.mjs [--runs 15] [--races 20] [--quick]   (--quick: 1 run, 1 race)
// (stdout: exactly one JSON object; progress on stderr).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDemo } from '../examples/demo-workspace.mjs';
import {
  createTempDir,
  HUB_BIN,
  median,
  progress,
  QUICK,
  round,
  runBench,
  timeSpawn,
} from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: QUICK ? '1' : '15' },
    races: { type: 'string', default: QUICK ? '1' : '20' },
    quick: { type: 'boolean' },
  },
});
const RUNS = Number(values.runs);
const RACES = Number(values.races);
const RACERS = 8;

await runBench('acl-branches', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-acl-'));
  const { root, manifestPath } = createDemo(join(dir, 'demo'));
  const repo = join(root, 'platform', 'identity');
  const env = { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off', HUB_AGENT_MODE: 'true' };
  const hub = (args) =>
    timeSpawn(process.execPath, [HUB_BIN, '-c', manifestPath, ...args], { env, cwd: root });
  const R = 'platform/identity';

  const samples = { git_branch: [], branch_allocate: [], lease_acquire: [], agent_registry: [] };
  for (let i = 0; i < RUNS; i++) {
    samples.git_branch.push(
      timeSpawn('git', ['branch', '--no-track', `plain/${i}`, 'HEAD'], { cwd: repo }).ms,
    );
    samples.branch_allocate.push(
      hub(['branch', 'allocate', '--repository', R, '--agent-id', 'b', '--task-id', `a${i}`]).ms,
    );
    samples.lease_acquire.push(
      hub(['lease', 'acquire', '--repository', R, '--agent-id', 'b', '--task-id', `l${i}`]).ms,
    );
    samples.agent_registry.push(hub(['agent', 'registry']).ms);
    if ((i + 1) % 5 === 0) progress(`timings ${i + 1}/${RUNS}`);
  }
  const base = timeSpawn(process.execPath, [HUB_BIN, 'version'], { env }).ms;

  const once = (args) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [HUB_BIN, '-c', manifestPath, ...args], { env, stdio: 'ignore' });
      child.on('close', (code) => resolve(code));
    });
  let bad = 0;
  let refusedTotal = 0;
  for (let r = 0; r < RACES; r++) {
    const codes = await Promise.all(
      Array.from({ length: RACERS }, (_, i) =>
        once([
          'branch',
          'allocate',
          '--repository',
          R,
          '--agent-id',
          `r${i}`,
          '--task-id',
          `race${r}-${i}`,
          '--name',
          `agent/race-${r}`,
        ]),
      ),
    );
    const wins = codes.filter((c) => c === 0).length;
    refusedTotal += codes.filter((c) => c === 1).length;
    if (wins !== 1) bad++;
    if ((r + 1) % 5 === 0) progress(`races ${r + 1}/${RACES}`);
  }

  const med = Object.fromEntries(
    Object.entries(samples).map(([k, xs]) => [`${k}_median_ms`, round(median(xs))]),
  );
  return {
    runs: RUNS,
    ...med,
    hub_version_ms: round(base),
    // Start-up and the workspace load dominate a CLI call: compare with a read of the same process shape.
    allocate_minus_registry_ms: round(med.branch_allocate_median_ms - med.agent_registry_median_ms),
    races: RACES,
    racers: RACERS,
    rounds_without_exactly_one_winner: bad,
    refused: refusedTotal,
    node: process.version,
  };
});
