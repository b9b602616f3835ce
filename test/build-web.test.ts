// scripts/build-web.mjs builds the browser UI in production mode whoever starts it: vitest's global setup runs the
// build with NODE_ENV=test, which once gave a development React bundle that later counted as up to date.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWeb, WEB_BUILD_MODE, webBuildUpToDate } from '../scripts/build-web.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';

describe('web build mode', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) removeTempDir(d);
  });

  it('counts a stamp as up to date only with the same hash and the production mode', () => {
    expect(WEB_BUILD_MODE).toBe('production');
    expect(webBuildUpToDate({ hash: 'h', mode: 'production' }, 'h')).toBe(true);
    expect(webBuildUpToDate({ hash: 'h', mode: 'production' }, 'other')).toBe(false);
    // A stamp of an earlier build (no mode recorded) or of a development build is rebuilt.
    expect(webBuildUpToDate({ hash: 'h' }, 'h')).toBe(false);
    expect(webBuildUpToDate({ hash: 'h', mode: 'development' }, 'h')).toBe(false);
    expect(webBuildUpToDate({ hash: 'h', mode: 'test' }, 'h')).toBe(false);
    expect(webBuildUpToDate(undefined, 'h')).toBe(false);
  });

  it('builds in production mode and records it when started with NODE_ENV=test (a one-file UI)', async () => {
    const root = createTempDir('hub-web-build-');
    dirs.push(root);
    mkdirSync(join(root, 'web'));
    writeFileSync(
      join(root, 'web', 'index.html'),
      '<!doctype html><html><body><script type="module" src="./main.js"></script></body></html>',
    );
    writeFileSync(join(root, 'web', 'main.js'), "document.title = 'mode:' + process.env.NODE_ENV;\n");
    writeFileSync(
      join(root, 'web', 'vite.config.ts'),
      "import { fileURLToPath } from 'node:url';\nexport default { root: fileURLToPath(new URL('.', import.meta.url)), logLevel: 'silent' };\n",
    );
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = 'test';
    try {
      const r = await buildWeb(root, { force: false });
      expect(r.skipped).toBe(false);
      expect(process.env.NODE_ENV).toBe('test');
    } finally {
      process.env.NODE_ENV = before;
    }
    const stamp = JSON.parse(readFileSync(join(root, 'dist', 'web-build.json'), 'utf8'));
    expect(stamp.mode).toBe('production');
    const assets = join(root, 'dist', 'web', 'assets');
    const js = readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(assets, f), 'utf8'))
      .join('\n');
    expect(js).toContain('mode:production');
    expect(js).not.toContain('mode:test');
  });
});
