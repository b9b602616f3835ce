// A quarter of bench/*.mjs in quick mode (the others: bench-quick-b..d.test.ts), the generator, and the README's
// coverage of every script; see bench-quick.ts.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { benchNames, defineBenchTests, NOT_BENCHES, ROOT, runScript, SHARDS } from './bench-quick.js';
import { createTempDir } from './fixtures/index.js';

describe(`bench --quick (1 of ${SHARDS})`, () => defineBenchTests(0, SHARDS));

describe('bench/ scripts', () => {
  it('generate-workspace (a generator, not a bench) writes a workspace and prints its summary', async () => {
    const dir = createTempDir('hub-bench-gen-');
    try {
      const r = await runScript(join(ROOT, 'bench', 'generate-workspace.mjs'), [dir, '--repos', '3']);
      expect(r.code, r.stderr).toBe(0);
      const summary = JSON.parse(r.stdout) as { repos: number; manifestPath: string };
      expect(summary.repos).toBe(3);
      expect(readFileSync(summary.manifestPath, 'utf8')).toContain('workspace:');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bench/README.md names every script in bench/', () => {
    const readme = readFileSync(join(ROOT, 'bench', 'README.md'), 'utf8');
    const missing = [...benchNames(), ...NOT_BENCHES].filter((n) => !readme.includes(`bench/${n}.mjs`));
    expect(missing).toEqual([]);
  });
});
