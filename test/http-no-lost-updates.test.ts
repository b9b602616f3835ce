// Eight concurrent `hub` processes update one document through the http state backend: the server (in this
// process, on port 0, local backend behind it) must keep every update.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, hubAsync, removeTempDir, runObjectiveWriters } from './fixtures/index.js';
import { type RunningServer, startTestServer } from './http-server.js';

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

describe('no lost updates through the http backend', () => {
  it(`keeps all ${WORKERS * UPDATES} objectives written by ${WORKERS} hub processes via HUB_STATE_BACKEND=http`, async () => {
    const env = { HUB_STATE_BACKEND: 'http', HUB_STATE_URL: srv.base };
    const info = await hubAsync(manifest, ['state', 'info', '--json'], env);
    expect(JSON.parse(info.out)).toMatchObject({ backend: 'http', location: srv.base });

    const { failures, written } = await runObjectiveWriters({
      manifest,
      workers: WORKERS,
      updates: UPDATES,
      env,
    });
    expect(failures).toEqual([]);
    const doc = JSON.parse(readFileSync(join(root, '.hub', 'objectives.json'), 'utf8'));
    const ids: string[] = doc.objectives.map((o: { id: string }) => o.id);
    expect(ids.length).toBe(WORKERS * UPDATES);
    expect([...ids].sort()).toEqual([...written].sort());
  }, 600_000);
});
