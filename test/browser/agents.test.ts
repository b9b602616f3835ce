// The Agents page in a real Chromium against a real `hub web serve` on a demo copy with coordination state made
// through the CLI: Templates (catalog by category, a preview per vendor, a dispatch plan, overlay init after a
// confirmation), Objectives grouped by status, Sessions (digest, active objective), and the shared polling bar
// (30s/60s/90s/300s, 90s by default, the toggle and Refresh now, timed with Playwright's fake clock).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../fixtures/index.js';
import { hubIn, seedCoordination } from './coord-seed.js';
import { describeBrowser, useBrowser } from './harness.js';

async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached' });
}

describeBrowser('Agents page', () => {
  let dir: string;
  const ws: { root?: string } = {};
  beforeAll(() => {
    dir = createTempDir('hub-agents-ui-');
    ws.root = seedCoordination(dir).root;
  });
  afterAll(() => removeTempDir(dir));
  const ui = useBrowser(ws);

  it('lists the templates by category in the catalog order and previews one for each of the eight vendors', async () => {
    const page = await ui.open('/agents');
    await settled(page);
    const catalog = page.getByRole('navigation', { name: 'Templates by category' });
    const categories = await catalog.getByRole('heading', { level: 2 }).allTextContents();
    expect(categories.map((c) => c.replace(/\s*\(\d+\)$/, ''))).toEqual([
      'Control plane',
      'Execution',
      'Graph',
      'Workspace ops',
      'Catalog',
      'Quality',
      'Security',
    ]);
    const execution = catalog.getByRole('region', { name: /Execution/ });
    await execution.getByRole('button', { name: /Repo implementer/ }).click();
    await page.getByRole('heading', { level: 2, name: 'Repo implementer' }).waitFor();
    const vendors = page.getByRole('group', { name: 'Vendor' }).getByRole('radio');
    expect(await vendors.count()).toBe(8);
    const preview = page.getByRole('region', { name: /Preview of/ });
    await expect.poll(() => preview.getAttribute('aria-label')).toBe('Preview of repo-implementer.md');
    await page.getByRole('radio', { name: 'GitHub Copilot' }).check();
    await expect.poll(() => preview.getAttribute('aria-label')).toBe('Preview of repo-implementer.agent.md');
    expect(await preview.textContent()).toContain('name: repo-implementer');
    await page.getByRole('radio', { name: 'Codex' }).check();
    await expect.poll(() => preview.getAttribute('aria-label')).toBe('Preview of repo-implementer/SKILL.md');
    expect(new URL(page.url()).search).toBe('?template=repo-implementer&vendor=codex');
    await page.getByRole('radio', { name: 'Claude Code' }).check();
    await expect.poll(() => preview.getAttribute('aria-label')).toBe('Preview of repo-implementer.md');
    await ui.screenshot(page, 'agents-templates');
  });

  it('shows the dispatch plan of a template for a chosen repository, with the claim out of scope', async () => {
    const page = await ui.open('/agents?template=repo-implementer&vendor=claude_code');
    await settled(page);
    await page.getByLabel('Repository').fill('platform/identity');
    await page.getByLabel('Task').fill('Add token refresh to the API');
    await page.getByRole('button', { name: 'Show plan' }).click();
    const plan = page.locator('.plan');
    await plan.waitFor();
    expect(await plan.textContent()).toContain(
      "claude --agent repo-implementer 'Add token refresh to the API",
    );
    expect(await plan.textContent()).toContain('not installed');
    expect(await plan.locator('li', { hasText: 'services/api/**' }).textContent()).toContain('agent-a');
    await ui.screenshot(page, 'agents-dispatch-plan');
  });

  it('creates the team overlay only after the confirmation, and shows the refusal of a second one', async () => {
    const overlay = join(ws.root!, '.hub-agents', 'graph-curator', 'template.yaml');
    const page = await ui.open('/agents?template=graph-curator');
    await settled(page);
    await page.getByRole('button', { name: 'Create team overlay…' }).click();
    const dialog = page.getByRole('dialog', { name: /Create the team overlay of graph-curator/ });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(existsSync(overlay)).toBe(false);

    await page.getByRole('button', { name: 'Create team overlay…' }).click();
    await dialog.getByRole('button', { name: 'Create overlay' }).click();
    await page.getByRole('status').filter({ hasText: 'Wrote .hub-agents/graph-curator' }).waitFor();
    expect(existsSync(overlay)).toBe(true);
    // The catalog is read again: the template is now bundled plus the team's overlay.
    const item = page.getByRole('button', { name: /Graph curator/ });
    await expect.poll(() => item.textContent()).toContain('merged');

    ui.allowConsole(/status of 409/);
    await page.getByRole('button', { name: 'Create team overlay…' }).click();
    await dialog.getByRole('button', { name: 'Create overlay' }).click();
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByRole('alert').textContent()).toContain('graph-curator');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('groups the objectives by status, with the polling bar: 30s/60s/90s/300s, 90s by default', async () => {
    const page = await ui.open('/agents?tab=objectives');
    await settled(page);
    const groups = await page.locator('.objective-group h3').allTextContents();
    expect(groups).toEqual(['In progress (1)', 'Pending (1)', 'Blocked (1)', 'Done (1)', 'Cancelled (1)']);
    const blocked = page.getByRole('region', { name: /Blocked/ });
    expect(await blocked.getByRole('article').textContent()).toContain('Wait for the cluster');
    const bar = page.getByRole('group', { name: 'Live updates' });
    const every = bar.getByLabel('Every');
    expect(await every.locator('option').allTextContents()).toEqual(['30s', '60s', '90s', '300s']);
    expect(await every.inputValue()).toBe('90');
    expect(await bar.getByRole('switch', { name: 'Live update' }).isChecked()).toBe(true);
    await expect.poll(() => bar.locator('output').textContent()).toBe('Server push, and polling every 90s');
    await ui.screenshot(page, 'agents-objectives');
  });

  it('polls at the chosen frequency while live, not at all when off, and refreshes on demand', async () => {
    const page = await ui.open('about:blank');
    await page.clock.install();
    const reads: Request[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/v3/ops/objectives') reads.push(r);
    });
    await page.goto(`${ui.base}/agents?tab=objectives`);
    await settled(page);
    await expect.poll(() => reads.length).toBe(1);
    const bar = page.getByRole('group', { name: 'Live updates' });

    await page.clock.runFor(45_000); // half of the default 90 s: nothing yet
    expect(reads.length).toBe(1);
    await page.clock.runFor(50_000);
    await expect.poll(() => reads.length).toBe(2);

    await bar.getByLabel('Every').selectOption('30');
    await page.clock.runFor(31_000);
    await expect.poll(() => reads.length).toBe(3);

    await bar.getByRole('switch', { name: 'Live update' }).uncheck();
    await expect.poll(() => bar.locator('output').textContent()).toContain('Paused');
    await page.clock.runFor(400_000);
    expect(reads.length).toBe(3);

    // A new objective shows up on Refresh now, without live updates.
    hubIn(ws.root!, ['context', 'objective', 'set', '--id', 'fresh-one', '--title', 'Fresh objective']);
    await bar.getByRole('button', { name: 'Refresh now' }).click();
    await page.getByRole('heading', { level: 4, name: 'Fresh objective' }).waitFor();
    expect(reads.length).toBe(4);
  });

  it('shows an objective made through the CLI at once while live (server push), without waiting for a poll', async () => {
    const page = await ui.open('/agents?tab=objectives');
    await settled(page);
    const bar = page.getByRole('group', { name: 'Live updates' });
    await expect.poll(() => bar.locator('output').textContent()).toBe('Server push, and polling every 90s');
    hubIn(ws.root!, ['context', 'objective', 'set', '--id', 'pushed-one', '--title', 'Pushed objective']);
    await page.getByRole('heading', { level: 4, name: 'Pushed objective' }).waitFor({ timeout: 15_000 });
    // An edit moves it between groups the same way.
    hubIn(ws.root!, [
      'context',
      'objective',
      'edit',
      '--id',
      'pushed-one',
      '--field',
      'status',
      '--value',
      'done',
    ]);
    const done = page.getByRole('region', { name: /^Done/ });
    await done.getByRole('heading', { level: 4, name: 'Pushed objective' }).waitFor({ timeout: 15_000 });
  });

  it('falls back to polling when the event stream fails, and says so', async () => {
    ui.allowConsole(/ERR_FAILED|Failed to load resource/);
    const page = await ui.open('about:blank');
    await page.clock.install();
    await page.route('**/v3/ops/events/stream**', (route) => route.abort('failed'));
    await page.goto(`${ui.base}/agents?tab=objectives`);
    await settled(page);
    const bar = page.getByRole('group', { name: 'Live updates' });
    await expect.poll(() => bar.locator('output').textContent()).toMatch(/^Polling every 90s \(event stream/);
    hubIn(ws.root!, ['context', 'objective', 'set', '--id', 'polled-one', '--title', 'Polled objective']);
    await page.clock.runFor(91_000);
    await page.getByRole('heading', { level: 4, name: 'Polled objective' }).waitFor();
  });

  it('shows the session digest and the active objective', async () => {
    const page = await ui.open('/agents?tab=sessions', { colorScheme: 'dark' });
    await settled(page);
    const active = page.getByRole('region', { name: 'Active objective' });
    await active.getByRole('heading', { name: 'Add token refresh' }).waitFor();
    expect(await active.textContent()).toContain('active');
    const table = page.getByRole('region', { name: 'Repository changes since the last session' });
    await table.getByRole('cell', { name: 'platform/identity' }).waitFor();
    expect(await page.getByRole('region', { name: 'Digest' }).textContent()).toContain('First session');
    await page.getByLabel('Project').selectOption('storefront');
    await table.getByRole('cell', { name: 'storefront/web' }).waitFor();
    await expect.poll(() => table.getByRole('cell', { name: 'platform/identity' }).count()).toBe(0);
    await ui.screenshot(page, 'agents-sessions');
  });

  it('moves between the tabs with the arrow keys, focus staying on the tab list, with a visible outline', async () => {
    const page = await ui.open('/agents');
    await settled(page);
    await page.getByRole('tab', { name: 'Templates' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.getByRole('group', { name: 'Live updates' }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Objectives');
    expect(new URL(page.url()).search).toBe('?tab=objectives');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).not.toBe('none');
    await page.keyboard.press('End');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sessions');
    await page.getByRole('region', { name: 'Digest' }).waitFor();
    await page.goBack();
    await page.getByRole('tab', { name: 'Objectives', selected: true }).waitFor();
  });
});
