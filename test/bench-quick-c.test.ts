// A quarter of bench/*.mjs in quick mode (the others: the other bench-quick-*.test.ts files); see bench-quick.ts.
import { describe } from 'vitest';
import { defineBenchTests, SHARDS } from './bench-quick.js';

describe(`bench --quick (3 of ${SHARDS})`, () => defineBenchTests(2, SHARDS));
