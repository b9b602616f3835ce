#!/usr/bin/env node
// Enriched terrain (`hub workspace terrain`) of N generated local git repositories against `git status
// --porcelain=v2 --branch` over the same repositories run by `xargs -P` with the same parallelism, interleaved in
// the same run: as a CLI process (activity cache warm, and no cache at all), through a running `hub daemon`, and
// as `hub_workspace_terrain` calls to a running `hub mcp serve`; `--detail manifest` and `node -e 0` for scale.
// Usage: npm run build && node bench/terrain.mjs [--repos 1000] [--runs 7] [--parallel <cores*2>] [--quick]
// (--quick: 8 repositories, 1 run, no warm-up.) peak_rss_mb: one more untimed run of each CLI case, no daemon.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
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
    repos: { type: 'string', default: QUICK ? '8' : '1000' },
    runs: { type: 'string', default: QUICK ? '1' : '7' },
    quick: { type: 'boolean' },
    parallel: { type: 'string', default: String(Math.max(2, availableParallelism() * 2)) },
  },
});
const REPOS = Number(values.repos);
const RUNS = Number(values.runs);
const PARALLEL = Number(values.parallel);
const WARMUP = QUICK ? 0 : 2;
const GIT_ID = ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false'];
const git = (dir, args) => execFileSync('git', ['-C', dir, ...GIT_ID, ...args], { stdio: 'ignore' });

const WORKFLOW =
  'name: CI\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n';

/**
 * Three template checkouts (GitHub Actions and AGENTS.md; GitLab CI; neither), each a clone of a bare origin so
 * that copies track origin/main. Each repository is a copy of one with a commit of its own (distinct heads, one
 * ahead of origin/main); every tenth is left dirty, every seventh moves to a feature branch.
 */
function createRepos(root, n) {
  const templates = [0, 1, 2].map((k) => {
    const src = join(root, 'tpl', `src-${k}`);
    mkdirSync(join(src, 'src'), { recursive: true });
    writeFileSync(join(src, 'README.md'), `# template ${k}\n`);
    writeFileSync(join(src, 'package.json'), `{"name":"tpl-${k}","version":"1.0.0"}\n`);
    writeFileSync(join(src, 'src', 'index.ts'), 'export const id = 1;\n');
    if (k === 0) {
      mkdirSync(join(src, '.github', 'workflows'), { recursive: true });
      writeFileSync(join(src, '.github', 'workflows', 'ci.yml'), WORKFLOW);
      writeFileSync(join(src, 'AGENTS.md'), '# Agents\n\nRun npm test.\n');
    }
    if (k === 1) writeFileSync(join(src, '.gitlab-ci.yml'), 'test:\n  script: [npm test]\n');
    execFileSync('git', ['init', '-q', '-b', 'main', src]);
    git(src, ['add', '-A']);
    git(src, ['commit', '-q', '-m', `template ${k}`]);
    const bare = join(root, 'tpl', `origin-${k}.git`);
    execFileSync('git', ['clone', '-q', '--bare', src, bare]);
    const tpl = join(root, 'tpl', `clone-${k}`);
    execFileSync('git', ['clone', '-q', bare, tpl]);
    return tpl;
  });
  const dirs = [];
  for (let i = 0; i < n; i++) {
    const name = `repo-${String(i).padStart(4, '0')}`;
    const dir = join(root, `team-${Math.floor(i / 100)}`, name);
    cpSync(templates[i % 3], dir, { recursive: true });
    git(dir, ['commit', '-q', '--allow-empty', '-m', `Create ${name}`]);
    if (i % 7 === 0) git(dir, ['checkout', '-q', '-b', `feature/f-${i}`]);
    if (i % 10 === 0) writeFileSync(join(dir, 'wip.txt'), 'dirty\n');
    dirs.push(dir);
    if ((i + 1) % 100 === 0) progress(`created ${i + 1}/${n} repositories`);
  }
  return dirs;
}

