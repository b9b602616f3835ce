#!/usr/bin/env node
// The Repository Terrain page in headless Chromium (Debian's) against a real `hub web serve` on a generated
// workspace of 5,000 url-only repositories (test/browser/terrain-workspace.ts): time from navigation to the first
// frame with tiles (the first manifest page), with every repository's tile and with every enriched row; then the frame time with 5,000
// tiles and every layer on and populated (the enriched answers get git states, activity, CI and agent readiness in
// the browser's network layer: url-only rows have none), from requestAnimationFrame deltas while the activity
// pulse animates; and the gzipped size of the page's JavaScript and CSS.
// Usage: node bench/ui-terrain.mjs [--repos 5000] [--runs 3] [--frames 120] [--gpu] [--quick]
//   --quick: 100 repositories, 1 run, 5 frames after 2 untimed ones.
//   --gpu: Chromium without --disable-gpu, WebGL and compositing both on SwiftShader (--use-angle=swiftshader
//   --enable-unsafe-swiftshader); the default is the test harness's flags (--disable-gpu: WebGL on SwiftShader,
//   software compositing, each frame read back).
// stdout: exactly one JSON object. Needs `npm run build` (dist/web) and /usr/bin/chromium; without Chromium it
// prints {bench, skipped} and exits 0, as the browser tests skip.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { createTempDir, HUB_BIN, median, progress, QUICK, ROOT, round, runBench } from './lib/measure.mjs';

const { values } = parseArgs({
  options: {
    repos: { type: 'string', default: QUICK ? '100' : '5000' },
    runs: { type: 'string', default: QUICK ? '1' : '3' },
    frames: { type: 'string', default: QUICK ? '5' : '120' },
    gpu: { type: 'boolean', default: false },
    quick: { type: 'boolean' },
  },
});
const REPOS = Number(values.repos);
const RUNS = Number(values.runs);
const FRAMES = Number(values.frames);

const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));
const BASE_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ARGS = values.gpu
  ? [...BASE_ARGS, '--use-angle=swiftshader', '--enable-unsafe-swiftshader']
  : [...BASE_ARGS, '--disable-gpu'];

