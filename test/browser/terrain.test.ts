// The Repository Terrain page in a real Chromium against a real `hub web serve` on the demo workspace, whose
// checkouts are given local work, a feature branch, a remote they are behind, a merge conflict and an AGENTS.md
// (varyDemo), so every layer has tiles. What is drawn is read from the page's read-only `window.__hubTerrain`.
import { join } from 'node:path';
import type { Page, Request, Route } from 'playwright-core';
import { expect, it } from 'vitest';
import { createDemo } from '../../examples/demo-workspace.mjs';
import { createTempDir } from '../fixtures/index.js';
import { describeBrowser, useBrowser } from './harness.js';
import { varyDemo } from './terrain-workspace.js';

const LAYERS = [
  'synced',
  'bulge',
  'depression',
  'branch',
  'cracks',
  'ci',
  'pulse',
  'arcs',
  'ownership',
  'agent',
] as const;

interface LayerDebug {
  visible: boolean;
  instances: number;
  drawCalls: number;
}
interface TerrainDebug {
  detail: 'manifest' | 'enriched' | null;
  total: number;
  tiles: number;
  drawCalls: number;
  frames: number;
  selected: string | null;
  webgl: boolean;
  drawMode: 'instanced' | 'merged';
  background: string;
  layers: Record<(typeof LAYERS)[number], LayerDebug>;
}

const debug = (page: Page) =>
  page.evaluate(() => (window as unknown as { __hubTerrain: TerrainDebug }).__hubTerrain);

/** Waits until the enriched rows are drawn (a frame after they arrived). */
async function enriched(page: Page): Promise<TerrainDebug> {
  await page.getByRole('heading', { level: 1, name: 'Terrain' }).waitFor();
  await page.waitForFunction(() => {
    const t = (window as unknown as { __hubTerrain?: TerrainDebug }).__hubTerrain;
    return t?.detail === 'enriched' && t.tiles === t.total && t.frames > 0;
  });
  // The model was handed to the scene with a frame requested: two animation frames later it is drawn.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return debug(page);
}

/** A PNG of the 3D view alone. */
const viewPixels = (page: Page) => page.locator('.terrain-view__canvas').screenshot();

/** Toggles a layer's checkbox and waits for a frame drawn after it. */
async function toggle(page: Page, label: string): Promise<TerrainDebug> {
  const at = (await debug(page)).frames;
  await page.getByRole('checkbox', { name: label }).click();
  await page.waitForFunction(
    (f) => (window as unknown as { __hubTerrain: TerrainDebug }).__hubTerrain.frames > f,
    at,
  );
  return debug(page);
}

const LABELS: Record<(typeof LAYERS)[number], string> = {
  synced: 'Synced tile',
  bulge: 'Unpushed / uncommitted bulge',
  depression: 'Behind-remote depression',
  branch: 'Branch colour',
  cracks: 'Conflict cracks',
  ci: 'CI beacon',
  pulse: 'Activity pulse',
  arcs: 'Dependency arcs',
  ownership: 'Ownership heatmap',
  agent: 'Agent-readiness marker',
};

const demoRoot = (() => {
  const root = createDemo(join(createTempDir('hub-terrain-demo-'), 'demo')).root;
  varyDemo(root);
  return root;
})();

