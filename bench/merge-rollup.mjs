#!/usr/bin/env node
// `merge rollup` of BRANCHES branches (each touching its own file, FILES files in the repository) against the same
// merges done with plain git in a temporary worktree (worktree add --detach, one `git merge --no-ff --no-edit` per
// branch, update-ref, worktree remove), measured in the same run, interleaved, medians. hub in process (the
// domain call with the local state backend: checks, checked-out guard, merges, CAS ref update, event), and the whole
// `hub merge rollup` CLI process for reference (node start-up included).
// Usage: node bench/merge-rollup.mjs [--files 400] [--branches 20] [--runs 9] [--quick]
// (--quick: 10 files, 2 branches, 1 run, no warm-up.)
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
    files: { type: 'string', default: QUICK ? '10' : '400' },
    branches: { type: 'string', default: QUICK ? '2' : '20' },
    runs: { type: 'string', default: QUICK ? '1' : '9' },
    quick: { type: 'boolean' },
  },
});
const FILES = Number(values.files);
const BRANCHES = Number(values.branches);
const RUNS = Number(values.runs);
const ID = ['-c', 'user.name=b', '-c', 'user.email=b@example.com'];

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

async function bundle(dir) {
  const { build } = await import('esbuild');
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `export { resolveRepository } from ${JSON.stringify(join(ROOT, 'src/acl/index.ts'))};`,
      `export { Catalog, checkoutsOf } from ${JSON.stringify(join(ROOT, 'src/catalog/index.ts'))};`,
      `export { readManifestFile } from ${JSON.stringify(join(ROOT, 'src/model/index.ts'))};`,
      `export { createLocalStore } from ${JSON.stringify(join(ROOT, 'src/state/index.ts'))};`,
      `export { mergeSettings, rollupBranches } from ${JSON.stringify(join(ROOT, 'src/merge/index.ts'))};`,
    ].join('\n'),
  );
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const out = join(cache, `hub-bench-rollup-${process.pid}.mjs`);
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
  return out;
}

/** A workspace with one repository of FILES files (~1 KB each, 20 folders) and BRANCHES branches off main. */
function workspace(dir) {
  const root = join(dir, 'ws');
  const repo = join(root, 'p', 'r');
  mkdirSync(repo, { recursive: true });
  git(repo, ['init', '-q', '-b', 'main']);
  for (let i = 0; i < FILES; i++) {
    const d = join(repo, `d${i % 20}`);
    mkdirSync(d, { recursive: true });
    writeFileSync(join(d, `f${i}.txt`), `${'x'.repeat(1000)} ${i}\n`);
  }
  git(repo, ['add', '-A']);
  git(repo, ['commit', '-q', '-m', 'files']);
  const branches = [];
  for (let b = 0; b < BRANCHES; b++) {
    const name = `agent/b${b}`;
    git(repo, ['checkout', '-q', '-b', name, 'main']);
    writeFileSync(join(repo, `d${b % 20}`, `f${b}.txt`), `changed on ${name}\n`);
    git(repo, ['commit', '-q', '-am', `change ${b}`]);
    branches.push(name);
  }
  git(repo, ['checkout', '-q', 'main']);
  writeFileSync(
    join(root, '.hub.yml'),
    'workspace:\n  name: bench\n  projects:\n    - name: p\n      repos:\n        - name: r\n          path: ./p/r\n',
  );
  return { root, repo, branches };
}

/** The same rollup with plain git: a detached temporary worktree, one merge per branch, one ref update. */
async function plainGit(repo, tmp, branches, into) {
  const wt = join(tmp, `plain-${into.replace(/\//g, '-')}`);
  await gitAsync(repo, ['worktree', 'add', '--detach', '--quiet', '--', wt, 'main']);
  try {
    for (const b of branches) await gitAsync(wt, ['merge', '--no-ff', '--no-edit', '-m', `Merge ${b}`, b]);
    const head = await gitAsync(wt, ['rev-parse', 'HEAD']);
    await gitAsync(repo, ['update-ref', `refs/heads/${into}`, head, '0'.repeat(40)]);
  } finally {
    await gitAsync(repo, ['worktree', 'remove', '--force', '--force', '--', wt]);
  }
}

await runBench('merge-rollup', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-rollup-'));
  const bundled = await bundle(dir);
  const m = await import(pathToFileURL(bundled).href);
  rmSync(bundled, { force: true });
  const { root, repo, branches } = workspace(dir);
  const catalog = new m.Catalog(m.readManifestFile(join(root, '.hub.yml')));
  const t = await m.resolveRepository(
    { catalog, checkouts: m.checkoutsOf(catalog), definitionRoot: root },
    'p/r',
  );
  const deps = {
    store: m.createLocalStore({ dir: join(root, '.hub'), lockTimeoutMs: 60_000 }),
    retries: 1,
    now: () => new Date(),
    env: { PATH: process.env.PATH },
    tmpRoot: tmpdir(),
    settings: m.mergeSettings(undefined),
    branchPrefix: 'agent/',
    integrator: 'bench',
  };
  const target = { id: t.id, key: t.key, root: t.root };
  const samples = { plain_git: [], hub_in_process: [], hub_cli: [] };
  const warmup = QUICK ? 0 : 1;
  const runners = {
    plain_git: (i) => plainGit(repo, dir, branches, `next-git-${i}`),
    hub_in_process: async (i) => {
      const r = await m.rollupBranches(deps, target, { into: `next-hub-${i}`, base: 'main', branches });
      if (r.merged.length !== BRANCHES) throw new Error(`hub merged ${r.merged.length} of ${BRANCHES}`);
    },
    hub_cli: async (i) => {
      const cli = spawnSync(
        process.execPath,
        [
          HUB_BIN,
          '-c',
          join(root, '.hub.yml'),
          'merge',
          'rollup',
          '--repository',
          'p/r',
          '--into',
          `next-cli-${i}`,
          '--base',
          'main',
          '--branches',
          branches.join(','),
          '--json',
        ],
        { encoding: 'utf8', env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off' } },
      );
      if (cli.status !== 0) throw new Error(`hub merge rollup: ${cli.stderr}${cli.stdout}`);
    },
  };
  const names = Object.keys(runners);
  for (let i = 0; i < RUNS + warmup; i++) {
    // Interleaved, the order rotating each run, so neither side always runs on a warmer cache.
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      const start = performance.now();
      await runners[name](i);
      if (i >= warmup) samples[name].push(performance.now() - start);
    }
    progress(`runs: ${i + 1}/${RUNS + warmup}`);
  }
  // Same result both ways: every branch's file at its branch's content.
  const last = RUNS + warmup - 1;
  const hubTree = git(repo, ['rev-parse', `next-hub-${last}^{tree}`]);
  const gitTree = git(repo, ['rev-parse', `next-git-${last}^{tree}`]);
  if (hubTree !== gitTree) throw new Error(`trees differ: hub ${hubTree}, git ${gitTree}`);
  const stats = Object.fromEntries(
    Object.entries(samples).map(([k, xs]) => [
      k,
      { median_ms: round(median(xs)), min_ms: round(Math.min(...xs)), max_ms: round(Math.max(...xs)) },
    ]),
  );
  return {
    files: FILES,
    branches: BRANCHES,
    runs: RUNS,
    ...stats,
    ratio_in_process: round(stats.hub_in_process.median_ms / stats.plain_git.median_ms, 2),
    ratio_cli: round(stats.hub_cli.median_ms / stats.plain_git.median_ms, 2),
    goal_ratio: 1.3,
    node: process.version,
  };
});
