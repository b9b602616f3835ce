// The Workspace page in a real Chromium against a real `hub web serve` on the demo workspace: each view loads
// with no console error, the Explorer filter syntax on the rendered rows, the default open action (a harmless
// editor script records what it was given), search results linked to their repository, the graph with each edge
// source and its filters, the component graph, the keyboard, and both themes. Screenshots of each view.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../fixtures/index.js';
import { graphSpan } from './graph-span.js';
import { describeBrowser, useBrowser } from './harness.js';

// The editor of the user's config: a script that writes its argv to a file (only the user's config may name one).
const tools = createTempDir('hub-ui-editor-');
const argvFile = join(tools, 'argv.txt');
const editor = join(tools, 'editor.sh');
writeFileSync(
  editor,
  `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}.tmp' && mv '${argvFile}.tmp' '${argvFile}'\n`,
);
chmodSync(editor, 0o755);
const userDir = join(tools, 'user-config');
mkdirSync(userDir);
writeFileSync(join(userDir, 'config.yml'), `config:\n  editor: ${editor} --reuse-window\n`);
afterAll(() => removeTempDir(tools));

/** The page's heading is shown and nothing is loading any more. */
async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Workspace' }).waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached' });
}

/** Ids of the repositories the Explorer table shows (every row is rendered: the demo has six). */
async function explorerRows(page: Page): Promise<string[]> {
  return page.locator('.ws-rowbtn').allTextContents();
}

async function filter(page: Page, text: string): Promise<string[]> {
  const input = page.getByLabel('Filter', { exact: true });
  await input.fill(text);
  await page.waitForFunction(
    (t) => (document.querySelector<HTMLInputElement>('#ws-filter-input')?.value ?? '') === t,
    text,
  );
  return explorerRows(page);
}