/** test/browser/terrain-workspace.ts, bundled (it is TypeScript) into a temp module. */
async function fixtures(dir) {
  const { build } = await import('esbuild');
  const outfile = join(dir, 'terrain-workspace.mjs');
  await build({
    entryPoints: [join(ROOT, 'test/browser/terrain-workspace.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    logLevel: 'error',
  });
  return import(pathToFileURL(outfile).href);
}

/** `hub web serve --port 0` on root; resolves with its base URL and a stop function. */
function serve(root, cacheDir) {
  const child = spawn(process.execPath, [HUB_BIN, 'web', 'serve', '--root', root, '--port', '0'], {
    env: { ...process.env, HUB_CACHE_DIR: cacheDir, HUB_DAEMON: 'off', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /url=(http:\/\/\S+?)\/?\s/.exec(out);
      if (m) resolve({ base: m[1], stop: () => child.kill('SIGTERM') });
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => reject(new Error(`hub web serve exited ${code}: ${err.trim()}`)));
  });
}

const hook = () => window.__hubTerrain;

/** Opens /terrain and returns the page's marks (ms from navigation start) once every enriched row is drawn. */
async function load(context, base, query = '') {
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${base}/terrain${query}`);
  await page.waitForFunction(() => window.__hubTerrain?.marks?.enriched != null, null, { timeout: 300_000 });
  const t = await page.evaluate(hook);
  // When the first manifest page's answer was in (resource timing): the rest of first_tiles is the page's work.
  t.manifestResponse = await page.evaluate(
    () =>
      performance
        .getEntriesByType('resource')
        .find((e) => e.name.includes('/v3/ops/terrain') && e.name.includes('detail=manifest'))?.responseEnd ??
      null,
  );
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  return { page, t };
}

/** requestAnimationFrame deltas over n frames (the page renders every frame while the pulse animates). */
function frameDeltas(page, n) {
  return page.evaluate(
    (count) =>
      new Promise((resolve) => {
        const deltas = [];
        let last = 0;
        const step = (now) => {
          if (last) deltas.push(now - last);
          last = now;
          if (deltas.length < count) requestAnimationFrame(step);
          else resolve(deltas);
        };
        requestAnimationFrame(step);
      }),
    n,
  );
}

function chunkSizes() {
  const dir = join(ROOT, 'dist', 'web', 'assets');
  const files = readdirSync(dir);
  const gz = (prefix, ext) => {
    const f = files.find((x) => x.startsWith(prefix) && x.endsWith(ext));
    return f ? gzipSync(readFileSync(join(dir, f)), { level: 9 }).length : 0;
  };
  const scene = gz('scene-', '.js');
  const page = gz('terrain-', '.js');
  const css = gz('terrain-', '.css');
  return { three_scene_js: scene, page_js: page, css, total: scene + page + css };
}

if (!CHROMIUM) {
  const skipped =
    'Chromium not found at /usr/lib/chromium/chromium or /usr/bin/chromium (apt-get install -y chromium)';
  process.stdout.write(`${JSON.stringify({ bench: 'ui-terrain', skipped })}\n`);
} else
  await runBench('ui-terrain', async ({ cleanup }) => {
    if (!existsSync(join(ROOT, 'dist', 'web', 'index.html')))
      throw new Error('dist/web is missing: npm run build');
    const { chromium } = await import('playwright-core');
    const dir = cleanup(createTempDir('hub-bench-ui-terrain-'));
    const { writeTerrainWorkspace, fillLayers } = await fixtures(dir);
    const ws = writeTerrainWorkspace(join(dir, 'ws'), REPOS, 25);
    progress(`workspace: ${ws.repos} repositories, ${ws.relationships} relationships`);
    const server = await serve(ws.root, join(dir, 'cache'));
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const first = [];
      const all = [];
      const enriched = [];
      const manifestIn = [];
      let renderer = '';
      for (let i = 0; i < RUNS; i++) {
        const { page, t } = await load(context, server.base);
        first.push(t.marks.firstTiles);
        all.push(t.marks.allTiles);
        manifestIn.push(t.manifestResponse);
        enriched.push(t.marks.enriched);
        renderer = t.renderer;
        if (t.tiles !== REPOS) throw new Error(`drew ${t.tiles} tiles, expected ${REPOS}`);
        progress(
          `run ${i + 1}: first tiles ${round(t.marks.firstTiles)} ms, enriched ${round(t.marks.enriched)} ms`,
        );
        await page.close();
      }

      await context.route(/\/v3\/ops\/terrain\?.*detail=enriched/, async (route) => {
        const res = await route.fetch();
        await route.fulfill({ response: res, json: fillLayers(await res.json()) });
      });
      // Frame time with every layer on and populated, in both forms of the layers (layer-mesh.ts).
      const frames = {};
      let instances = {};
      for (const draw of ['merged', 'instanced']) {
        const { page, t } = await load(context, server.base, `?draw=${draw}`);
        await page.getByLabel('Layout').selectOption('blocks');
        const layers = Object.entries(t.layers);
        const empty = layers.filter(([, l]) => l.instances === 0 || l.drawCalls !== 1).map(([id]) => id);
        if (empty.length) throw new Error(`${draw}: layers not drawn in one call: ${empty.join(', ')}`);
        instances = Object.fromEntries(layers.map(([id, l]) => [id, l.instances]));
        await frameDeltas(page, QUICK ? 2 : 10);
        const deltas = (await frameDeltas(page, FRAMES)).sort((a, b) => a - b);
        const after = await page.evaluate(hook);
        frames[draw] = {
          frame_ms_median: round(median(deltas)),
          frame_ms_p95: round(deltas[Math.min(deltas.length - 1, Math.floor(deltas.length * 0.95))]),
          fps: round(1000 / median(deltas)),
          draw_calls: after.drawCalls,
        };
        progress(`${draw}: median frame ${frames[draw].frame_ms_median} ms, ${after.drawCalls} draw calls`);
        await page.close();
      }
      return {
        repos: REPOS,
        runs: RUNS,
        flags: values.gpu ? 'gpu (swiftshader)' : 'harness (--disable-gpu)',
        renderer,
        first_tiles_ms: round(median(first)),
        all_tiles_ms: round(median(all)),
        manifest_response_ms: round(median(manifestIn)),
        enriched_ms: round(median(enriched)),
        frames: FRAMES,
        frame: frames,
        instances,
        load_average: round(loadavg()[0], 1),
        gzip_bytes: chunkSizes(),
        node: process.version,
      };
    } finally {
      await browser.close();
      server.stop();
      rmSync(join(dir, 'cache'), { recursive: true, force: true });
    }
  });
