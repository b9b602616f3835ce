// Eight concurrent `hub` processes update one document through the http state backend: the server (in this
// process, on port 0, local backend behind it) must keep every update.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { type RunningServer, startTestServer } from './http-server.js';
import { HUB_BIN } from './run-hub.js';

const WORKERS = 8;
const UPDATES = 25;

let dir: string;
let root: string;
let manifest: string;
let srv: RunningServer;

beforeAll(async () => {
  dir = createTempDir('hub-http-lost-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
  // The server keeps the documents in <root>/.hub (local); the CLI processes reach it over HTTP (env below).
  writeFileSync(join(root, 'hub.config.yaml'), 'state:\n  backend: local\n  conflict_retries: 50\n');
  srv = await startTestServer({ root });
});
afterAll(async () => {
  await srv?.close();
  removeTempDir(dir);
});

function hubAsync(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HUB_BIN, '-c', manifest, ...args], {
      env: {
        ...process.env,
        HUB_CACHE_DIR: 'off',
        HUB_AGENT_MODE: 'true',
        NO_COLOR: '1',
        HUB_STATE_BACKEND: 'http',
        HUB_STATE_URL: srv.base,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, out }));
  });
}

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

describe('no lost updates through the http backend', () => {
  it(`keeps all ${WORKERS * UPDATES} objectives written by ${WORKERS} hub processes via ${'HUB_STATE_BACKEND=http'}`, async () => {
    const info = await hubAsync(['state', 'info', '--json']);
    expect(JSON.parse(info.out)).toMatchObject({ backend: 'http', location: srv.base });

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
