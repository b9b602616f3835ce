// Layout at a phone's width and with long values, measured in the browser rather than judged from screenshots:
// - tag chips show their whole text (nothing cut by the chip or by a cell) with long tag values and long filter
//   terms, at desktop width and at 420 px;
// - every page and view at 420 px: the document never scrolls sideways, every page link is on screen and
//   answers a click, no two controls, headings or chips overlap (each clipped to what its scrolling
//   containers show), and a drawing (terrain, graph) is not squeezed into a strip.
// Runs on the coordination seed (objectives, handoffs, claims, approvals) with long tags added to the manifest.
// Screenshots of each view at 420 px, light and dark, in test-artifacts/screenshots/narrow-*.png.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../fixtures/index.js';
import { hubIn, seedCoordination } from './coord-seed.js';
import { describeBrowser, useBrowser } from './harness.js';

const LONG_RUNBOOK =
  'https://wiki.example.com/display/PLATFORM/identity-service-operational-runbook-2024-edition';
const LONG_TEAM = 'identity-and-access-management-platform-reliability-group';

/** The identity repository gets long tag values: a long word, a URL, a value with spaces. */
function addLongTags(root: string): void {
  const file = join(root, '.hub.yml');
  const text = readFileSync(file, 'utf8');
  const before = 'tags: { team: identity, tier: critical }';
  if (!text.includes(before)) throw new Error('the demo manifest changed: update addLongTags');
  writeFileSync(
    file,
    text.replace(
      before,
      `tags: { team: ${LONG_TEAM}, tier: critical, runbook: "${LONG_RUNBOOK}", escalation: "page the identity on-call engineer first, then the platform lead" }`,
    ),
  );
}

/** A campaign with long values: a long title, note and merge request URL (its land preview finds no branches). */
function addCampaign(root: string): void {
  const hub = (...args: string[]) => hubIn(root, args);
  hub(
    'campaign',
    'new',
    '--slug',
    'identity-rollout',
    '--title',
    'Roll the identity SDK v3 out to every service that signs or verifies tokens',
    '--repo',
    'platform/identity',
    '--repo',
    'platform/gateway',
    '--goal',
    `Move every caller to the v3 SDK; the runbook is ${LONG_RUNBOOK}`,
    '--reference',
    'platform/identity',
  );
  hub(
    'campaign',
    'set',
    '--slug',
    'identity-rollout',
    '--repo',
    'platform/gateway',
    '--status',
    'blocked',
    '--note',
    `blocked until the ${LONG_TEAM} signs off the token lifetime change`,
    '--mr',
    `${LONG_RUNBOOK}/merge-requests/1234567890`,
  );
  hub('campaign', 'lesson', 'add', '--slug', 'identity-rollout', '--text', `Read ${LONG_RUNBOOK} first.`);
}

/**
 * Runs in the page. Each element's visible box is its box cut by every ancestor that clips (overflow other than
 * visible) on that axis; elements with nothing visible are left out.
 */
