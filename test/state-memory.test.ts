import { createMemoryStore } from '../src/state/index.js';
import { runStoreConformance } from './state-conformance.js';

runStoreConformance('memory', async () => {
  // One store: its events log is in it; the compacting handle is the same log with a small retention.
  const store = createMemoryStore({ retention: { count: 20, days: 0 } });
  return { store, compacting: () => store, cleanup: async () => {} };
});
