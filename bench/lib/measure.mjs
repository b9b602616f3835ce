// Shared helpers of the benchmarks: process timing, medians, temp dirs, the one-JSON-object output rule.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (bench/lib/../..). */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The hub launcher to time; HUB_BIN points the benches at another build. */
export const HUB_BIN = process.env.HUB_BIN ?? join(ROOT, 'bin', 'hub');

/** Progress goes to stderr: stdout carries exactly one JSON object. */
export function progress(message) {
  process.stderr.write(`[bench] ${message}\n`);
}

export function median(values) {
  if (values.length === 0) throw new Error('median of no values');
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export const round = (ms, digits = 1) => Number(ms.toFixed(digits));

/**
 * Runs a command once (no shell) and returns its wall time in milliseconds with its output.
 * Throws when the exit status is not the expected one, so a broken command never looks fast.
 */
export function timeSpawn(command, args, { env = process.env, cwd = ROOT, expectStatus = 0 } = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { env, cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.error) throw r.error;
  if (expectStatus !== undefined && r.status !== expectStatus) {
    const tail = `${r.stderr}${r.stdout}`.trim().split('\n').slice(-5).join('\n').slice(0, 800);
    throw new Error(
      `${[command, ...args].join(' ')} exited ${r.status ?? r.signal} (expected ${expectStatus}):\n${tail}`,
    );
  }
  return { ms, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Times several commands: `warmup` untimed rounds, then `runs` timed rounds, interleaved so that drift in
 * machine load affects every command alike. Returns {name: {median_ms, min_ms, max_ms, samples}}.
 */
export function timeInterleaved(cases, { runs, warmup = 3, label = 'runs' }) {
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < warmup; i++) for (const c of Object.values(cases)) timeSpawn(c.command, c.args, c);
  for (let i = 0; i < runs; i++) {
    for (const [name, c] of Object.entries(cases)) samples[name].push(timeSpawn(c.command, c.args, c).ms);
    if ((i + 1) % Math.max(1, Math.floor(runs / 5)) === 0) progress(`${label}: ${i + 1}/${runs}`);
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, xs]) => [
      name,
      {
        median_ms: round(median(xs)),
        min_ms: round(Math.min(...xs)),
        max_ms: round(Math.max(...xs)),
        samples: xs.length,
      },
    ]),
  );
}

/** Whether this run is the quick mode (`--quick` or BENCH_QUICK=1): small counts that prove the bench works. */
export const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

/**
 * Runs a node command once like timeSpawn and also reports its peak resident set in MiB (`peak_rss_mb`), read
 * from getrusage inside the child (bench/lib/report-rss.cjs is preloaded through NODE_OPTIONS): the largest peak of
 * the node processes of its tree (they inherit NODE_OPTIONS); processes that are not node do not report.
 */
export function timeSpawnRss(command, args, opts = {}) {
  const dir = createTempDir('hub-bench-rss-');
  const file = join(dir, 'rss');
  try {
    const preload = `--require ${join(ROOT, 'bench', 'lib', 'report-rss.cjs')}`;
    const base = opts.env ?? process.env;
    const env = {
      ...base,
      NODE_OPTIONS: [base.NODE_OPTIONS, preload].filter(Boolean).join(' '),
      HUB_BENCH_RSS_OUT: file,
    };
    const r = timeSpawn(command, args, { ...opts, env });
    const kib = existsSync(file)
      ? Math.max(...readFileSync(file, 'utf8').trim().split('\n').map(Number))
      : Number.NaN;
    return { ...r, peak_rss_mb: round(kib / 1024) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * CPU time (user + system, ms) of one run of each case, `runs` rounds interleaved, medians: read from getrusage
 * inside each child (bench/lib/report-cpu.cjs preloaded through NODE_OPTIONS), so the machine's load does not
 * count, only the work the process did. Returns {name: median_ms}.
 */
export function cpuInterleaved(cases, { runs }) {
  const dir = createTempDir('hub-bench-cpu-');
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  try {
    const preload = `--require ${join(ROOT, 'bench', 'lib', 'report-cpu.cjs')}`;
    for (let i = 0; i < runs; i++) {
      for (const [name, c] of Object.entries(cases)) {
        const file = join(dir, `${name}-${i}`);
        const base = c.env ?? process.env;
        const env = {
          ...base,
          NODE_OPTIONS: [base.NODE_OPTIONS, preload].filter(Boolean).join(' '),
          HUB_BENCH_CPU_OUT: file,
        };
        timeSpawn(c.command, c.args, { ...c, env });
        samples[name].push(Number(readFileSync(file, 'utf8').trim().split('\n')[0]));
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return Object.fromEntries(Object.entries(samples).map(([name, xs]) => [name, round(median(xs))]));
}

/** `node <bin/hub> ...args` as a spawn case. */
export function hubCase(args, env = {}, extra = {}) {
  return { command: process.execPath, args: [HUB_BIN, ...args], env: { ...process.env, ...env }, ...extra };
}

export function createTempDir(prefix) {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/**
 * Runs a benchmark body and prints its result (or {bench, error}) as exactly one JSON object on stdout.
 * Temp dirs registered with `cleanup` are removed afterwards unless BENCH_KEEP=1.
 */
export async function runBench(name, body) {
  const dirs = [];
  const cleanup = (dir) => {
    dirs.push(dir);
    return dir;
  };
  let result;
  let code = 0;
  try {
    if (!existsSync(join(ROOT, 'dist', 'cli.js')) && !process.env.HUB_BIN)
      throw new Error('dist/cli.js is missing: run `npm run build` first');
    result = { bench: name, ...(await body({ cleanup })) };
  } catch (err) {
    result = { bench: name, error: err instanceof Error ? err.message : String(err) };
    code = 1;
  } finally {
    if (process.env.BENCH_KEEP === '1') progress(`kept ${dirs.join(' ')}`);
    else for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exitCode = code;
}