describeBrowser('Workspace page', () => {
  const ui = useBrowser({ env: { HUB_CONFIG_DIR: userDir } });

  it('Repositories: every repo with project, path, presence, git state, tags and open actions; no console error', async () => {
    const page = await ui.open('/workspace');
    await settled(page);
    const table = page.getByRole('region', { name: 'Repositories' });
    await table.getByRole('cell', { name: 'platform/identity' }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(6);
    // Git state arrives from enriched terrain after the rows: the demo's checkouts are clean on main.
    await expect.poll(() => table.getByText('clean').count(), { timeout: 20_000 }).toBe(5);
    expect(await table.getByRole('cell', { name: 'no checkout' }).count()).toBe(1);
    expect(await table.getByRole('cell', { name: 'missing' }).count()).toBe(1);
    // Project tags merge under the repo's: gateway has no team tag of its own, platform's applies.
    expect(
      await table
        .getByRole('row', { name: /gateway/ })
        .getByText('team=platform')
        .count(),
    ).toBe(1);
    await expect
      .poll(() => page.getByRole('list', { name: 'Counts' }).textContent())
      .toMatch(/6 repositories/);
    await ui.screenshot(page, 'workspace-repositories');
  });

  it('Explorer: each filter form and combined terms against the rendered rows, linked in the address', async () => {
    const page = await ui.open('/workspace/explorer');
    await settled(page);
    await page.locator('.ws-rowbtn').first().waitFor();
    expect(await explorerRows(page)).toHaveLength(6);
    expect(await filter(page, 'billing')).toEqual(['platform/legacy-billing']);
    expect(await filter(page, 'tag:rust')).toEqual(['platform/gateway']);
    expect(await filter(page, '#legacy')).toEqual(['platform/legacy-billing']);
    expect(await filter(page, 'tag:team=storefront')).toEqual(['storefront/web']);
    expect(await filter(page, 'tag:python')).toEqual(['storefront/catalog']);
    expect(await filter(page, '#team=platform')).toEqual(['platform/gateway', 'platform/legacy-billing']);
    expect(await filter(page, 'project:storefront')).toEqual(['storefront/web', 'storefront/catalog']);
    expect(await filter(page, 'status:missing')).toEqual(['platform/legacy-billing']);
    expect(await filter(page, 'status:synced')).toHaveLength(5);
    expect(await filter(page, 'project:platform status:synced')).toEqual([
      'platform/identity',
      'platform/gateway',
      'platform/cloud-infra',
    ]);
    expect(await filter(page, 'project:platform status:synced #team=platform')).toEqual(['platform/gateway']);
    expect(await filter(page, 'STATUS:SYNCED "tls, rate" #edge')).toEqual(['platform/gateway']);
    expect(await filter(page, 'project:storefront status:missing')).toEqual([]);
    await page.getByText('No repository matches this filter.').waitFor();
    const chips = page.getByRole('list', { name: 'Filter terms' });
    expect(await chips.getByRole('listitem').allTextContents()).toEqual([
      'project = storefront',
      'status = missing',
    ]);
    // The filter is in the address a moment later, so the view can be linked.
    await page.waitForURL((u) => u.searchParams.get('q') === 'project:storefront status:missing');
    const linked = await ui.open(`/workspace/explorer?q=${encodeURIComponent('tag:tier=critical')}`);
    await settled(linked);
    await expect.poll(() => explorerRows(linked)).toEqual(['platform/identity']);
  });

  it('Explorer: arrow keys select, the details show the open actions with editor links', async () => {
    const page = await ui.open('/workspace/explorer', { colorScheme: 'dark' });
    await settled(page);
    const input = page.getByLabel('Filter', { exact: true });
    await input.fill('project:platform');
    await input.press('ArrowDown');
    await page.getByRole('heading', { level: 2, name: 'platform/identity' }).waitFor();
    expect(new URL(page.url()).searchParams.get('repo')).toBe('platform/identity');
    await input.press('ArrowDown');
    await page.getByRole('heading', { level: 2, name: 'platform/gateway' }).waitFor();
    const actions = page.getByRole('region', { name: 'Open actions' });
    const vscode = await actions.getByRole('link', { name: 'VS Code' }).getAttribute('href');
    expect(vscode).toBe(`vscode://file${join(ui.root, 'platform', 'gateway')}`);
    expect(await actions.getByRole('link', { name: 'Cursor' }).getAttribute('href')).toBe(
      `cursor://file${join(ui.root, 'platform', 'gateway')}`,
    );
    expect(await actions.getByRole('link').count()).toBeGreaterThanOrEqual(5);
    // A repository not on disk has no open action.
    await input.fill('status:missing');
    await input.press('ArrowDown');
    await page.getByRole('heading', { level: 2, name: 'platform/legacy-billing' }).waitFor();
    expect(await page.getByRole('region', { name: 'Open actions' }).count()).toBe(0);
    await input.fill('');
    await ui.screenshot(page, 'workspace-explorer-dark');
  });

  it('the default open action calls POST /v3/ops/open and the configured editor gets the checkout', async () => {
    const page = await ui.open('/workspace/explorer');
    await settled(page);
    const identity = join(ui.root, 'platform', 'identity');
    const request = page.waitForRequest((r) => r.url().endsWith('/v3/ops/open') && r.method() === 'POST');
    await page
      .getByRole('row', { name: /platform\/identity/ })
      .getByRole('button', { name: 'Open in the configured editor' })
      .click();
    expect((await request).postDataJSON()).toEqual({ path: identity });
    await page.getByRole('status').getByText(`Opened platform/identity with ${editor}`).waitFor();
    await expect.poll(() => existsSync(argvFile)).toBe(true);
    expect(readFileSync(argvFile, 'utf8').trim().split('\n')).toEqual(['--reuse-window', identity]);
    await ui.screenshot(page, 'workspace-explorer');
  });

  it('shows why an open fails (an editor that is not installed): config.editor, where to set it, the editor links', async () => {
    const other = createTempDir('hub-ui-bad-editor-');
    try {
      writeFileSync(join(other, 'config.yml'), 'config:\n  editor: /nonexistent/editor-binary\n');
      const server = await ui.startServer({ env: { HUB_CONFIG_DIR: other } });
      ui.allowConsole(/status of 409/);
      const page = await ui.open(`${server.base}/workspace/explorer?repo=platform%2Fgateway`);
      await settled(page);
      await page.getByRole('button', { name: 'Open in configured editor' }).click();
      const status = page.getByRole('status').filter({ hasText: 'Could not open' });
      await status.waitFor();
      const text = (await status.textContent()) ?? '';
      expect(text).not.toContain('internal');
      expect(text).toMatch(/refused.*\/nonexistent\/editor-binary/);
      expect(text).toContain('config.editor');
      expect(text).toContain(join(other, 'config.yml'));
      expect(text).toMatch(/editor link.*VS Code.*Zed/);
      await ui.screenshot(page, 'workspace-open-editor-missing');
    } finally {
      removeTempDir(other);
    }
  });

  it('Search: manifest and content results, each linked to its repository in the Explorer', async () => {
    const page = await ui.open('/workspace/search');
    await settled(page);
    await page.getByRole('searchbox', { name: 'Search' }).fill('identity');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((u) => u.searchParams.get('q') === 'identity');
    const meta = page.getByRole('list', { name: 'Manifest results' });
    await meta.getByRole('link', { name: 'platform/identity', exact: true }).waitFor();
    const content = page.getByRole('list', { name: 'Content results' });
    await content.getByText('apps/storefront/package.json:13').waitFor();
    await ui.screenshot(page, 'workspace-search');
    await content.getByRole('link', { name: 'storefront/web', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'storefront/web' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/workspace/explorer');
    expect(await page.getByRole('tab', { name: 'Explorer' }).getAttribute('aria-selected')).toBe('true');
  });

  it('Graph: manual, inferred and structure edges drawn apart, a filter per source, node details', async () => {
    const page = await ui.open('/workspace/graph');
    await settled(page);
    const canvas = page.locator('.ws-graph__canvas');
    await canvas.and(page.locator('[data-ready="true"]')).waitFor();
    const visible = async () =>
      canvas.evaluate((el) => ({
        manual: Number(el.getAttribute('data-visible-manual')),
        inferred: Number(el.getAttribute('data-visible-inferred')),
        structure: Number(el.getAttribute('data-visible-structure')),
      }));
    await expect.poll(visible).toEqual({ manual: 4, inferred: 1, structure: 6 });
    await ui.screenshot(page, 'workspace-graph');
    await page.getByRole('checkbox', { name: /Inferred/ }).uncheck();
    await expect.poll(visible).toEqual({ manual: 4, inferred: 0, structure: 6 });
    await page.getByRole('checkbox', { name: /Structure/ }).uncheck();
    await expect.poll(visible).toEqual({ manual: 4, inferred: 0, structure: 0 });
    expect(new URL(page.url()).searchParams.get('hide')).toBe('inferred,structure');
    await page.getByRole('checkbox', { name: /Manual/ }).uncheck();
    await expect.poll(visible).toEqual({ manual: 0, inferred: 0, structure: 0 });
    await page.getByRole('checkbox', { name: /Inferred/ }).check();
    await expect.poll(visible).toEqual({ manual: 0, inferred: 1, structure: 0 });

    // A click on the node in the canvas selects it: the details list its edges, the inferred one with evidence.
    const at = await canvas.evaluate((el) => {
      const cy = (el as unknown as { _cyreg: { cy: import('cytoscape').Core } })._cyreg.cy;
      return cy.getElementById('repo:storefront/web').renderedPosition();
    });
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + at.x, box.y + at.y);
    const details = page.getByRole('complementary', { name: 'Graph details' });
    await details.getByRole('heading', { name: /web/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('node')).toBe('repo:storefront/web');
    await details
      .getByText(
        'apps/storefront/package.json:13 (npm @example/identity-sdk; provided by packages/sdk/package.json:2)',
      )
      .waitFor();
    // Walk to the other end from the keyboard-reachable list.
    await details.getByRole('button', { name: 'platform/identity' }).first().click();
    await details.getByRole('heading', { name: /identity/ }).waitFor();
    await ui.screenshot(page, 'workspace-graph-details');
    // The canvas takes the keyboard: + zooms in, 0 fits again, Escape clears the selection.
    const zoom = () =>
      canvas.evaluate((el) =>
        (el as unknown as { _cyreg: { cy: import('cytoscape').Core } })._cyreg.cy.zoom(),
      );
    const fitted = await zoom();
    await canvas.focus();
    await page.keyboard.press('+');
    expect(await zoom()).toBeCloseTo(fitted * 1.25, 5);
    await page.keyboard.press('0');
    expect(await zoom()).toBeCloseTo(fitted, 5);
    await page.keyboard.press('Escape');
    await page.waitForURL((u) => !u.searchParams.has('node'));
  });

  it('Graph: the workspace graph fills its canvas (most of its width and height) at desktop and wide sizes', async () => {
    for (const [width, height, scheme] of [
      [1280, 800, 'light'],
      [1920, 1080, 'dark'],
    ] as const) {
      const page = await ui.open('/workspace/graph', { colorScheme: scheme });
      await page.setViewportSize({ width, height });
      await settled(page);
      const canvas = page.locator('.ws-graph__canvas[data-ready="true"]');
      await canvas.waitFor();
      await ui.screenshot(page, `workspace-graph-${width}-${scheme}`);
      const span = await graphSpan(canvas);
      expect(span.nodes).toBe(8);
      expect(span.inside).toBe(true);
      expect(span.x, `width spanned at ${width}x${height}`).toBeGreaterThan(0.8);
      expect(span.y, `height spanned at ${width}x${height}`).toBeGreaterThan(0.8);
    }
  });

  it('Graph: the component graph draws a component on first open, before one is chosen', async () => {
    const page = await ui.open('/workspace');
    await settled(page);
    await page.getByRole('tab', { name: 'Graph' }).click();
    await page.getByRole('radio', { name: 'Component graph' }).check();
    const canvas = page.locator('.ws-graph__canvas[data-ready="true"]');
    await canvas.waitFor();
    const picked = await page.getByRole('combobox', { name: /^Component/ }).inputValue();
    expect(picked).not.toBe('');
    await expect.poll(async () => (await graphSpan(canvas)).nodes).toBeGreaterThan(1);
    const span = await graphSpan(canvas);
    expect(span.inside).toBe(true);
    expect(Math.max(span.x, span.y)).toBeGreaterThan(0.5);
    expect(await page.getByRole('complementary', { name: 'Graph details' }).textContent()).toContain(
      'nodes within 1 hops',
    );
    await ui.screenshot(page, 'workspace-component-graph-first-open');
  });

  it('Graph: the component graph of a chosen component', async () => {
    const page = await ui.open('/workspace/graph?mode=components', { colorScheme: 'dark' });
    await settled(page);
    await page.getByRole('combobox', { name: /^Component/ }).selectOption('storefront/web/storefront');
    const canvas = page.locator('.ws-graph__canvas[data-ready="true"]');
    await canvas.waitFor();
    await expect
      .poll(() =>
        canvas.evaluate((el) => [
          el.getAttribute('data-visible-declared'),
          el.getAttribute('data-visible-depends-on'),
          el.getAttribute('data-nodes'),
        ]),
      )
      .toEqual(['2', '1', '4']);
    await page.getByRole('combobox', { name: /^Depth/ }).selectOption('2');
    await expect
      .poll(() => canvas.evaluate((el) => Number(el.getAttribute('data-nodes'))))
      .toBeGreaterThan(4);
    await ui.screenshot(page, 'workspace-component-graph-dark');
    // The theme toggle repaints the canvas in the other palette (the canvas reads the page's colours).
    const lineColour = () =>
      canvas.evaluate((el) => {
        const cy = (el as unknown as { _cyreg: { cy: import('cytoscape').Core } })._cyreg.cy;
        return cy.edges('.declared').first().style('line-color') as string;
      });
    const dark = await lineColour();
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
    await expect.poll(lineColour).not.toBe(dark);
    expect(dark).toBe('rgb(127,176,255)'); // --accent, dark side
  });

  it('keyboard: the view tabs move with the arrow keys, keep focus, and change the address', async () => {
    const page = await ui.open('/workspace');
    await settled(page);
    const tab = page.getByRole('tab', { name: 'Repositories' });
    await tab.focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL('**/workspace/explorer');
    await page.getByLabel('Filter', { exact: true }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Explorer');
    await page.keyboard.press('End');
    await page.waitForURL('**/workspace/graph');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Graph');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');
    await page.keyboard.press('Home');
    await page.waitForURL((u) => u.pathname === '/workspace/repositories');
  });
});
