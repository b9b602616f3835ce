// The Repository Terrain page on a generated 5,000-repository workspace (url-only repositories over 25 projects,
// team tags, declared CI, agent instructions, 200 declared relationships): 5,000 tiles, one draw call per layer,
// picking at that size; then the same rows with every layer populated (fillLayers on the enriched answers, in
// the browser's network layer) so all ten layers draw 5,000 tiles' worth of instances in ten calls.
import type { Page, Request, Route } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../fixtures/index.js';
import { describeBrowser, useBrowser } from './harness.js';
import { fillLayers, writeTerrainWorkspace } from './terrain-workspace.js';

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

interface TerrainDebug {
  detail: 'manifest' | 'enriched' | null;
  total: number;
  tiles: number;
  drawCalls: number;
  frames: number;
  selected: string | null;
  drawMode: 'instanced' | 'merged';
  layers: Record<(typeof LAYERS)[number], { visible: boolean; instances: number; drawCalls: number }>;
}
type Hooked = { __hubTerrain: TerrainDebug & { locate(id: string): { x: number; y: number } | null } };

const debug = (page: Page) => page.evaluate(() => (window as unknown as Hooked).__hubTerrain);

async function drawn(page: Page, detail: 'manifest' | 'enriched'): Promise<TerrainDebug> {
  await page.waitForFunction(
    (d) => {
      const t = (window as unknown as Partial<Hooked>).__hubTerrain;
      return t?.tiles === 5000 && t.frames > 0 && (d === 'manifest' || t.detail === 'enriched');
    },
    detail,
    { timeout: 45_000 },
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  return debug(page);
}

const dir = createTempDir('hub-terrain-5000-');
const ws = writeTerrainWorkspace(dir, 5000, 25);

describeBrowser('Repository Terrain page (5,000 repositories)', () => {
  const ui = useBrowser({ root: ws.root });
  afterAll(() => removeTempDir(dir));

  it('pages through the manifest then the enriched rows, draws 5,000 tiles with one draw call per layer, and picks a tile among them', async () => {
    const asked: string[] = [];
    const record = (r: Request) => {
      const u = new URL(r.url());
      if (u.pathname === '/v3/ops/terrain')
        asked.push(['detail', 'limit', 'offset'].map((k) => `${k}=${u.searchParams.get(k)}`).join('&'));
    };
    ui.context.on('request', record);
    const page = await ui.open('/terrain');
    const m = await drawn(page, 'manifest');
    expect(m.total).toBe(5000);
    expect(m.layers.synced.instances).toBe(5000);
    // At manifest detail: tags (ownership), declared CI, manifest agent instructions and declared relationships.
    expect(m.layers.ci.instances).toBe(1675);
    expect(m.layers.agent.instances).toBe(1000);
    expect(m.layers.arcs.instances).toBe(ws.relationships);
    expect(m.layers.ownership.instances).toBe(5000);
    let populated = 0;
    for (const id of LAYERS) {
      const l = m.layers[id];
      expect(l.drawCalls, id).toBe(l.instances > 0 ? 1 : 0);
      populated += l.drawCalls;
    }
    expect(m.drawCalls).toBe(populated + 1);

    const e = await drawn(page, 'enriched');
    expect(e.tiles).toBe(5000);
    ui.context.off('request', record);
    // A small first page (tiles sooner), the rest in one; then the enriched rows in pages of 2,000.
    expect(asked).toEqual([
      'detail=manifest&limit=1000&offset=0',
      'detail=manifest&limit=5000&offset=1000',
      'detail=enriched&limit=2000&offset=0',
      'detail=enriched&limit=2000&offset=2000',
      'detail=enriched&limit=2000&offset=4000',
    ]);
    await page.getByLabel('Layout').selectOption('blocks');
    await page.waitForFunction(() => (window as unknown as Hooked).__hubTerrain.frames > 0);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const id = 'repo:proj-12/svc-97';
    const at = await page.evaluate((i) => (window as unknown as Hooked).__hubTerrain.locate(i), id);
    expect(at).not.toBeNull();
    await page.mouse.click(at!.x, at!.y);
    await page.getByRole('complementary', { name: 'proj-12/svc-97' }).waitFor();
    expect((await debug(page)).selected).toBe(id);
    await page.getByRole('button', { name: 'Close the card' }).click();
    await expect.poll(async () => (await debug(page)).selected).toBeNull();
    await ui.screenshot(page, 'terrain-5000');
  });

  it.each(['merged', 'instanced'] as const)(
    'draws every layer for 5,000 tiles in one call each (%s)',
    async (draw) => {
      const fill = async (route: Route) => {
        const res = await route.fetch();
        await route.fulfill({ response: res, json: fillLayers(await res.json()) });
      };
      await ui.context.route(/\/v3\/ops\/terrain\?.*detail=enriched/, fill);
      try {
        const page = await ui.open(`/terrain?draw=${draw}`);
        await page.getByLabel('Layout').selectOption('blocks');
        const t = await drawn(page, 'enriched');
        expect(t.drawMode).toBe(draw);
        for (const id of LAYERS) {
          expect(t.layers[id].instances, id).toBeGreaterThan(0);
          expect(t.layers[id].drawCalls, id).toBe(1);
        }
        expect(t.layers.synced.instances).toBe(5000);
        // fillLayers: eight of nine rows get git state, each a default-, feature-, hotfix- or develop-branch lid.
        expect(t.layers.branch.instances).toBe(
          Array.from({ length: 5000 }, (_, i) => i % 9).filter((k) => k !== 8).length,
        );
        expect(t.drawCalls).toBe(LAYERS.length + 1);
        if (draw === 'instanced') return;
        await ui.screenshot(page, 'terrain-5000-layers');
        // Closer: a tile chosen from the list, then zoomed towards it by keyboard.
        await page.getByRole('listbox').focus();
        for (let i = 0; i < 15; i++) await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Enter');
        await page.getByRole('application').focus();
        for (let i = 0; i < 9; i++) await page.keyboard.press('+');
        await page.getByRole('button', { name: 'Close the card' }).click();
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await ui.screenshot(page, 'terrain-5000-zoom');
      } finally {
        await ui.context.unroute(/\/v3\/ops\/terrain\?.*detail=enriched/, fill);
      }
    },
  );
});
