import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { HUB_BIN } from './run-hub.js';

const WORKERS = 8;
const UPDATES = 25;

let dir: string;
let root: string;
let manifest: string;

beforeAll(() => {
  dir = createTempDir('hub-lost-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
  // Eight writers contend for one document: give compare-and-swap room to reload and reapply.
  writeFileSync(join(root, 'hub.config.yaml'), 'state:\n  backend: local\n  conflict_retries: 50\n');
});
afterAll(() => removeTempDir(dir));

/** Runs one `hub` process to completion (asynchronously, so the workers really overlap). */
function hubAsync(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HUB_BIN, '-c', manifest, ...args], {
      env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_AGENT_MODE: 'true', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

/** One worker: a sequential chain of read-modify-write updates through the CLI. */
async function worker(i: number): Promise<string[]> {
  const failures: string[] = [];
  for (let j = 0; j < UPDATES; j++) {
    const r = await hubAsync([
      'context',
      'objective',
      'set',
      '--id',
      `w${i}-${j}`,
      '--title',
      `Worker ${i} #${j}`,
    ]);
    if (r.code !== 0) failures.push(`w${i}-${j}: exit ${r.code}: ${r.out}`);
  }
  return failures;
}

describe('no lost updates', () => {
  it(`keeps all ${WORKERS * UPDATES} objectives written by ${WORKERS} concurrent hub processes`, async () => {
    const failures = (await Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i)))).flat();
    expect(failures).toEqual([]);
    const doc = JSON.parse(readFileSync(join(root, '.hub', 'objectives.json'), 'utf8'));
    const ids: string[] = doc.objectives.map((o: { id: string }) => o.id);
    const want = Array.from({ length: WORKERS }, (_, i) =>
      Array.from({ length: UPDATES }, (_, j) => `w${i}-${j}`),
    ).flat();
    expect(ids.length).toBe(WORKERS * UPDATES);
    expect([...ids].sort()).toEqual([...want].sort());
  }, 600_000);
});