describeBrowser('Repository Terrain page (demo)', () => {
  const ui = useBrowser({ root: demoRoot });

  // Instanced layers (a GPU) and merged buffers (software WebGL, this browser's default): both one call a layer.
  it.each(['instanced', 'merged'] as const)(
    'asks for detail=manifest before detail=enriched and draws a tile per repository, every layer in one draw call (%s)',
    async (draw) => {
      const requests: string[] = [];
      const record = (r: Request) => {
        if (r.url().includes('/v3/ops/terrain')) requests.push(r.url());
      };
      ui.context.on('request', record);
      try {
        const page = await ui.open(`/terrain?draw=${draw}`);
        const t = await enriched(page);
        expect(t.drawMode).toBe(draw);
        const details = requests.map((u) => new URL(u).searchParams.get('detail'));
        expect(details[0]).toBe('manifest');
        expect(details.indexOf('enriched')).toBeGreaterThan(details.lastIndexOf('manifest'));
        expect(t.webgl).toBe(true);
        expect(t.total).toBe(6);
        expect(t.tiles).toBe(6);
        expect(t.layers.synced.instances).toBe(6);
        // varyDemo: identity (uncommitted), gateway (feature branch), catalog (conflict) bulge; cloud-infra is behind.
        expect(t.layers.bulge.instances).toBe(3);
        expect(t.layers.depression.instances).toBe(1);
        // One conflicted checkout, cracked on its lid and on top of its bulge.
        expect(t.layers.cracks.instances).toBe(2);
        expect(t.layers.branch.instances).toBe(5);
        for (const id of LAYERS) {
          expect(t.layers[id].drawCalls, id).toBe(1);
          expect(t.layers[id].instances, id).toBeGreaterThan(0);
        }
        // Ten layers and the ground plates; nothing selected, so no selection outline.
        expect(t.drawCalls).toBe(11);
        expect(await page.getByRole('listbox').getByRole('option').count()).toBe(6);
        await expect
          .poll(() => page.getByRole('status').first().textContent())
          .toMatch(/6 repositories, git state read/);
        await ui.screenshot(page, draw === 'merged' ? 'terrain' : 'terrain-instanced');
      } finally {
        ui.context.off('request', record);
      }
    },
  );

  it('turning each layer off removes its draw call and changes the picture; on again brings it back', async () => {
    const page = await ui.open('/terrain');
    // Reduced motion: the pulse stands still, so two pictures differ only by what the layers draw.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const before = await enriched(page);
    for (const id of LAYERS) {
      const still = await viewPixels(page);
      const off = await toggle(page, LABELS[id]);
      expect(off.layers[id].drawCalls, id).toBe(0);
      expect(off.layers[id].visible, id).toBe(false);
      expect(off.drawCalls, id).toBe(before.drawCalls - 1);
      expect(Buffer.compare(await viewPixels(page), still), `${id} changes the picture`).not.toBe(0);
      const on = await toggle(page, LABELS[id]);
      expect(on.layers[id].drawCalls, id).toBe(1);
      expect(on.drawCalls, id).toBe(before.drawCalls);
    }
    await page.getByRole('button', { name: 'Hide every layer' }).click();
    await expect.poll(async () => (await debug(page)).drawCalls).toBe(1);
    await page.getByRole('button', { name: 'Show every layer' }).click();
    await expect.poll(async () => (await debug(page)).drawCalls).toBe(before.drawCalls);
  });

  it.each(['instanced', 'merged'] as const)(
    'clicking a tile (a raycast: instanceId or faceIndex back to the tile) opens its card: id, project, path, git, CI, owner, agent, dependencies (%s)',
    async (draw) => {
      const page = await ui.open(`/terrain?draw=${draw}`);
      await enriched(page);
      const at = await page.evaluate(() =>
        (
          window as unknown as { __hubTerrain: { locate(id: string): { x: number; y: number } | null } }
        ).__hubTerrain.locate('repo:platform/identity'),
      );
      expect(at).not.toBeNull();
      await page.mouse.click(at!.x, at!.y);
      const card = page.getByRole('complementary', { name: 'platform/identity' });
      await card.waitFor();
      const text = (await card.textContent()) ?? '';
      for (const want of [
        'platform/identity',
        'platform',
        'on main (default)',
        '3 uncommitted',
        'declared and found',
        'identity',
        'ready',
        'storefront/web',
        'platform/gateway',
      ]) {
        expect(text, want).toContain(want);
      }
      expect((await debug(page)).selected).toBe('repo:platform/identity');
      // One more draw call: the selection outline.
      expect((await debug(page)).drawCalls).toBe(12);
      // A dependency in the card selects the other end.
      await card.getByRole('button', { name: 'storefront/web' }).click();
      await page.getByRole('complementary', { name: 'storefront/web' }).waitFor();
      if (draw === 'merged') await ui.screenshot(page, 'terrain-card');
    },
  );

  it('works by keyboard: the repository list selects, arrows move between tiles, Enter opens the card, Escape clears', async () => {
    const page = await ui.open('/terrain');
    await enriched(page);
    const list = page.getByRole('listbox', { name: 'Repositories on the terrain' });
    await list.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.getByRole('complementary', { name: 'platform/gateway' }).waitFor();
    expect((await debug(page)).selected).toBe('repo:platform/gateway');

    const view = page.getByRole('application', { name: /Terrain of 6 repositories/ });
    await view.focus();
    const outline = await view.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe('none');
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await debug(page)).selected).not.toBe('repo:platform/gateway');
    const moved = (await debug(page)).selected;
    expect(moved).toMatch(/^repo:/);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('terrain-card-title');
    await view.focus();
    for (const key of ['+', '-', '[', ']', 'Shift+ArrowUp', 'Home']) await page.keyboard.press(key);
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await debug(page)).selected).toBeNull();
    expect(await page.getByRole('complementary').count()).toBe(0);
  });

  it('is readable in the dark theme', async () => {
    const page = await ui.open('/terrain', { colorScheme: 'dark' });
    const t = await enriched(page);
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(t.background.slice(i, i + 2), 16));
    expect((0.2126 * r! + 0.7152 * g! + 0.0722 * b!) / 255).toBeLessThan(0.3);
    await ui.screenshot(page, 'terrain-dark');
  });

  it('asks for detail=enriched only after every detail=manifest answer arrived, on the first visit and on a return', async () => {
    // What the browser sent and received for /v3/ops/terrain, in order: `ask manifest`, `got manifest`, ...
    const log: string[] = [];
    const detailOf = (url: string) => new URL(url).searchParams.get('detail');
    const page = await ui.open('about:blank');
    page.on('request', (r) => {
      if (r.url().includes('/v3/ops/terrain')) log.push(`ask ${detailOf(r.url())}`);
    });
    page.on('requestfinished', (r) => {
      if (r.url().includes('/v3/ops/terrain')) log.push(`got ${detailOf(r.url())}`);
    });
    // The page's clock, so the return comes after the answers went stale (manifest 15 s, git state 30 s).
    await page.clock.install();
    const inOrder = (entries: string[]) => {
      const firstEnriched = entries.indexOf('ask enriched');
      expect(entries[0], entries.join(', ')).toBe('ask manifest');
      expect(firstEnriched, entries.join(', ')).toBeGreaterThan(entries.lastIndexOf('got manifest'));
      expect(entries.lastIndexOf('ask manifest'), entries.join(', ')).toBeLessThan(firstEnriched);
    };
    await page.goto(`${ui.base}/terrain`);
    await page.waitForFunction(
      () => (window as unknown as { __hubTerrain?: TerrainDebug }).__hubTerrain?.detail === 'enriched',
    );
    // The page can draw the answer before Playwright reports the request finished: wait for that report, so it
    // cannot land in the return visit's log.
    await expect.poll(() => log.includes('got enriched'), { timeout: 30_000 }).toBe(true);
    inOrder(log);

    // Away to the Workspace page, back after both answers went stale: read again, manifest first.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Workspace' }).click();
    await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
    await page.clock.fastForward(31_000);
    log.length = 0;
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Terrain' }).click();
    await page.getByRole('heading', { level: 1, name: 'Terrain' }).waitFor();
    // An answer to a request of the first visit (a refetch still in flight when the log was cleared) may be
    // reported first; the rule is about what this visit asks, so the log starts at its first ask, and the wait is
    // for this visit's own enriched answer (a late one of the first visit must not end it).
    const thisVisit = () => {
      const first = log.findIndex((e) => e.startsWith('ask '));
      return first < 0 ? [] : log.slice(first);
    };
    await expect.poll(() => thisVisit().includes('got enriched'), { timeout: 30_000 }).toBe(true);
    inOrder(thisVisit());
  });

  it('keeps the manifest tiles and shows the error when the enriched answer fails', async () => {
    ui.allowConsole(/status of 409/);
    const refuse = (route: Route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'conflict', message: 'git is busy', details: {} } }),
      });
    await ui.context.route(/\/v3\/ops\/terrain\?.*detail=enriched/, refuse);
    try {
      const page = await ui.open('/terrain');
      await page.getByRole('alert').getByText('git is busy').waitFor();
      await expect.poll(() => page.locator('.terrain__status').textContent()).toMatch(/could not be read/);
      // The refusal can arrive before the frame that draws the manifest's tiles (frames are drawn on demand, the
      // 409 is answered in the browser): wait for that frame rather than read the count once.
      await page.waitForFunction(
        () => (window as unknown as { __hubTerrain?: TerrainDebug }).__hubTerrain?.tiles === 6,
      );
      const t = await debug(page);
      expect(t.detail).toBe('manifest');
      expect(t.tiles).toBe(6);
      expect(t.layers.synced.drawCalls).toBe(1);
    } finally {
      await ui.context.unroute(/\/v3\/ops\/terrain\?.*detail=enriched/, refuse);
    }
  });

  it('without WebGL says so and still lists every repository with its card', async () => {
    const page = await ui.context.newPage();
    await page.addInitScript(() => {
      const get = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (
        this: HTMLCanvasElement,
        type: string,
        ...rest: unknown[]
      ) {
        if (/webgl/.test(type)) return null;
        return (get as (...a: unknown[]) => unknown).call(this, type, ...rest);
      } as typeof get;
    });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
    });
    await page.goto(`${ui.base}/terrain`);
    await page.getByRole('note').getByText('WebGL').waitFor();
    await page.getByRole('option', { name: /storefront\/catalog/ }).click();
    const card = page.getByRole('complementary', { name: 'storefront/catalog' });
    await card.waitFor();
    // The card follows the rows: manifest first, then the enriched git state.
    await expect.poll(() => card.textContent(), { timeout: 20_000 }).toContain('1 conflicted');
    await page.close();
    expect(errors).toEqual([]);
  });
});
