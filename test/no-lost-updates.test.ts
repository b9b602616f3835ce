// Concurrent writers of one document on the default local backend, with the default conflict_retries (1): every
// call is accepted and every objective is there. Writers queue on the lock held across read-modify-write; take
// that lock away (compare-and-swap alone) and the writer processes below conflict and fail (checked by hand:
// docs in /work/notes). The full 8 x 25 CLI run is a benchmark: bench/concurrent-writers.mjs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import {
  bundleWriter,
  createTempDir,
  removeTempDir,
  runObjectiveWriters,
  runWriterProcesses,
} from './fixtures/index.js';

let dir: string;
let root: string;
let manifest: string;
let writer: { bundle: string; remove(): void };

beforeAll(async () => {
  dir = createTempDir('hub-lost-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
  writer = await bundleWriter();
});
afterAll(() => {
  writer?.remove();
  removeTempDir(dir);
});

const storedIds = (): string[] =>
  JSON.parse(readFileSync(join(root, '.hub', 'objectives.json'), 'utf8')).objectives.map(
    (o: { id: string }) => o.id,
  );

describe('no lost updates, no refused writers (local backend, default conflict_retries)', () => {
  it('accepts and keeps every objective of 4 processes writing 15 each at once', async () => {
    const { failures, written } = await runWriterProcesses({
      bundle: writer.bundle,
      root,
      manifest,
      workers: 4,
      updates: 15,
    });
    expect(failures).toEqual([]);
    expect([...storedIds()].sort()).toEqual([...written].sort());
  });

  it('accepts and keeps every objective of concurrent hub CLI processes', async () => {
    const before = storedIds().length;
    const { failures, written } = await runObjectiveWriters({ manifest, workers: 3, updates: 2 });
    expect(failures).toEqual([]);
    const ids = storedIds();
    expect(ids).toEqual(expect.arrayContaining(written));
    expect(ids).toHaveLength(before + written.length);
  });
});
