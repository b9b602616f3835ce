import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test files spend their time waiting on child processes (hub, git) and the disk, so one worker per core
    // left the cores half idle: two per core ran the suite in 3.5 min instead of 6 on two cores.
    maxWorkers: Math.max(2, availableParallelism() * 2),
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          // Test files share each worker's module graph instead of re-importing hub for every file: no test mocks a
          // module, and a third of the suite's time was spent transforming and importing the same modules again.
          isolate: false,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['test/browser/**', 'test/fixtures/**'],
        },
      },
      {
        // Each browser test file runs one Chromium and one hub server: one file at a time, beside the others,
        // so two cores are not shared by several browsers at once.
        extends: true,
        test: { name: 'browser', include: ['test/browser/**/*.test.ts'], fileParallelism: false },
      },
    ],
  },
});
