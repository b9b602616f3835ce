// The Workspace page on a generated 5,000-repository workspace (url-only repos, 50 projects, tags, a checkout
// folder every 250th): the rows render and scroll (only the rows in view are in the page), the Explorer filter
// keeps exactly the rows each term names, and the graph draws every node. Speed is measured in
// bench/ui-workspace.mjs, not here.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../fixtures/index.js';
import { LANGUAGES, TEAMS, TIERS, writeBigWorkspace } from './big-workspace.js';
import { graphSpan } from './graph-span.js';
import { describeBrowser, useBrowser } from './harness.js';

const dir = createTempDir('hub-ui-big-');
const big = writeBigWorkspace(join(dir, 'ws'));
afterAll(() => removeTempDir(dir));

/** What the generator gave repo `i` of project `p` (the same rules, read back for the expected counts). */
const repos = Array.from({ length: big.repos }, (_, i) => {
  const p = Math.floor(i / 100);
  return {
    project: big.projects[p]!,
    team: TEAMS[(p + i) % TEAMS.length]!,
    tier: TIERS[i % TIERS.length]!,
    language: LANGUAGES[i % LANGUAGES.length]!,
    publicApi: i % 7 === 0,
    synced: i % 250 === 0,
  };
});
const count = (pred: (r: (typeof repos)[number]) => boolean) => repos.filter(pred).length;

async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 30_000 });
}

/** The "N of 5,000 repositories" line, once every page has arrived. */
async function shown(page: Page): Promise<number> {
  const text = (await page.locator('#ws-filter-count').textContent()) ?? '';
  const m = /^([\d,]+)(?: of [\d,]+)? repositories$/.exec(text.trim());
  return m ? Number(m[1]!.replace(/,/g, '')) : Number.NaN;
}

describeBrowser('Workspace page, 5,000 repositories', () => {
  const ui = useBrowser({ root: big.root });

  it('Repositories: rows render, only those in view are in the page, and they scroll to the last one', async () => {
    const page = await ui.open('/workspace');
    await settled(page);
    const table = page.getByRole('region', { name: 'Repositories' });
    await table.getByRole('cell', { name: 'platform-00/repo-0000' }).waitFor();
    await expect
      .poll(() => page.getByRole('list', { name: 'Counts' }).textContent(), { timeout: 30_000 })
      .toMatch(/5,000 repositories.*50 projects.*20 synced/);
    expect(await table.getAttribute('aria-label')).toBe('Repositories');
    expect(await table.locator('table').getAttribute('aria-rowcount')).toBe('5001');
    expect(await table.locator('tbody tr').count()).toBeLessThan(80);
    await ui.screenshot(page, 'workspace-big-repositories');
    await table.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const last = `${big.projects[49]}/repo-4999`;
    await table.getByRole('cell', { name: last }).waitFor();
    expect(await table.locator('tbody tr').count()).toBeLessThan(80);
    await table.evaluate((el) => {
      el.scrollTop = el.scrollHeight / 2;
    });
    await table
      .getByRole('cell', { name: /\/repo-25\d\d$/ })
      .first()
      .waitFor();
  });

  it('Explorer: the filter keeps exactly the rows each term and each combination names', async () => {
    const page = await ui.open('/workspace/explorer');
    await settled(page);
    await expect.poll(() => shown(page), { timeout: 30_000 }).toBe(5000);
    const input = page.getByLabel('Filter', { exact: true });
    const cases: Array<[string, number]> = [
      [`project:${big.projects[7]}`, 100],
      ['status:synced', count((r) => r.synced)],
      ['status:missing', count((r) => !r.synced)],
      ['#public-api', count((r) => r.publicApi)],
      ['tag:tier=experimental', count((r) => r.tier === 'experimental')],
      ['tag:language=rust tag:team=search', count((r) => r.language === 'rust' && r.team === 'search')],
      [
        `project:${big.projects[3]} #tier=critical`,
        count((r) => r.project === big.projects[3] && r.tier === 'critical'),
      ],
      // Free text: repo-4200 .. repo-4299.
      ['repo-42', 100],
    ];
    for (const [q, want] of cases) {
      await input.fill(q);
      await expect.poll(() => shown(page), { message: q }).toBe(want);
    }
    // The rows in view are the ones that pass.
    await input.fill(`status:synced ${big.projects[10]}`);
    await expect
      .poll(() => page.locator('.ws-rowbtn').allTextContents())
      .toEqual(big.present.filter((id) => id.startsWith(`${big.projects[10]}/`)));
    await input.fill('#public-api status:synced');
    await expect.poll(() => shown(page)).toBe(count((r) => r.publicApi && r.synced));
    await ui.screenshot(page, 'workspace-big-explorer');
  });

  it('Explorer: a repository linked from elsewhere is scrolled into view, also the last of 5,000', async () => {
    const last = `${big.projects[49]}/repo-4999`;
    const page = await ui.open(`/workspace/explorer?repo=${encodeURIComponent(last)}`);
    await settled(page);
    await expect.poll(() => shown(page), { timeout: 30_000 }).toBe(5000);
    const row = page.locator('.ws-rowbtn[aria-current="true"]');
    await row.waitFor();
    expect(await row.textContent()).toBe(last);
    // Wholly inside the table's scrolling area, below its sticky header.
    const inView = await row.evaluate((el) => {
      const scroller = el.closest('.vtable')!;
      const head = scroller.querySelector('thead')!.getBoundingClientRect();
      const r = el.closest('tr')!.getBoundingClientRect();
      return r.top >= head.bottom - 1 && r.bottom <= scroller.getBoundingClientRect().bottom + 1;
    });
    expect(inView).toBe(true);
    // The arrow keys walk back up, each row kept in view.
    const input = page.getByLabel('Filter', { exact: true });
    await input.focus();
    for (let i = 0; i < 3; i++) await input.press('ArrowUp');
    await page.waitForURL((u) => u.searchParams.get('repo') === `${big.projects[49]}/repo-4996`);
    await expect.poll(() => row.textContent()).toBe(`${big.projects[49]}/repo-4996`);
  });

  it('Graph: every project and repository is drawn (computed positions, no force layout), filling the canvas', async () => {
    const page = await ui.open('/workspace/graph');
    await settled(page);
    const canvas = page.locator('.ws-graph__canvas[data-ready="true"]');
    await canvas.waitFor({ timeout: 30_000 });
    await expect
      .poll(() =>
        canvas.evaluate((el) => [el.getAttribute('data-nodes'), el.getAttribute('data-visible-structure')]),
      )
      .toEqual(['5050', '5000']);
    await ui.screenshot(page, 'workspace-big-graph');
    const span = await graphSpan(canvas);
    expect(span.inside).toBe(true);
    expect(span.x, 'width spanned').toBeGreaterThan(0.8);
    expect(span.y, 'height spanned').toBeGreaterThan(0.8);
  });
});
