import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir, runObjectiveWriters } from './fixtures/index.js';

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

describe('no lost updates', () => {
  it(`keeps all ${WORKERS * UPDATES} objectives written by ${WORKERS} concurrent hub processes`, async () => {
    const { failures, written } = await runObjectiveWriters({ manifest, workers: WORKERS, updates: UPDATES });
    expect(failures).toEqual([]);
    const doc = JSON.parse(readFileSync(join(root, '.hub', 'objectives.json'), 'utf8'));
    const ids: string[] = doc.objectives.map((o: { id: string }) => o.id);
    expect(ids.length).toBe(WORKERS * UPDATES);
    expect([...ids].sort()).toEqual([...written].sort());
  }, 600_000);
});
