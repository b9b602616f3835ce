// The Campaigns page in a real Chromium against a real `hub web serve` on a workspace of real git repositories
// whose campaigns were made through the CLI (campaign-seed.ts): the list with each campaign's counts, one
// campaign's rows (a `javascript:` merge request from the file is no link), lessons, open merge requests and
// blocked rows, the land preview (a conflicting row with its files, the others would merge), a row set through the
// CLI while the page is open, the keyboard, and dark mode.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { git, removeTempDir } from '../fixtures/index.js';
import {
  BOARD_URL,
  type CampaignWorkspace,
  GOAL,
  GOOD_MR,
  HOSTILE_MR,
  LESSON,
  REPOS,
  seedCampaigns,
} from './campaign-seed.js';
import { hubIn } from './coord-seed.js';
import { describeBrowser, useBrowser } from './harness.js';

async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Campaigns' }).waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached', timeout: 30_000 });
}

/** The cells of a table row as text. */
const cells = (row: Locator) => row.getByRole('cell').allTextContents();

describeBrowser('Campaigns page', () => {
  let seeded: CampaignWorkspace;
  const ws: { root?: string } = {};
  beforeAll(() => {
    seeded = seedCampaigns();
    ws.root = seeded.root;
  });
  afterAll(() => removeTempDir(seeded.root));
  const ui = useBrowser(ws);

  it('lists every campaign with its status, progress and counts', async () => {
    const page = await ui.open('/campaigns');
    await settled(page);
    const list = page.getByRole('region', { name: 'Campaign list' });
    const rename = list.getByRole('row', { name: /rename-flag/ });
    await rename.waitFor();
    // Campaign, status, progress, repos, MR open, blocked.
    expect(await cells(rename)).toEqual(['rename-flag Rename the flag', 'active', '1/4', '4', '2', '1']);
    expect(await rename.getByRole('progressbar').getAttribute('aria-valuetext')).toBe(
      '1 of 4 merged; 2 mr-open, 1 blocked',
    );
    expect(await cells(list.getByRole('row', { name: /tidy-readme/ }))).toEqual([
      'tidy-readme Tidy the READMEs',
      'draft',
      '0/2',
      '2',
      '0',
      '0',
    ]);
    expect(await page.getByRole('heading', { name: /^Campaigns/, level: 2 }).textContent()).toContain('(2)');
    await ui.screenshot(page, 'campaigns-list');
  });

  it('shows one campaign from its address: goal, rows with safe links, open MRs, blocked rows, lessons', async () => {
    const page = await ui.open('/campaigns?campaign=rename-flag');
    await settled(page);
    const detail = page.getByRole('article', { name: /Rename the flag/ });
    await detail.getByText(GOAL).waitFor();
    expect(await detail.getByText('shop/api', { exact: true }).first().isVisible()).toBe(true);
    // The list marks the chosen campaign.
    const chosen = page
      .getByRole('region', { name: 'Campaign list' })
      .getByRole('link', { name: 'rename-flag' });
    expect(await chosen.getAttribute('aria-current')).toBe('true');

    const rows = detail.getByRole('region', { name: 'Campaign rows' });
    const api = rows.getByRole('row', { name: /shop\/api/ });
    expect(await api.getByRole('link', { name: GOOD_MR }).getAttribute('href')).toBe(GOOD_MR);
    expect(await api.getByRole('link', { name: '#41' }).getAttribute('href')).toBe(BOARD_URL);
    expect(await api.textContent()).toContain('In Review');
    // The objective campaign expand made follows the row (mr-open is in_progress).
    expect(await api.textContent()).toContain('in_progress');
    const web = rows.getByRole('row', { name: /shop\/web/ });
    await web.getByText(HOSTILE_MR).waitFor();
    expect(await web.getByRole('link').count()).toBe(0);
    // Nowhere on the page is the hostile URL a link.
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    expect(await rows.getByRole('row', { name: /shop\/worker/ }).textContent()).toContain(
      'waiting on the platform team',
    );
    // Sorted by status: blocked first, merged last.
    const order = await rows
      .getByRole('row')
      .evaluateAll((trs) => trs.slice(1).map((tr) => tr.querySelector('td code')?.textContent));
    expect(order).toEqual(['shop/worker', 'shop/api', 'shop/web', 'shop/docs']);
    await detail.getByLabel('Show').selectOption('merged');
    await expect.poll(() => rows.getByRole('row').count()).toBe(2);
    await detail.getByLabel('Show').selectOption('');

    const open = detail.getByRole('region', { name: /^Open merge requests/ });
    expect(await open.getByRole('listitem').allTextContents()).toEqual([
      expect.stringContaining('shop/api'),
      expect.stringContaining('shop/web'),
    ]);
    const blocked = detail.getByRole('region', { name: /^Blocked/ });
    expect(await blocked.textContent()).toMatch(/shop\/worker.*waiting on the platform team/);
    const lessons = detail.getByRole('list', { name: 'Lessons' });
    expect(await lessons.textContent()).toContain(LESSON);
    expect(await lessons.textContent()).toContain('shop/worker');
    await ui.screenshot(page, 'campaigns-detail');
  });

  it('previews the landing: the conflicting row with its files, the others would merge; nothing moves', async () => {
    const before = hubIn(seeded.root, ['campaign', 'status', '--slug', 'rename-flag', '--json']).stdout;
    const heads = () => REPOS.map((r) => git(seeded.repoDirs[`shop/${r}`]!, ['rev-parse', 'main']));
    const headsBefore = heads();
    const page = await ui.open('/campaigns?campaign=rename-flag');
    await settled(page);
    const preview = page.getByRole('region', { name: 'Land preview rows' });
    const web = preview.getByRole('row', { name: /shop\/web/ });
    await web.waitFor();
    expect(await web.textContent()).toMatch(/campaign\/rename-flag.*main.*conflict/);
    expect(await web.getByRole('list', { name: 'Files of shop/web' }).textContent()).toBe('config.yml');
    for (const r of ['shop/api', 'shop/worker'])
      expect(await preview.getByRole('row', { name: new RegExp(r) }).textContent()).toContain('would_merge');
    // A merged row is not landed again.
    expect(await preview.getByRole('row', { name: /shop\/docs/ }).count()).toBe(0);
    expect(await page.getByText('would stop').count()).toBe(1);
    // Reading the preview changed nothing: no row, no branch.
    expect(hubIn(seeded.root, ['campaign', 'status', '--slug', 'rename-flag', '--json']).stdout).toBe(before);
    expect(heads()).toEqual(headsBefore);
  });

  it('shows a row set through the CLI while the page is open, without a reload', async () => {
    const page = await ui.open('/campaigns?campaign=tidy-readme');
    await settled(page);
    const list = page.getByRole('region', { name: 'Campaign list' });
    const tidy = list.getByRole('row', { name: /tidy-readme/ });
    await tidy.getByText('0/2').waitFor();
    const rows = page.getByRole('region', { name: 'Campaign rows' });
    await rows.getByRole('row', { name: /shop\/web/ }).waitFor();
    hubIn(seeded.root, [
      'campaign',
      'set',
      '--slug',
      'tidy-readme',
      '--repo',
      'shop/web',
      '--status',
      'merged',
      '--mr',
      'https://git.example/shop/web/pull/99',
    ]);
    // The event stream brings CampaignRowUpdated: the list and the campaign refresh (polling is 90 s).
    await tidy.getByText('1/2').waitFor({ timeout: 15_000 });
    await rows
      .getByRole('row', { name: /shop\/web/ })
      .getByRole('link', { name: 'https://git.example/shop/web/pull/99' })
      .waitFor({ timeout: 15_000 });
    expect(await rows.getByRole('row', { name: /shop\/web/ }).textContent()).toContain('merged');
  });

  it('is walked by keyboard: Down and Up in the filter choose a campaign, the address follows', async () => {
    const page = await ui.open('/campaigns');
    await settled(page);
    const filter = page.getByLabel('Filter');
    await filter.focus();
    await page.keyboard.press('ArrowDown');
    await page.getByRole('article', { name: /Rename the flag/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('campaign')).toBe('rename-flag');
    await page.keyboard.press('ArrowDown');
    await page.getByRole('article', { name: /Tidy the READMEs/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('campaign')).toBe('tidy-readme');
    // Focus stayed in the filter; typing narrows the list.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search');
    await page.keyboard.type('rename');
    const list = page.getByRole('region', { name: 'Campaign list' });
    await expect.poll(() => list.getByRole('row').count()).toBe(2);
    await page.keyboard.press('ArrowUp');
    await page.getByRole('article', { name: /Rename the flag/ }).waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => list.getByRole('row').count()).toBe(3);
    // Tab from the filter reaches the campaign links with a visible focus ring.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => ({
      text: document.activeElement?.textContent,
      outline: getComputedStyle(document.activeElement!).outlineStyle,
    }));
    expect(focused.text).toBe('rename-flag');
    expect(focused.outline).not.toBe('none');
  });

  it('reads in dark mode, and says so when a campaign does not exist', async () => {
    const page = await ui.open('/campaigns?campaign=rename-flag', { colorScheme: 'dark' });
    await settled(page);
    await page.getByRole('region', { name: 'Land preview rows' }).getByRole('row').nth(1).waitFor();
    await ui.screenshot(page, 'campaigns-detail-dark');
    ui.allowConsole(/status of 404/);
    const missing = await ui.open('/campaigns?campaign=no-such-campaign');
    await settled(missing);
    await missing.getByRole('alert').waitFor();
    expect(await missing.getByRole('alert').textContent()).toMatch(/no-such-campaign/);
  });
  it('lists 1,000 campaign files, drawing only the rows in view', async () => {
    // Written as files (a clone ships them): 998 more make the 1,000 one listing reads.
    const dir = join(seeded.root, '_campaigns');
    for (let n = 0; n < 998; n++) {
      const slug = `bulk-${String(n).padStart(4, '0')}`;
      writeFileSync(
        join(dir, `${slug}.yml`),
        `schema_version: "1.0"\nslug: ${slug}\ntitle: Bulk ${n}\nstatus: active\nrepos:\n  - project: shop\n    repo: api\n    status: ${n % 2 ? 'merged' : 'pending'}\n`,
      );
    }
    const page = await ui.open('/campaigns?campaign=bulk-0997');
    await settled(page);
    const heading = page.getByRole('heading', { name: /^Campaigns/, level: 2 });
    await expect.poll(() => heading.textContent()).toContain('(1000)');
    // The chosen campaign's row is scrolled into view; far fewer rows than campaigns are in the page.
    const list = page.getByRole('region', { name: 'Campaign list' });
    await list.getByRole('row', { name: /bulk-0997/ }).waitFor();
    expect(await list.getByRole('row').count()).toBeLessThan(100);
    expect(await page.getByRole('article', { name: /Bulk 997/ }).isVisible()).toBe(true);
  });
});
