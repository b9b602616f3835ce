#!/usr/bin/env node
// The landing train (`merge train`, what `campaign land` runs) of REPOS repositories (FILES files each, one branch
// changing one file) against the same integrations done one by one with plain git (per repository: worktree add
// --detach, `git merge --no-ff --no-edit`, `update-ref` with the old value, worktree remove), measured in the same
// run, interleaved with the order rotating, medians. hub in process (the domain call: heads read, checked-out
// guards, temporary worktrees, merges, the second checked-out guard, compare-and-swap moves), and the whole
// `hub merge train` CLI process for reference (node start-up, config and manifest load, one event recorded).
// Usage: node bench/campaign-land.mjs [--repos 10] [--files 200] [--runs 7] [--concurrency 4] [--quick]
// (--concurrency: repositories the in-process train integrates at once; 1 compares it one by one as plain git.)
// (--quick: 2 repositories, 10 files, 1 run, no warm-up.)
// (stdout: exactly one JSON object; progress on stderr). src is bundled with esbuild into a temp file.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createTempDir, HUB_BIN, median, progress, QUICK, ROOT, round, runBench } from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    repos: { type: 'string', default: QUICK ? '2' : '10' },
    files: { type: 'string', default: QUICK ? '10' : '200' },
    runs: { type: 'string', default: QUICK ? '1' : '7' },
    concurrency: { type: 'string', default: '4' },
    quick: { type: 'boolean' },
  },
});
const REPOS = Number(values.repos);
const FILES = Number(values.files);
const RUNS = Number(values.runs);
const CONCURRENCY = Number(values.concurrency);
const ID = ['-c', 'user.name=b', '-c', 'user.email=b@example.com'];
const BRANCH = 'campaign/bench';

const git = (cwd, args) => {
  const r = spawnSync('git', [...ID, ...args], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
};
const gitAsync = (cwd, args) =>
  new Promise((resolve, reject) =>
    execFile('git', [...ID, ...args], { cwd }, (err, out, stderr) =>
      err ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve(out.trim()),
    ),
  );

async function bundle() {
  const { build } = await import('esbuild');
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const entry = join(cache, `hub-bench-train-entry-${process.pid}.ts`);
  writeFileSync(
    entry,
    [
      `export { landTrain } from ${JSON.stringify(join(ROOT, 'src/train/index.ts'))};`,
      `export { mergeSettings } from ${JSON.stringify(join(ROOT, 'src/merge/index.ts'))};`,
    ].join('\n'),
  );
  const out = join(cache, `hub-bench-train-${process.pid}.mjs`);
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'error',
    banner: {
      js: "import { createRequire as __hubRequire } from 'node:module'; const require = __hubRequire(import.meta.url);",
    },
  });
  rmSync(entry, { force: true });
  return out;
}

/** A workspace of REPOS repositories of FILES files (~1 KB each), each with BRANCH changing one file. */
function workspace(dir) {
  const root = join(dir, 'ws');
  const repos = [];
  for (let r = 0; r < REPOS; r++) {
    const repo = join(root, 'p', `r${r}`);
    mkdirSync(repo, { recursive: true });
    git(repo, ['init', '-q', '-b', 'main']);
    for (let i = 0; i < FILES; i++) {
      const d = join(repo, `d${i % 20}`);
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, `f${i}.txt`), `${'x'.repeat(1000)} ${i}\n`);
    }
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', 'files']);
    git(repo, ['checkout', '-q', '-b', BRANCH]);
    writeFileSync(join(repo, 'd0', 'f0.txt'), `changed in r${r}\n`);
    git(repo, ['commit', '-q', '-am', 'the campaign change']);
    git(repo, ['checkout', '-q', 'main']);
    repos.push(repo);
  }
  const entries = repos.map((_, r) => `        - name: r${r}\n          path: ./p/r${r}\n`).join('');
  writeFileSync(
    join(root, '.hub.yml'),
    `workspace:\n  name: bench\n  projects:\n    - name: p\n      repos:\n${entries}`,
  );
  return { root, repos };
}

