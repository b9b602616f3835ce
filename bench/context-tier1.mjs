#!/usr/bin/env node
// Tier-1 context pack (map + one card per repository) on N real git repositories, against running `git status`
// over the same repositories in parallel with `xargs -P` (same concurrency as hub's card reader): as a CLI
// process per pack (on its own, and forwarding to a running `hub daemon`), as a tool call to a running
// `hub mcp serve` (the official SDK client), and the machine CPU each spends (from /proc/stat, where there is one).
// Usage: npm run build && node bench/context-tier1.mjs [--repos 200] [--runs 10] [--parallel 8] [--quick]
// (--quick: 3 repositories, 1 run, no warm-up.)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startBenchDaemon } from './lib/daemon.mjs';
import {
  createTempDir,
  HUB_BIN,
  hubCase,
  median,
  progress,
  QUICK,
  round,
  runBench,
  timeInterleaved,
  timeSpawn,
} from './lib/measure.mjs';
import { peakRss } from './lib/peak-rss.mjs';

const { values } = parseArgs({
  options: {
    repos: { type: 'string', default: QUICK ? '3' : '200' },
    runs: { type: 'string', default: QUICK ? '1' : '10' },
    parallel: { type: 'string', default: '8' },
    quick: { type: 'boolean' },
  },
});
const REPOS = Number(values.repos);
const RUNS = Number(values.runs);
const WARMUP = QUICK ? 0 : 2;
const GIT_ID = ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false'];

/** N repositories, each `git init` plus one commit of a few files (three git processes per repository). */
function createRepos(root, n) {
  const dirs = [];
  for (let i = 0; i < n; i++) {
    const name = `repo-${String(i).padStart(3, '0')}`;
    const dir = join(root, 'team', name);
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'README.md'), `# ${name}\n\nService number ${i}.\n`);
    writeFileSync(join(dir, 'package.json'), `{"name":"${name}","version":"1.0.0"}\n`);
    writeFileSync(join(dir, 'src', 'index.ts'), `export const id = ${i};\n`);
    execFileSync('git', ['init', '-q', '-b', 'main', dir]);
    execFileSync('git', ['-C', dir, 'add', '-A']);
    execFileSync('git', ['-C', dir, ...GIT_ID, 'commit', '-q', '-m', `Create ${name}`]);
    if (i % 10 === 0) writeFileSync(join(dir, 'wip.txt'), 'dirty\n');
    dirs.push(dir);
    if ((i + 1) % 50 === 0) progress(`created ${i + 1}/${n} repositories`);
  }
  return dirs;
}

/** Busy CPU time of the whole machine so far in ms (user, nice, system, irq, softirq), or undefined off Linux. */
function machineCpuMs() {
  if (!existsSync('/proc/stat')) return undefined;
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return (f[0] + f[1] + f[2] + f[5] + f[6]) * 10;
}

/** Median machine CPU of one run of a spawn case (10 ms ticks, so a median over several runs). */
function cpuOfSpawn(c, runs) {
  const xs = [];
  for (let i = 0; i < runs; i++) {
    const before = machineCpuMs();
    if (before === undefined) return null;
    timeSpawn(c.command, c.args, c);
    xs.push(machineCpuMs() - before);
  }
  return median(xs);
}

/**
 * A running `hub mcp serve` on the same workspace: the same pack as a `hub_context_pack` tool call, timed
 * against xargs in alternation (a warm server pays no process start and no cold code, only git and the pack).
 */
async function timeMcp(manifest, cache, xargs, runs) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [HUB_BIN, '-c', manifest, 'mcp', 'serve'],
    env: { ...process.env, HUB_CACHE_DIR: cache },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-context-tier1', version: '1' });
  await client.connect(transport);
  try {
    const call = async () => {
      const t0 = process.hrtime.bigint();
      const r = await client.callTool({
        name: 'hub_context_pack',
        arguments: { tier: 1, max_map_repos: REPOS },
      });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.isError) throw new Error(`hub_context_pack failed: ${JSON.stringify(r.content).slice(0, 400)}`);
      const cards = JSON.parse(r.content[0].text).cards.length;
      if (cards !== REPOS) throw new Error(`expected ${REPOS} cards over MCP, got ${cards}`);
      return ms;
    };
    for (let i = 0; i < WARMUP; i++) await call();
    const mcp = [];
    const base = [];
    for (let i = 0; i < runs; i++) {
      mcp.push(await call());
      base.push(timeSpawn(xargs.command, xargs.args, xargs).ms);
    }
    progress('mcp: done');
    return { mcp: median(mcp), xargs: median(base) };
  } finally {
    await client.close();
  }
}

