import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalStore } from '../src/state/index.js';
import { runStoreConformance } from './state-conformance.js';

runStoreConformance('local', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hub-state-local-'));
  return {
    store: createLocalStore({ dir: join(dir, '.hub') }),
    reopen: () => createLocalStore({ dir: join(dir, '.hub') }),
    compacting: () =>
      createLocalStore({ dir: join(dir, '.hub'), retention: { count: 20, days: 0 }, segmentEvents: 10 }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