/** The same integrations with plain git, one repository after the other. */
async function plainGit(repos, tmp, into) {
  for (const [r, repo] of repos.entries()) {
    const wt = join(tmp, `plain-r${r}-${into}`);
    const old = await gitAsync(repo, ['rev-parse', `refs/heads/${into}`]);
    await gitAsync(repo, ['worktree', 'add', '--detach', '--quiet', '--', wt, old]);
    try {
      await gitAsync(wt, ['merge', '--no-ff', '--no-edit', '-m', `Merge ${BRANCH}`, BRANCH]);
      const head = await gitAsync(wt, ['rev-parse', 'HEAD']);
      await gitAsync(repo, ['update-ref', `refs/heads/${into}`, head, old]);
    } finally {
      await gitAsync(repo, ['worktree', 'remove', '--force', '--force', '--', wt]);
    }
  }
}

await runBench('campaign-land', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-train-'));
  const bundled = await bundle();
  const m = await import(pathToFileURL(bundled).href);
  rmSync(bundled, { force: true });
  const { root, repos } = workspace(dir);
  const deps = {
    env: { PATH: process.env.PATH },
    tmpRoot: tmpdir(),
    settings: m.mergeSettings(undefined),
    concurrency: CONCURRENCY,
  };
  const samples = { plain_git: [], hub_in_process: [], hub_cli: [] };
  const warmup = QUICK ? 0 : 1;
  // Each run lands on fresh targets made at main (untimed), so every side merges the same thing.
  const targets = (side, i) => {
    const into = `t-${side}-${i}`;
    for (const repo of repos) git(repo, ['branch', into, 'main']);
    return into;
  };
  const runners = {
    plain_git: (into) => plainGit(repos, dir, into),
    hub_in_process: async (into) => {
      const rows = repos.map((repo, r) => ({ repository: `p/r${r}`, root: repo, branch: BRANCH, into }));
      const report = await m.landTrain(deps, { rows });
      if (!report.landed || report.moved !== REPOS) throw new Error(`hub: ${report.message}`);
    },
    hub_cli: async (into) => {
      const cli = spawnSync(
        process.execPath,
        [
          HUB_BIN,
          '-c',
          join(root, '.hub.yml'),
          'merge',
          'train',
          ...repos.flatMap((_, r) => ['--repository', `p/r${r}`]),
          '--branch',
          BRANCH,
          '--into',
          into,
          '--json',
        ],
        { encoding: 'utf8', env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off' } },
      );
      if (cli.status !== 0) throw new Error(`hub merge train: ${cli.stderr}${cli.stdout}`);
    },
  };
  const sides = { plain_git: 'git', hub_in_process: 'hub', hub_cli: 'cli' };
  const names = Object.keys(runners);
  for (let i = 0; i < RUNS + warmup; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      const into = targets(sides[name], i);
      const start = performance.now();
      await runners[name](into);
      if (i >= warmup) samples[name].push(performance.now() - start);
    }
    progress(`runs: ${i + 1}/${RUNS + warmup}`);
  }
  // Same result every way: each repository's target holds the campaign change, the same tree.
  const last = RUNS + warmup - 1;
  for (const repo of repos) {
    const trees = ['git', 'hub', 'cli'].map((s) => git(repo, ['rev-parse', `t-${s}-${last}^{tree}`]));
    if (new Set(trees).size !== 1) throw new Error(`trees differ in ${repo}: ${trees.join(', ')}`);
    if (trees[0] === git(repo, ['rev-parse', 'main^{tree}'])) throw new Error(`nothing landed in ${repo}`);
  }
  const stats = Object.fromEntries(
    Object.entries(samples).map(([k, xs]) => [
      k,
      { median_ms: round(median(xs)), min_ms: round(Math.min(...xs)), max_ms: round(Math.max(...xs)) },
    ]),
  );
  return {
    repos: REPOS,
    files: FILES,
    runs: RUNS,
    concurrency: CONCURRENCY,
    ...stats,
    ratio_in_process: round(stats.hub_in_process.median_ms / stats.plain_git.median_ms, 2),
    ratio_cli: round(stats.hub_cli.median_ms / stats.plain_git.median_ms, 2),
    goal_ratio: 1.3,
    node: process.version,
  };
});
