// Half of bench/*.mjs in quick mode (the other half: bench-quick-a.test.ts); see bench-quick.ts.
import { describe } from 'vitest';
import { defineBenchTests } from './bench-quick.js';

describe('bench --quick (2 of 2)', () => defineBenchTests(1, 2));
