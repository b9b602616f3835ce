// The shared browser harness of the UI tests: Debian's Chromium through playwright-core (no browser download),
// a real `hub web serve` in its own process on the demo workspace (or a given root), every console error or
// warning and every page error collected (a test fails on any it did not expect), screenshots saved to
// test-artifacts/screenshots/<name>.png. One browser per test file; a fresh page per test.
//
//   import { describeBrowser, useBrowser } from './harness.js';
//   describeBrowser('my page', () => {
//     const ui = useBrowser();                     // demo workspace; useBrowser({ root, env }) for another
//     it('loads', async () => {
//       const page = await ui.open('/workspace');
//       await page.getByRole('heading', { name: 'Workspace' }).waitFor();
//       await ui.screenshot(page, 'workspace');
//     });
//   });
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { createDemo } from '../../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from '../fixtures/index.js';
import { type SpawnedServer, spawnWebServer } from '../spawn-server.js';

const REPO = join(import.meta.dirname, '..', '..');
export const SCREENSHOT_DIR = join(REPO, 'test-artifacts', 'screenshots');

/** Debian's Chromium: the real binary first (the /usr/bin one is a wrapper script). */
export const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));

/** Flags from DESIGN's platform notes: headless, no sandbox (root in CI), nothing that calls home. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Messages Chromium itself prints, not the page: with --disable-gpu, WebGL renders on SwiftShader and the
 * software compositor reads every WebGL frame back, so the first WebGL page of a browser logs this performance
 * note four times ("will no longer repeat"). It says nothing about the page under test.
 */
export const BROWSER_NOISE: readonly RegExp[] = [
  /^\[\.WebGL-0x[0-9a-f]+\]GL Driver Message \(OpenGL, Performance, GL_CLOSE_PATH_NV, High\): GPU stall due to ReadPixels/,
];

/** Like `describe`, skipped with one clear line when Chromium is not installed (`.ci/run` installs it). */
export function describeBrowser(name: string, fn: () => void): void {
  if (!CHROMIUM) {
    console.log(
      `browser tests skipped (${name}): Chromium not found at /usr/lib/chromium/chromium or /usr/bin/chromium; install it with apt-get install -y chromium`,
    );
    describe.skip(name, fn);
    return;
  }
  describe(name, fn);
}

export interface ConsoleIssue {
  kind: 'error' | 'warning' | 'pageerror' | 'requestfailed';
  text: string;
  url: string;
}

export interface BrowserOptions {
  /** Workspace to serve; default a fresh demo workspace (examples/demo-workspace.mjs). */
  root?: string;
  /** Environment of the server (e.g. HUB_SERVER_TOKEN). */
  env?: Record<string, string>;
  /** Viewport; default 1280x800. */
  viewport?: { width: number; height: number };
}

export interface BrowserUi {
  /** `http://127.0.0.1:<port>` of the running server. */
  readonly base: string;
  readonly root: string;
  readonly context: BrowserContext;
  readonly server: SpawnedServer;
  /** A new page at `path` (default light colour scheme), console tracked; waits for the load event. */
  open(path: string, opts?: { colorScheme?: 'light' | 'dark' }): Promise<Page>;
  /** Saves test-artifacts/screenshots/<name>.png (full page) and returns its path. */
  screenshot(page: Page, name: string): Promise<string>;
  /** Console messages matching one of these patterns do not fail the current test (reset after each test). */
  allowConsole(...patterns: RegExp[]): void;
  /** Issues collected so far in the current test. */
  issues(): readonly ConsoleIssue[];
  /** Another server (own process) on `root`, with extra `web serve` arguments, closed with the file's browser. */
  startServer(opts?: {
    root?: string;
    env?: Record<string, string>;
    args?: string[];
  }): Promise<SpawnedServer>;
}

/** Registers beforeAll/afterEach/afterAll hooks: one browser and one server for the file. */
export function useBrowser(opts: BrowserOptions = {}): BrowserUi {
  let dir: string;
  let context: BrowserContext;
  let server: SpawnedServer;
  let root: string;
  const extraServers: SpawnedServer[] = [];
  let collected: ConsoleIssue[] = [];
  let allowed: RegExp[] = [];
  const pages: Page[] = [];

  beforeAll(async () => {
    if (!existsSync(join(REPO, 'dist', 'web', 'index.html'))) {
      throw new Error('dist/web is missing: run `npm run build` (it builds the UI) before the browser tests');
    }
    dir = createTempDir('hub-browser-');
    root = opts.root ?? createDemo(join(dir, 'demo')).root;
    [server, context] = await Promise.all([
      spawnWebServer(root, { env: opts.env }),
      chromium.launchPersistentContext(join(dir, 'profile'), {
        executablePath: CHROMIUM!,
        headless: true,
        args: CHROMIUM_ARGS,
        viewport: opts.viewport ?? { width: 1280, height: 800 },
      }),
    ]);
  });

  afterEach(async () => {
    const unexpected = collected.filter((i) => ![...allowed, ...BROWSER_NOISE].some((re) => re.test(i.text)));
    collected = [];
    allowed = [];
    await Promise.all(pages.splice(0).map((p) => p.close().catch(() => {})));
    if (unexpected.length > 0) {
      throw new Error(
        `the browser reported ${unexpected.length} console error(s) or warning(s):\n` +
          unexpected.map((i) => `  [${i.kind}] ${i.text}${i.url ? ` (${i.url})` : ''}`).join('\n'),
      );
    }
  });

  afterAll(async () => {
    await context?.close().catch(() => {});
    await Promise.all([server, ...extraServers].map((s) => s?.close()));
    if (dir) removeTempDir(dir);
  });

  const track = (page: Page) => {
    page.on('console', (msg) => {
      const type = msg.type();
      if (type === 'error' || type === 'warning') {
        collected.push({
          kind: type === 'error' ? 'error' : 'warning',
          text: msg.text(),
          url: msg.location().url,
        });
      }
    });
    page.on('pageerror', (err) => collected.push({ kind: 'pageerror', text: String(err), url: page.url() }));
  };

  return {
    get base() {
      return server.base;
    },
    get root() {
      return root;
    },
    get context() {
      return context;
    },
    get server() {
      return server;
    },
    async open(path, o = {}) {
      const page = await context.newPage();
      pages.push(page);
      track(page);
      await page.emulateMedia({ colorScheme: o.colorScheme ?? 'light' });
      await page.goto(/^[a-z][a-z+.-]*:/i.test(path) ? path : `${server.base}${path}`, { waitUntil: 'load' });
      return page;
    },
    async screenshot(page, name) {
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      const file = join(SCREENSHOT_DIR, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    allowConsole(...patterns) {
      allowed.push(...patterns);
    },
    issues() {
      return collected;
    },
    async startServer(o = {}) {
      const s = await spawnWebServer(o.root ?? root, { env: o.env, args: o.args });
      extraServers.push(s);
      return s;
    },
  };
}
