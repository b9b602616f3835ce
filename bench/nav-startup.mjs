#!/usr/bin/env node
// `hub nav` start to its first frame (the project picker drawn in a real terminal) against `hub --version` start to
// its line on the same terminal: both run in a tmux pane of a private tmux server and are timed the same way, from
// the `new-session` that starts them to the first capture-pane that shows their text (polled every 5 ms). The
// difference is what nav costs a person before the picker is up: loading the prompt library, the command table, the
// manifest and the repository list.
// Usage: npm run build && node bench/nav-startup.mjs [--runs 15] [--quick]   (--quick: 1 run, no warm-up)
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, HUB_BIN, median, progress, QUICK, round, runBench } from './lib/measure.mjs';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: QUICK ? '1' : '15' }, quick: { type: 'boolean' } },
});
const RUNS = Number(values.runs);
const WARMUP = QUICK ? 0 : 2;
const POLL_MS = 5;
const GIVE_UP_MS = 60_000;

function hasTmux() {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts `args` in a fresh pane (a server of its own: one shutting down cannot take the next) and resolves with the ms until the screen shows `text`. */
async function timeToScreen(socket, conf, cwd, env, args, text) {
  const tmux = (a) => execFileSync('tmux', ['-S', socket, ...a], { encoding: 'utf8', env });
  const start = process.hrtime.bigint();
  tmux(['-f', conf, 'new-session', '-d', '-s', 'bench', '-x', '100', '-y', '32', '-c', cwd, ...args]);
  try {
    for (;;) {
      // With the lines scrolled off: tmux scrolls the screen to say "Pane is dead" once --version has exited.
      if (tmux(['capture-pane', '-p', '-S', '-', '-t', 'bench:0.0']).includes(text))
        return Number(process.hrtime.bigint() - start) / 1e6;
      if (Number(process.hrtime.bigint() - start) / 1e6 > GIVE_UP_MS)
        throw new Error(`the terminal never showed ${JSON.stringify(text)}`);
      await sleep(POLL_MS);
    }
  } finally {
    tmux(['kill-server']);
  }
}

await runBench('nav-startup', async ({ cleanup }) => {
  if (!hasTmux()) return { skipped: 'tmux is not installed (apt-get install -y tmux)' };
  const dir = cleanup(createTempDir('hub-bench-nav-'));
  const cache = join(dir, 'cache');
  const config = join(dir, 'user-config');
  mkdirSync(config);
  // An editor that is never reached (each run ends at the first frame), named so nav never falls back to `code`.
  writeFileSync(join(config, 'config.yml'), 'config:\n  editor: /bin/true\n');
  const demo = createDemo(join(dir, 'demo'));
  const conf = join(dir, 'tmux.conf');
  writeFileSync(conf, 'set -g status off\nset -g remain-on-exit on\n');
  let servers = 0;
  const env = {
    ...process.env,
    HUB_CACHE_DIR: cache,
    HUB_CONFIG_DIR: config,
    HUB_DAEMON: 'off',
    NO_COLOR: '1',
  };
  delete env.TMUX;
  delete env.HUB_AGENT_MODE;
  const version = execFileSync(process.execPath, [HUB_BIN, '--version'], { encoding: 'utf8', env }).trim();
  const cases = {
    nav: { args: [process.execPath, HUB_BIN, 'nav'], text: '? Project' },
    version: { args: [process.execPath, HUB_BIN, '--version'], text: version },
  };
  const samples = { nav: [], version: [] };
  for (let i = 0; i < WARMUP + RUNS; i++) {
    for (const [name, c] of Object.entries(cases)) {
      const socket = join(dir, `tmux-${servers++}.sock`);
      const ms = await timeToScreen(socket, conf, demo.root, env, c.args, c.text);
      if (i >= WARMUP) samples[name].push(ms);
    }
    if (i >= WARMUP && (i - WARMUP + 1) % Math.max(1, Math.floor(RUNS / 5)) === 0)
      progress(`runs: ${i - WARMUP + 1}/${RUNS}`);
  }
  const nav = median(samples.nav);
  const ver = median(samples.version);
  return {
    nav_first_frame_ms: round(nav),
    version_ms: round(ver),
    ratio: round(nav / ver, 2),
    nav_min_ms: round(Math.min(...samples.nav)),
    version_min_ms: round(Math.min(...samples.version)),
    repos: demo.repos.length,
    runs: RUNS,
    node: process.version,
  };
});
