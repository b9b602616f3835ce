#!/usr/bin/env node
// `worktree create` against plain `git worktree add` on the same repository (same size, same kind of branch),
// interleaved: hub in process (the operation's domain call with the local state backend: checks, git, record,
// event, agent), and the whole `hub worktree create` CLI process for reference (node start-up included).
// Usage: node bench/worktree-create.mjs [--files 2000] [--runs 15] [--quick]   (--quick: 20 files, 1 run, no warm-up)
// (stdout: exactly one JSON object; progress on stderr). src is bundled with esbuild into a temp file.
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createTempDir, HUB_BIN, median, progress, QUICK, ROOT, round, runBench } from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: QUICK ? '20' : '2000' },
    runs: { type: 'string', default: QUICK ? '1' : '15' },
    quick: { type: 'boolean' },
  },
});
const FILES = Number(values.files);
const RUNS = Number(values.runs);

const git = (cwd, args) => {
  const r = spawnSync('git', ['-c', 'user.name=b', '-c', 'user.email=b@example.com', ...args], {
    cwd,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};
const gitAsync = (cwd, args) =>
  new Promise((resolve, reject) =>
    execFile('git', args, { cwd }, (err, _out, stderr) => (err ? reject(new Error(stderr)) : resolve())),
  );

async function bundle(dir) {
  const { build } = await import('esbuild');
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `export { createWorktree, destroyWorktree, resolveRepository } from ${JSON.stringify(join(ROOT, 'src/acl/index.ts'))};`,
      `export { Catalog, checkoutsOf } from ${JSON.stringify(join(ROOT, 'src/catalog/index.ts'))};`,
      `export { readManifestFile } from ${JSON.stringify(join(ROOT, 'src/model/index.ts'))};`,
      `export { createLocalStore } from ${JSON.stringify(join(ROOT, 'src/state/index.ts'))};`,
    ].join('\n'),
  );
  // Beside node_modules, so the bundle's lazy require('yaml') (src/model/yaml-lib.ts) finds the package.
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const out = join(cache, `hub-bench-worktree-${process.pid}.mjs`);
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

/** A workspace with one repository of FILES files (~1 KB each, 20 folders) and one branch per timed run. */
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
  writeFileSync(
    join(root, '.hub.yml'),
    'workspace:\n  name: bench\n  projects:\n    - name: p\n      repos:\n        - name: r\n          path: ./p/r\n',
  );
  return { root, repo };
}

await runBench('worktree-create', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-wt-'));
  const bundled = await bundle(dir);
  const m = await import(pathToFileURL(bundled).href);
  rmSync(bundled, { force: true });
  const { root, repo } = workspace(dir);
  const catalog = new m.Catalog(m.readManifestFile(join(root, '.hub.yml')));
  const repoDeps = { catalog, checkouts: m.checkoutsOf(catalog), definitionRoot: root };
  const deps = {
    store: m.createLocalStore({ dir: join(root, '.hub'), lockTimeoutMs: 60_000 }),
    retries: 1,
    now: () => new Date(),
    host: hostname(),
    env: {},
  };
  const cfg = { layout: { workspaceRoot: root, worktreesPath: '.worktrees/', allowedOutside: [] } };
  const target = await m.resolveRepository(repoDeps, 'p/r');
  const samples = { git_worktree_add: [], hub_in_process: [], hub_cli: [] };
  const warmup = QUICK ? 0 : 2;
  for (let i = 0; i < RUNS + warmup; i++) {
    for (const name of Object.keys(samples)) git(repo, ['branch', `${name}-${i}`]);
    // git alone
    const plain = join(dir, 'plain', `T${i}`);
    let t = performance.now();
    await gitAsync(repo, ['worktree', 'add', '-q', '--', plain, `git_worktree_add-${i}`]);
    const gitMs = performance.now() - t;
    git(repo, ['worktree', 'remove', '--force', plain]);
    // hub in process
    t = performance.now();
    const made = await m.createWorktree(deps, cfg, {
      target,
      agentId: 'bench',
      taskId: `T${i}`,
      branch: `hub_in_process-${i}`,
    });
    const hubMs = performance.now() - t;
    await m.destroyWorktree(deps, async () => target, { id: made.worktree.id, cwd: root }, true);
    // the CLI process
    t = performance.now();
    const cli = spawnSync(
      process.execPath,
      [
        HUB_BIN,
        '-c',
        join(root, '.hub.yml'),
        'worktree',
        'create',
        '--repository',
        'p/r',
        '--agent-id',
        'cli',
        '--task-id',
        `T${i}`,
        '--branch',
        `hub_cli-${i}`,
        '--json',
      ],
      { encoding: 'utf8', env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off' } },
    );
    const cliMs = performance.now() - t;
    if (cli.status !== 0) throw new Error(`hub worktree create: ${cli.stderr}`);
    await m.destroyWorktree(
      deps,
      async () => target,
      { id: JSON.parse(cli.stdout).worktree.id, cwd: root },
      true,
    );
    if (i >= warmup) {
      samples.git_worktree_add.push(gitMs);
      samples.hub_in_process.push(hubMs);
      samples.hub_cli.push(cliMs);
    }
    if ((i + 1) % 5 === 0) progress(`runs: ${i + 1}/${RUNS + warmup}`);
  }
  const stats = Object.fromEntries(
    Object.entries(samples).map(([k, xs]) => [
      k,
      { median_ms: round(median(xs)), min_ms: round(Math.min(...xs)), max_ms: round(Math.max(...xs)) },
    ]),
  );
  return {
    files: FILES,
    runs: RUNS,
    ...stats,
    ratio_in_process: round(stats.hub_in_process.median_ms / stats.git_worktree_add.median_ms, 2),
    ratio_cli: round(stats.hub_cli.median_ms / stats.git_worktree_add.median_ms, 2),
    goal_ratio: 1.3,
    node: process.version,
  };
});
