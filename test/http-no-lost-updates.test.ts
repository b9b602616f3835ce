// Concurrent writers through the http state backend, default conflict_retries (1): the server (in this process,
// on port 0, local backend behind it) applies each objective upsert atomically on its own store, so every call is
// accepted and every objective is there. Send the writers back to whole-document compare-and-swap instead and the
// writer processes below conflict and fail (checked by hand: see /work/notes). The full 8 x 25 CLI run is a
// benchmark: bench/concurrent-writers.mjs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import {
  bundleWriter,
  createTempDir,
  hubAsync,
  removeTempDir,
  runObjectiveWriters,
  runWriterProcesses,
} from './fixtures/index.js';
import { type RunningServer, startTestServer } from './http-server.js';

let dir: string;
let root: string;
let manifest: string;
let srv: RunningServer;
let writer: { bundle: string; remove(): void };
let env: Record<string, string>;

beforeAll(async () => {
  dir = createTempDir('hub-http-lost-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
  // The server keeps the documents in <root>/.hub (local); the writers reach it over HTTP (env below).
  srv = await startTestServer({ root });
  env = { HUB_STATE_BACKEND: 'http', HUB_STATE_URL: srv.base };
  writer = await bundleWriter();
});
afterAll(async () => {
  await srv?.close();
  writer?.remove();
  removeTempDir(dir);
});

const storedIds = (): string[] =>
  JSON.parse(readFileSync(join(root, '.hub', 'objectives.json'), 'utf8')).objectives.map(
    (o: { id: string }) => o.id,
  );

describe('no lost updates, no refused writers through the http backend (default conflict_retries)', () => {
  it('accepts and keeps every objective of 4 processes writing 15 each at once', async () => {
    const info = await hubAsync(manifest, ['state', 'info', '--json'], env);
    expect(JSON.parse(info.out)).toMatchObject({ backend: 'http', location: srv.base, conflict_retries: 1 });
    const { failures, written } = await runWriterProcesses({
      bundle: writer.bundle,
      root,
      manifest,
      workers: 4,
      updates: 15,
      env,
    });
    expect(failures).toEqual([]);
    expect([...storedIds()].sort()).toEqual([...written].sort());
  });

  it('accepts and keeps every objective of concurrent hub CLI processes', async () => {
    const before = storedIds().length;
    const { failures, written } = await runObjectiveWriters({ manifest, workers: 3, updates: 2, env });
    expect(failures).toEqual([]);
    const ids = storedIds();
    expect(ids).toEqual(expect.arrayContaining(written));
    expect(ids).toHaveLength(before + written.length);
  });
});
