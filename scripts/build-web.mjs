// Builds the browser UI (web/) into dist/web with vite's build(). Skipped when nothing it depends on changed
// since the last build (web/, the lock file, this script), keyed by a hash kept in dist/web-build.json, so
// `npm run build` after a CLI-only change stays as fast as before. HUB_WEB_BUILD=force rebuilds anyway.
// Always a production build, whatever NODE_ENV the caller runs with (vitest sets NODE_ENV=test, and vite builds
// React's development bundle for any NODE_ENV but production); the mode is recorded beside the hash, and a stamp
// with another mode (or none, from an older build) is rebuilt.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

function hashTree(dir, h) {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) hashTree(p, h);
    else h.update(p.slice(dir.length)).update(readFileSync(p));
  }
  return h;
}

/** The only mode dist/web is built in. */
export const WEB_BUILD_MODE = 'production';

/** Whether dist/web, stamped `prev` (dist/web-build.json), is the build of sources hashed `hash`. */
export function webBuildUpToDate(prev, hash) {
  return prev?.hash === hash && prev?.mode === WEB_BUILD_MODE;
}

export async function buildWeb(root, { force = process.env.HUB_WEB_BUILD === 'force' } = {}) {
  const web = join(root, 'web');
  const out = join(root, 'dist', 'web');
  const stamp = join(root, 'dist', 'web-build.json');
  const h = hashTree(web, createHash('sha256'));
  for (const f of ['package-lock.json', 'scripts/build-web.mjs']) {
    const p = join(root, f);
    if (existsSync(p)) h.update(f).update(readFileSync(p));
  }
  const hash = h.digest('hex').slice(0, 16);
  if (!force && existsSync(join(out, 'index.html')) && existsSync(stamp)) {
    const prev = JSON.parse(readFileSync(stamp, 'utf8'));
    if (webBuildUpToDate(prev, hash)) return { hash, skipped: true };
  }
  const { build } = await import('vite');
  // Built beside dist/web, then swapped in, so a running server never serves half a build.
  const tmp = join(root, 'dist', `web.${process.pid}.tmp`);
  rmSync(tmp, { recursive: true, force: true });
  // Vite takes the bundle's process.env.NODE_ENV from the environment before its `mode`, so both are set; the
  // caller's value is put back after.
  const callerNodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = WEB_BUILD_MODE;
  try {
    await build({
      configFile: join(web, 'vite.config.ts'),
      mode: WEB_BUILD_MODE,
      logLevel: 'warn',
      build: { outDir: tmp, emptyOutDir: true },
    });
  } finally {
    if (callerNodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = callerNodeEnv;
  }
  const old = join(root, 'dist', `web.${process.pid}.old`);
  if (existsSync(out)) renameSync(out, old);
  renameSync(tmp, out);
  rmSync(old, { recursive: true, force: true });
  writeFileSync(stamp, JSON.stringify({ hash, mode: WEB_BUILD_MODE, built_at: new Date().toISOString() }));
  return { hash, skipped: false };
}
