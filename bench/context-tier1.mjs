#!/usr/bin/env node
// Tier-1 context pack (map + one card per repository) on N real git repositories, against running `git status`
// over the same repositories in parallel with `xargs -P` (same concurrency as hub's card reader).
// Usage: npm run build && node bench/context-tier1.mjs [--repos 200] [--runs 10] [--parallel 8]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  createTempDir,
  hubCase,
  progress,
  round,
  runBench,
  timeInterleaved,
  timeSpawn,
} from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    repos: { type: 'string', default: '200' },
    runs: { type: 'string', default: '10' },
    parallel: { type: 'string', default: '8' },
  },
});
const REPOS = Number(values.repos);
const RUNS = Number(values.runs);
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

await runBench('context-tier1', ({ cleanup }) => {
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
  const pack = (commitCache) =>
    hubCase(['-c', manifest, 'context', 'pack', '--tier', '1', '--max-map-repos', String(REPOS), '--json'], {
      HUB_CACHE_DIR: commitCache,
    });
  const cases = {
    node: { command: process.execPath, args: ['-e', '0'] },
    xargs_git_status: {
      command: 'xargs',
      args: ['-a', list, '-P', values.parallel, '-I{}', 'git', '-C', '{}', 'status'],
    },
    // Commit facts cached by head id (user cache dir): one git process per repository.
    hub_tier1_warm: pack(cache),
    // No cache: `git status` plus `git log -3` per repository.
    hub_tier1_cold: pack('off'),
  };
  const sample = JSON.parse(
    timeSpawn(cases.hub_tier1_warm.command, cases.hub_tier1_warm.args, cases.hub_tier1_warm).stdout,
  );
  if (sample.cards.length !== REPOS) throw new Error(`expected ${REPOS} cards, got ${sample.cards.length}`);
  const t = timeInterleaved(cases, { runs: RUNS, warmup: 2, label: 'tier1' });
  const base = t.xargs_git_status.median_ms;
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
    target_ratio: 1.5,
    pack_tokens: sample.token_estimate,
    tokens_per_repo: round(sample.token_estimate / REPOS, 1),
    dirty_cards: sample.cards.filter((c) => c.dirty).length,
    runs: RUNS,
    node: process.version,
  };
});