function measureLayout(selector: string): {
  overflow: { scroll: number; client: number };
  clipped: string[];
  overlaps: string[];
  covered: string[];
  squeezed: string[];
} {
  type Box = { l: number; t: number; r: number; b: number };
  const describe = (el: Element) => {
    const text = (el.getAttribute('aria-label') ?? el.textContent ?? '')
      .trim()
      .replace(/\s+/g, ' ')
      .slice(0, 40);
    const cls = el.getAttribute('class')?.split(' ')[0];
    return `<${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''}> "${text}"`;
  };
  // `hard`: only ancestors that cut (overflow hidden or clip); a scroller (auto, scroll) shows the rest on scroll.
  const clipOf = (el: Element, hard: boolean): Box => {
    let box: Box = { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity };
    const cuts = (v: string) => (hard ? v === 'hidden' || v === 'clip' : v !== 'visible');
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const s = getComputedStyle(a);
      const r = a.getBoundingClientRect();
      if (cuts(s.overflowX)) box = { ...box, l: Math.max(box.l, r.left), r: Math.min(box.r, r.right) };
      if (cuts(s.overflowY)) box = { ...box, t: Math.max(box.t, r.top), b: Math.min(box.b, r.bottom) };
    }
    return box;
  };
  const cut = (r: DOMRect, c: Box): Box | null => {
    const b = {
      l: Math.max(r.left, c.l),
      t: Math.max(r.top, c.t),
      r: Math.min(r.right, c.r),
      b: Math.min(r.bottom, c.b),
    };
    return b.r - b.l > 1 && b.b - b.t > 1 ? b : null;
  };
  const shown = (el: Element) => {
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.display === 'none') return false;
    const r = el.getBoundingClientRect();
    return r.width >= 4 && r.height >= 4;
  };
  const els = [...document.querySelectorAll(selector)].filter(shown);
  const boxes = new Map<Element, Box[]>();
  const clipped: string[] = [];
  for (const el of els) {
    const clip = clipOf(el, false);
    const rects = [...el.getClientRects()].map((r) => cut(r, clip)).filter((b): b is Box => b !== null);
    if (rects.length) boxes.set(el, rects);
    // A chip (or badge) partly cut by a clipping ancestor, or whose text is wider than the chip, is clipped.
    if (el.matches('.ws-tag, .ws-chip, .badge')) {
      const whole = el.getBoundingClientRect();
      const hard = clipOf(el, true);
      const cutX = whole.left < hard.l - 1 || whole.right > hard.r + 1;
      const cutY = whole.top < hard.t - 1 || whole.bottom > hard.b + 1;
      if (cutX || cutY || el.scrollWidth > el.clientWidth + 1) clipped.push(describe(el));
    }
  }
  const overlaps: string[] = [];
  const list = [...boxes.entries()];
  for (let i = 0; i < list.length; i++)
    for (let j = i + 1; j < list.length; j++) {
      const [a, ra] = list[i]!;
      const [b, rb] = list[j]!;
      if (a.contains(b) || b.contains(a)) continue;
      const hit = ra.some((x) =>
        rb.some(
          (y) => Math.min(x.r, y.r) - Math.max(x.l, y.l) > 1 && Math.min(x.b, y.b) - Math.max(x.t, y.t) > 1,
        ),
      );
      if (hit) overlaps.push(`${describe(a)} overlaps ${describe(b)}`);
    }
  // Controls in view answer a click at their centre (nothing drawn over them).
  const covered: string[] = [];
  for (const [el, rects] of boxes) {
    if (!el.matches('a[href], button, input, select, textarea, [role="tab"]')) continue;
    const r = rects[0]!;
    const x = (r.l + r.r) / 2;
    const y = (r.t + r.b) / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
    const top = document.elementFromPoint(x, y);
    if (top && !el.contains(top) && !top.contains(el) && top !== el.closest('label'))
      covered.push(`${describe(el)} is under ${describe(top)}`);
  }
  // A drawing (the terrain's WebGL canvas, the graph's canvases) gets the width of the page, not a strip of it.
  const squeezed: string[] = [];
  const page = document.documentElement.clientWidth;
  for (const c of document.querySelectorAll('canvas')) {
    const r = c.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.width < 0.8 * page)
      squeezed.push(
        `a canvas (${describe(c.parentElement ?? c)}) is ${Math.round(r.width)} of ${page} px wide`,
      );
  }
  return {
    overflow: { scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth },
    clipped,
    overlaps,
    covered,
    squeezed,
  };
}

const CHECKED = [
  'a[href]',
  'button',
  'input:not([type="hidden"])',
  'select',
  'textarea',
  '[role="tab"]',
  'h1',
  'h2',
  'h3',
  'h4',
  '.ws-tag',
  '.ws-chip',
  '.badge',
].join(', ');

async function settled(page: Page, heading: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 30_000 });
}