await runBench('context-tier1', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-tier1-'));
  const cache = cleanup(createTempDir('hub-bench-cache-'));
  const t0 = process.hrtime.bigint();
  const dirs = createRepos(dir, REPOS);
  const createMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const lines = ['workspace:', '  name: tier1-bench', '  projects:', '    - name: team', '      repos:'];
  for (const d of dirs) {
    const name = d.slice(d.lastIndexOf('/') + 1);
    lines.push(`        - name: ${name}`, `          path: ./team/${name}`, '          tags: {lang: ts}');
  }
  const manifest = join(dir, '.hub.yml');
  writeFileSync(manifest, `${lines.join('\n')}\n`);
  const list = join(dir, 'repos.txt');
  writeFileSync(list, `${dirs.join('\n')}\n`);
  const pack = (commitCache, env = { HUB_DAEMON: 'off' }) =>
    hubCase(['-c', manifest, 'context', 'pack', '--tier', '1', '--max-map-repos', String(REPOS), '--json'], {
      HUB_CACHE_DIR: commitCache,
      ...env,
    });
  const warm = pack(cache);
  const sample = JSON.parse(timeSpawn(warm.command, warm.args, warm).stdout);
  if (sample.cards.length !== REPOS) throw new Error(`expected ${REPOS} cards, got ${sample.cards.length}`);
  // The same CLI command, run by a warm `hub daemon` of this build (the client pays Node's start only).
  const daemon = startBenchDaemon(dir, { HUB_CACHE_DIR: cache });
  const cases = {
    node: { command: process.execPath, args: ['-e', '0'] },
    xargs_git_status: {
      command: 'xargs',
      args: ['-a', list, '-P', values.parallel, '-I{}', 'git', '-C', '{}', 'status'],
    },
    // Commit facts cached by head id (user cache dir): one git process per repository.
    hub_tier1_warm: warm,
    // No cache: `git status` plus `git log -3` per repository.
    hub_tier1_cold: pack('off'),
    hub_tier1_daemon: pack(cache, daemon.env),
  };
  let t;
  let cpu;
  let served;
  try {
    t = timeInterleaved(cases, { runs: RUNS, warmup: WARMUP, label: 'tier1' });
    cpu = {
      node: cpuOfSpawn(cases.node, RUNS),
      xargs: cpuOfSpawn(cases.xargs_git_status, RUNS),
      hub: cpuOfSpawn(cases.hub_tier1_warm, RUNS),
      daemon: cpuOfSpawn(cases.hub_tier1_daemon, RUNS),
    };
    served = daemon.served();
  } finally {
    daemon.stop();
  }
  // Every daemon run (warm-up and CPU runs included) must have been served by it, not run by the client itself.
  if (served !== 2 * RUNS + WARMUP)
    throw new Error(`the daemon served ${served} packs, not ${2 * RUNS + WARMUP}`);
  const rss = peakRss({ warm: cases.hub_tier1_warm, cold: cases.hub_tier1_cold });
  const base = t.xargs_git_status.median_ms;
  const mcp = await timeMcp(manifest, cache, cases.xargs_git_status, RUNS);
  return {
    repos: REPOS,
    parallel: Number(values.parallel),
    create_repos_ms: round(createMs),
    node_e0_ms: t.node.median_ms,
    xargs_git_status_ms: base,
    hub_tier1_warm_ms: t.hub_tier1_warm.median_ms,
    hub_tier1_cold_ms: t.hub_tier1_cold.median_ms,
    ratio_warm: round(t.hub_tier1_warm.median_ms / base, 2),
    ratio_cold: round(t.hub_tier1_cold.median_ms / base, 2),
    peak_rss_mb: rss,
    hub_tier1_daemon_ms: t.hub_tier1_daemon.median_ms,
    ratio_daemon: round(t.hub_tier1_daemon.median_ms / base, 2),
    hub_tier1_mcp_ms: round(mcp.mcp),
    xargs_beside_mcp_ms: round(mcp.xargs),
    ratio_mcp: round(mcp.mcp / mcp.xargs, 2),
    target_ratio: 1.5,
    // Busy CPU of the whole machine per run (ms): git's share is about the xargs figure, the rest is node's.
    cpu_node_e0_ms: cpu.node,
    cpu_xargs_ms: cpu.xargs,
    cpu_hub_tier1_warm_ms: cpu.hub,
    cpu_hub_tier1_daemon_ms: cpu.daemon,
    pack_tokens: sample.token_estimate,
    tokens_per_repo: round(sample.token_estimate / REPOS, 1),
    dirty_cards: sample.cards.filter((c) => c.dirty).length,
    runs: RUNS,
    node: process.version,
  };
});
