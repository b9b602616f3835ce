import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test files spend their time waiting on child processes (hub, git) and the disk, so one worker per core
    // left the cores half idle: two per core ran the suite in 3.5 min instead of 6 on two cores.
    maxWorkers: Math.max(2, availableParallelism() * 2),
    globalSetup: ['test/global-setup.ts'],
  },
});