/** A running `hub mcp serve`: the same terrain as tool calls, timed against xargs in alternation. */
async function timeMcp(manifest, cache, xargs, runs) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [HUB_BIN, '-c', manifest, 'mcp', 'serve'],
    env: { ...process.env, HUB_CACHE_DIR: cache },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench-terrain', version: '1' });
  await client.connect(transport);
  try {
    const call = async () => {
      const t0 = process.hrtime.bigint();
      const r = await client.callTool({
        name: 'hub_workspace_terrain',
        arguments: { limit: REPOS, parallel: PARALLEL },
      });
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.isError)
        throw new Error(`hub_workspace_terrain failed: ${JSON.stringify(r.content).slice(0, 400)}`);
      const n = JSON.parse(r.content[0].text).node_count;
      if (n !== REPOS) throw new Error(`expected ${REPOS} nodes over MCP, got ${n}`);
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

await runBench('terrain', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-terrain-'));
  const cache = cleanup(createTempDir('hub-bench-terrain-cache-'));
  const t0 = process.hrtime.bigint();
  const dirs = createRepos(dir, REPOS);
  const createMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const lines = ['workspace:', '  name: terrain-bench', '  projects:'];
  const byTeam = new Map();
  for (const d of dirs) {
    const [team, name] = d.split('/').slice(-2);
    if (!byTeam.has(team)) byTeam.set(team, []);
    byTeam.get(team).push(name);
  }
  for (const [team, names] of byTeam) {
    lines.push(`    - name: ${team}`, `      tags: {team: ${team}}`, '      repos:');
    for (const name of names) lines.push(`        - name: ${name}`, `          path: ./${team}/${name}`);
  }
  const manifest = join(dir, '.hub.yml');
  writeFileSync(manifest, `${lines.join('\n')}\n`);
  const list = join(dir, 'repos.txt');
  writeFileSync(list, `${dirs.join('\n')}\n`);
  const terrain = (env, extra = []) =>
    hubCase(
      [
        '-c',
        manifest,
        'workspace',
        'terrain',
        '--limit',
        String(REPOS),
        '--parallel',
        String(PARALLEL),
        ...extra,
        '--json',
      ],
      { HUB_DAEMON: 'off', ...env },
    );
  const warm = terrain({ HUB_CACHE_DIR: cache });
  // Checked before timing: every repository listed with its git state; the planted states are all seen.
  const sample = JSON.parse(timeSpawn(warm.command, warm.args, warm).stdout);
  const nodes = sample.nodes;
  if (nodes.length !== REPOS) throw new Error(`expected ${REPOS} nodes, got ${nodes.length}`);
  const errors = nodes.filter((x) => !x.git || x.git.error).length;
  const dirty = nodes.filter((x) => x.git?.dirty).length;
  const feature = nodes.filter((x) => x.git?.branch_kind === 'feature').length;
  const ahead = nodes.filter((x) => x.git?.ahead === 1).length;
  if (errors || dirty !== Math.ceil(REPOS / 10) || feature !== Math.ceil(REPOS / 7))
    throw new Error(`unexpected terrain: ${errors} errors, ${dirty} dirty, ${feature} on feature branches`);
  const daemon = startBenchDaemon(dir, { HUB_CACHE_DIR: cache });
  const cases = {
    node: { command: process.execPath, args: ['-e', '0'] },
    xargs_git_status: {
      command: 'xargs',
      args: [
        '-a',
        list,
        '-P',
        String(PARALLEL),
        '-I{}',
        'git',
        '-C',
        '{}',
        'status',
        '--porcelain=v2',
        '--branch',
      ],
    },
    // Activity cached by head commit (user cache dir): one git status per repository.
    hub_terrain_warm: warm,
    // No cache: git status and git log per repository (both batched), every run.
    hub_terrain_cold: terrain({ HUB_CACHE_DIR: 'off' }),
    hub_terrain_daemon: terrain({ HUB_CACHE_DIR: cache, ...daemon.env }),
    hub_terrain_manifest: terrain({ HUB_CACHE_DIR: cache }, ['--detail', 'manifest']),
  };
  let t;
  let served;
  try {
    t = timeInterleaved(cases, { runs: RUNS, warmup: WARMUP, label: 'terrain' });
    served = daemon.served();
  } finally {
    daemon.stop();
  }
  if (served !== RUNS + WARMUP) throw new Error(`the daemon served ${served} terrains, not ${RUNS + WARMUP}`);
  const rss = peakRss({
    warm: cases.hub_terrain_warm,
    cold: cases.hub_terrain_cold,
    manifest: cases.hub_terrain_manifest,
  });
  const base = t.xargs_git_status.median_ms;
  const mcp = await timeMcp(manifest, cache, cases.xargs_git_status, RUNS);
  return {
    repos: REPOS,
    parallel: PARALLEL,
    create_repos_ms: round(createMs),
    node_e0_ms: t.node.median_ms,
    xargs_git_status_ms: base,
    hub_terrain_warm_ms: t.hub_terrain_warm.median_ms,
    hub_terrain_cold_ms: t.hub_terrain_cold.median_ms,
    hub_terrain_daemon_ms: t.hub_terrain_daemon.median_ms,
    hub_terrain_manifest_ms: t.hub_terrain_manifest.median_ms,
    ratio_warm: round(t.hub_terrain_warm.median_ms / base, 2),
    ratio_cold: round(t.hub_terrain_cold.median_ms / base, 2),
    ratio_daemon: round(t.hub_terrain_daemon.median_ms / base, 2),
    peak_rss_mb: rss,
    hub_terrain_mcp_ms: round(mcp.mcp),
    xargs_beside_mcp_ms: round(mcp.xargs),
    ratio_mcp: round(mcp.mcp / mcp.xargs, 2),
    target_ratio: 1.3,
    output_bytes: Buffer.byteLength(JSON.stringify(sample)),
    dirty,
    feature_branches: feature,
    ahead_of_origin: ahead,
    runs: RUNS,
    node: process.version,
  };
});
