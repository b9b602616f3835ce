// A quarter of bench/*.mjs in quick mode (the others: the other bench-quick-*.test.ts files); see bench-quick.ts.
import { describe } from 'vitest';
import { defineBenchTests, SHARDS } from './bench-quick.js';

describe(`bench --quick (4 of ${SHARDS})`, () => defineBenchTests(3, SHARDS));
