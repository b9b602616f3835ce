import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEB_BUILD_MODE } from '../scripts/build-web.mjs';

/** Whether dist/web was built in another mode than production (a stamp from before modes were recorded counts). */
function webBuildInOtherMode(root: string): boolean {
  const stamp = join(root, 'dist', 'web-build.json');
  if (!existsSync(stamp)) return true;
  try {
    return (JSON.parse(readFileSync(stamp, 'utf8')) as { mode?: unknown }).mode !== WEB_BUILD_MODE;
  } catch {
    return true;
  }
}

/**
 * Tests that spawn `hub` need the bundle; `npm test` builds first, a bare `vitest run` builds here if it is missing
 * or its browser UI is not a production build (the build forces production whatever NODE_ENV, here `test`, says).
 */
export default function setup(): void {
  const root = join(import.meta.dirname, '..');
  if (existsSync(join(root, 'dist', 'cli.js')) && !webBuildInOtherMode(root)) return;
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error('build failed');
}
