import { createMemoryStore } from '../src/state/index.js';
import { runStoreConformance } from './state-conformance.js';

runStoreConformance('memory', async () => ({ store: createMemoryStore(), cleanup: async () => {} }));
