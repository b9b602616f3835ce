#!/usr/bin/env node
// `hub project sync` of N local clones whose file:// remotes have a new commit, against
// `xargs -P8 git pull --ff-only` over another N clones of the same remotes, in the same run (rounds interleaved,
// the order alternating). Goal: hub within 1.2x of xargs. hub also checks each checkout is clean first
// (git status), which a bare `git pull` does not.
// Usage: node bench/project-sync.mjs [--repos 200] [--rounds 5] [--concurrency 8] [--quick]
// (--quick: 3 repositories, 1 round.) peak_rss_mb: one more untimed round of `hub project sync`.
// (stdout: exactly one JSON object; progress on stderr).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  createTempDir,
  HUB_BIN,
  median,
  progress,
  QUICK,
  round,
  runBench,
  timeSpawnRss,
} from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    repos: { type: 'string', default: QUICK ? '3' : '200' },
    rounds: { type: 'string', default: QUICK ? '1' : '5' },
    concurrency: { type: 'string', default: '8' },
    quick: { type: 'boolean' },
  },
});
const N = Number(values.repos);
const ROUNDS = Number(values.rounds);
const P = Number(values.concurrency);
const GOAL = 1.2;

const ID = ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', '-c', 'commit.gpgsign=false'];
function git(cwd, args, input) {
  const r = spawnSync('git', [...ID, ...args], { cwd, encoding: 'utf8', input, maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} in ${cwd}: ${r.stderr}`);
  return r.stdout.trim();
}

function timed(command, args, opts) {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.error) throw r.error;
  return { ms, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

await runBench('project-sync', async ({ cleanup }) => {
  const dir = cleanup(createTempDir('hub-bench-sync-'));
  const work = join(dir, 'work');
  mkdirSync(work);
  git(work, ['init', '-q', '-b', 'main']);
  writeFileSync(join(work, 'README.md'), '# r\n');
  git(work, ['add', '-A']);
  git(work, ['commit', '-q', '-m', 'init']);
  const ws = join(dir, 'ws');
  const plain = join(dir, 'plain');
  const bares = [];
  const lines = ['workspace:', '  name: bench', '  projects:', '    - name: p', '      repos:'];
  for (let i = 0; i < N; i++) {
    const bare = join(dir, 'remotes', `r${i}.git`);
    git(dir, ['clone', '-q', '--bare', work, bare]);
    git(dir, ['clone', '-q', `file://${bare}`, join(ws, 'p', `r${i}`)]);
    git(dir, ['clone', '-q', `file://${bare}`, join(plain, `r${i}`)]);
    bares.push(bare);
    lines.push(`        - {name: r${i}, path: ./p/r${i}}`);
    if ((i + 1) % 50 === 0) progress(`clones ${i + 1}/${N}`);
  }
  writeFileSync(join(ws, '.hub.yml'), `${lines.join('\n')}\n`);
  const plainDirs = `${Array.from({ length: N }, (_, i) => join(plain, `r${i}`)).join('\n')}\n`;
  const env = { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off', NO_COLOR: '1' };

  const hubMs = [];
  const xargsMs = [];
  // A new commit on every remote: both sides have exactly one commit to fast-forward.
  const newCommit = (round_) => {
    writeFileSync(join(work, 'README.md'), `# r ${round_}\n`);
    git(work, ['commit', '-q', '-am', `round ${round_}`]);
    for (const bare of bares) git(work, ['push', '-q', bare, 'main']);
    return git(work, ['rev-parse', 'HEAD']);
  };
  const syncArgs = [HUB_BIN, 'project', 'sync', '--concurrency', String(P), '--json'];
  for (let round_ = 0; round_ < ROUNDS; round_++) {
    const head = newCommit(round_);
    const runXargs = () => {
      const r = timed('xargs', ['-P', String(P), '-I{}', 'git', '-C', '{}', 'pull', '--ff-only', '-q'], {
        input: plainDirs,
        env,
      });
      if (r.status !== 0) throw new Error(`xargs git pull: ${r.stderr.slice(0, 500)}`);
      xargsMs.push(r.ms);
    };
    const runHub = () => {
      const r = timed(process.execPath, syncArgs, { cwd: ws, env });
      if (r.status !== 0) throw new Error(`hub project sync exited ${r.status}: ${r.stderr.slice(-500)}`);
      const counts = JSON.parse(r.stdout).counts;
      if (counts.updated !== N)
        throw new Error(`hub updated ${counts.updated} of ${N}: ${JSON.stringify(counts)}`);
      hubMs.push(r.ms);
    };
    if (round_ % 2 === 0) {
      runXargs();
      runHub();
    } else {
      runHub();
      runXargs();
    }
    for (const d of [join(ws, 'p', 'r0'), join(plain, `r${N - 1}`)])
      if (git(d, ['rev-parse', 'HEAD']) !== head) throw new Error(`${d} did not reach ${head}`);
    progress(
      `round ${round_ + 1}/${ROUNDS}: xargs ${round(xargsMs.at(-1))} ms, hub ${round(hubMs.at(-1))} ms`,
    );
  }
  newCommit(ROUNDS);
  const measured = timeSpawnRss(process.execPath, syncArgs, { cwd: ws, env });
  if (JSON.parse(measured.stdout).counts.updated !== N)
    throw new Error('the peak_rss_mb round updated too few');
  const hub = median(hubMs);
  const xargs = median(xargsMs);
  const ratio = Number((hub / xargs).toFixed(3));
  return {
    repos: N,
    rounds: ROUNDS,
    concurrency: P,
    xargs_pull_ms: round(xargs),
    hub_sync_ms: round(hub),
    peak_rss_mb: { hub_sync: measured.peak_rss_mb },
    ratio,
    goal_ratio: GOAL,
    pass: ratio < GOAL,
    xargs_samples_ms: xargsMs.map((x) => round(x)),
    hub_samples_ms: hubMs.map((x) => round(x)),
  };
});
