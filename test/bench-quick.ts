// Every benchmark in bench/*.mjs run in its quick mode (`--quick`: the same code path and JSON shape, tiny counts),
// so a broken benchmark fails `npm test`. The benches are split over four test files (bench-quick-a..d.test.ts) so
// the test pool runs the quarters side by side; each quarter runs its benches one at a time.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

export const ROOT = join(import.meta.dirname, '..');
const BENCH = join(ROOT, 'bench');

/** How many test files share the benches (bench-quick-a..d.test.ts). */
export const SHARDS = 4;

/** Benches of other branches that get their quick mode there; the lead empties this set at merge. */
export const AWAITING_QUICK_MODE = new Set<string>([]);

/** Scripts in bench/ that are not benchmarks (no timing, no {bench} object): tested on their own. */
export const NOT_BENCHES = new Set(['generate-workspace']);

const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].some((p) => existsSync(p));
const onPath = (tool: string) =>
  (process.env.PATH ?? '').split(':').some((d) => d !== '' && existsSync(join(d, tool)));
const RIPGREP = onPath('rg');
const TMUX = onPath('tmux');

/** Benches that print {bench, skipped} when a tool is missing, as the browser tests skip: only then. */
const SKIPS_WITHOUT: Record<string, boolean> = {
  'ui-workspace': CHROMIUM,
  'ui-terrain': CHROMIUM,
  'workspace-grep': RIPGREP,
  'nav-startup': TMUX,
};

/** bench/*.mjs names (without .mjs), sorted; bench/lib and bench/hostile are folders, so never listed. */
export function benchNames(): string[] {
  return readdirSync(BENCH, { withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.mjs'))
    .map((d) => d.name.slice(0, -'.mjs'.length))
    .filter((n) => !NOT_BENCHES.has(n))
    .sort();
}

/** The environment of a bench child: the quick flag, and nothing of the test runner's own. */
function benchEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && k !== 'HUB_DEBUG') env[k] = v;
  return { ...env, BENCH_QUICK: '1', NO_COLOR: '1' };
}

export interface BenchRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function runScript(file: string, args: string[] = ['--quick']): Promise<BenchRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { cwd: ROOT, env: benchEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** One `it` per bench of this shard (index % shards), skipped with its reason when it has no quick mode yet. */
export function defineBenchTests(shard: number, shards: number): void {
  const names = benchNames().filter((_, i) => i % shards === shard);
  for (const name of names) {
    if (AWAITING_QUICK_MODE.has(name)) {
      it.skip(`${name} --quick (awaiting its quick mode from another branch)`, () => {});
      continue;
    }
    it(`${name} --quick prints one JSON object and exits 0`, { timeout: 240_000 }, async () => {
      const r = await runScript(join(BENCH, `${name}.mjs`));
      const tail = r.stderr.trim().split('\n').slice(-8).join('\n');
      expect(r.code, `exit ${r.code ?? r.signal}; stdout: ${r.stdout.slice(0, 800)}\nstderr: ${tail}`).toBe(
        0,
      );
      const lines = r.stdout.trim().split('\n');
      expect(lines, 'stdout carries exactly one line: the JSON object').toHaveLength(1);
      const out = JSON.parse(lines[0]!) as Record<string, unknown>;
      expect(typeof out).toBe('object');
      expect(out.bench).toBe(name);
      expect(out.error).toBeUndefined();
      if (name in SKIPS_WITHOUT) expect('skipped' in out).toBe(!SKIPS_WITHOUT[name]);
      else expect(out.skipped).toBeUndefined();
    });
  }
}
