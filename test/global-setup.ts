import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Tests that spawn `hub` need the bundle; `npm test` builds first, a bare `vitest run` builds here if missing. */
export default function setup(): void {
  const root = join(import.meta.dirname, '..');
  if (existsSync(join(root, 'dist', 'cli.js'))) return;
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('build failed');
}