describeBrowser('Layout: narrow screens and long values', () => {
  let dir: string;
  const ws: { root?: string } = {};
  beforeAll(() => {
    dir = createTempDir('hub-layout-ui-');
    ws.root = seedCoordination(dir).root;
    addLongTags(ws.root);
    addCampaign(ws.root);
  });
  afterAll(() => removeTempDir(dir));
  const ui = useBrowser(ws);

  /** A page opened at this size from the start (so it first lays out at that width). */
  async function openAt(path: string, width: number, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
    const page = await ui.open('about:blank', { colorScheme: scheme });
    await page.setViewportSize({ width, height: 860 });
    await page.goto(`${ui.base}${path}`);
    return page;
  }

  it('shows tag chips whole with long tag values and long filter terms, at 1280 and 420 px', async () => {
    for (const width of [1280, 420]) {
      const page = await openAt(
        `/workspace/explorer?repo=platform%2Fidentity&q=${encodeURIComponent(`tag:runbook=${LONG_RUNBOOK}`)}`,
        width,
      );
      await settled(page, 'Workspace');
      await page.locator('.ws-details').getByText(`team=${LONG_TEAM}`).waitFor();
      await page.locator('.vtable').getByText(`team=${LONG_TEAM}`).waitFor();
      await page.getByRole('list', { name: 'Filter terms' }).waitFor();
      await ui.screenshot(page, `chips-explorer-${width}`);
      const m = await page.evaluate(measureLayout, '.ws-tag, .ws-chip');
      expect(m.clipped, `clipped chips at ${width} px`).toEqual([]);

      const repos = await openAt('/workspace', width);
      await settled(repos, 'Workspace');
      await repos.getByText(`team=${LONG_TEAM}`).first().waitFor();
      await ui.screenshot(repos, `chips-repositories-${width}`);
      const r = await repos.evaluate(measureLayout, '.ws-tag, .ws-chip');
      expect(r.clipped, `clipped chips in Repositories at ${width} px`).toEqual([]);
    }
  });

  const VIEWS: Array<{ path: string; heading: string; name: string; ready?: (p: Page) => Promise<unknown> }> =
    [
      { path: '/workspace', heading: 'Workspace', name: 'workspace-repositories' },
      {
        path: '/workspace/explorer?repo=platform%2Fidentity',
        heading: 'Workspace',
        name: 'workspace-explorer',
      },
      {
        path: '/workspace/search?q=identity',
        heading: 'Workspace',
        name: 'workspace-search',
        ready: (p) => p.getByRole('list', { name: 'Content results' }).waitFor(),
      },
      {
        path: '/workspace/graph',
        heading: 'Workspace',
        name: 'workspace-graph',
        ready: (p) => p.locator('.ws-graph__canvas[data-ready="true"]').waitFor(),
      },
      {
        path: '/workspace/graph?mode=components',
        heading: 'Workspace',
        name: 'workspace-component-graph',
        ready: (p) => p.locator('.ws-graph__canvas[data-ready="true"]').waitFor(),
      },
      { path: '/config/manifest', heading: 'Config Studio', name: 'config-manifest' },
      { path: '/config/appconfig', heading: 'Config Studio', name: 'config-appconfig' },
      {
        path: '/agents?template=repo-implementer&vendor=claude_code',
        heading: 'Agents',
        name: 'agents-templates',
        ready: (p) => p.getByRole('region', { name: /Preview of/ }).waitFor(),
      },
      { path: '/agents?tab=objectives', heading: 'Agents', name: 'agents-objectives' },
      { path: '/agents?tab=sessions', heading: 'Agents', name: 'agents-sessions' },
      {
        path: '/terrain',
        heading: 'Terrain',
        name: 'terrain',
        // The first frame that shows the git state has been drawn (the frames are drawn on demand).
        ready: (p) =>
          p.waitForFunction(
            () =>
              typeof (window as { __hubTerrain?: { marks: { enriched: number | null } } }).__hubTerrain?.marks
                .enriched === 'number',
          ),
      },
      { path: '/console', heading: 'Console', name: 'console' },
      {
        path: '/campaigns?campaign=identity-rollout',
        heading: 'Campaigns',
        name: 'campaigns',
        ready: (p) => p.getByRole('region', { name: 'Campaign rows' }).getByRole('row').nth(1).waitFor(),
      },
    ];

  for (const v of VIEWS)
    it(`lays out ${v.name} at 420 px: no sideways scroll, page links on screen, nothing overlapping or clipped`, async () => {
      const problems: string[] = [];
      for (const scheme of ['light', 'dark'] as const) {
        const page = await openAt(v.path, 420, scheme);
        await settled(page, v.heading);
        if (v.ready) await v.ready(page);
        await ui.screenshot(page, `narrow-${v.name}-${scheme}`);
        if (scheme === 'dark') continue; // the same boxes; the screenshot is what dark adds
        const m = await page.evaluate(measureLayout, CHECKED);
        if (m.overflow.scroll > m.overflow.client)
          problems.push(`the document is ${m.overflow.scroll} px wide in a ${m.overflow.client} px window`);
        problems.push(...m.overlaps, ...m.covered, ...m.squeezed, ...m.clipped.map((c) => `clipped ${c}`));
        const nav = page.getByRole('navigation', { name: 'Pages' });
        for (const link of await nav.getByRole('link').all()) {
          const box = await link.boundingBox();
          if (!box || box.x < 0 || box.x + box.width > 420)
            problems.push(
              `the page link "${await link.textContent()}" is off screen (${JSON.stringify(box)})`,
            );
        }
      }
      expect(problems).toEqual([]);
    });

  it('follows every page link at 420 px', async () => {
    const page = await openAt('/workspace', 420);
    await settled(page, 'Workspace');
    for (const name of ['Campaigns', 'Console', 'Terrain', 'Agents', 'Config Studio', 'Workspace']) {
      await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name }).click();
      await page.getByRole('heading', { level: 1, name }).waitFor();
    }
  });
});
