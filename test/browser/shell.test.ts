// The UI shell in a real Chromium against a real `hub web serve` on the demo workspace: every page route, the
// keyboard, both themes, and the token flow of a token-protected server.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../fixtures/index.js';
import { call } from '../http-server.js';
import { describeBrowser, useBrowser } from './harness.js';

const PAGES = [
  { path: '/workspace', heading: 'Workspace', name: 'workspace' },
  { path: '/config', heading: 'Config Studio', name: 'config' },
  { path: '/agents', heading: 'Agents', name: 'agents' },
  { path: '/terrain', heading: 'Terrain', name: 'terrain' },
  { path: '/console', heading: 'Console', name: 'console' },
  { path: '/campaigns', heading: 'Campaigns', name: 'campaigns' },
] as const;

/** The page's heading is shown and nothing is loading any more. */
async function settled(page: Page, heading: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  // .first(): a page may show several loaders at once (strict mode refuses a locator matching many).
  await page.locator('.loading').first().waitFor({ state: 'detached' });
}

/** Relative luminance (0 dark .. 1 light) of the body's background. */
function bodyLuminance(page: Page): Promise<number> {
  return page.evaluate(() => {
    const m = /rgba?\((\d+), (\d+), (\d+)/.exec(getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
  });
}

describeBrowser('UI shell', () => {
  const ui = useBrowser();

  it('loads every page route with no console error, the workspace name in the header', async () => {
    for (const p of PAGES) {
      const page = await ui.open(p.path);
      await settled(page, p.heading);
      await expect.poll(() => page.getByTestId('workspace-name').textContent()).toBe('demo');
      const current = page.getByRole('navigation', { name: 'Pages' }).locator('[aria-current="page"]');
      expect(await current.textContent()).toBe(p.heading);
      expect(await page.getByRole('alert').count(), p.path).toBe(0);
      await ui.screenshot(page, `shell-${p.name}`);
    }
  });

  it('shows the repositories of the demo on the Workspace page, and sends / to it', async () => {
    const page = await ui.open('/');
    await settled(page, 'Workspace');
    expect(new URL(page.url()).pathname).toBe('/workspace');
    const table = page.getByRole('region', { name: 'Repositories' });
    await table.getByRole('cell', { name: 'platform/identity' }).waitFor();
    expect(await table.getByRole('cell', { name: 'missing' }).count()).toBe(1);
  });

  it('answers an unknown address with a not-found page inside the shell', async () => {
    const page = await ui.open('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Pages' }).isVisible()).toBe(true);
  });

  it('navigates by keyboard: skip link, page links with a visible focus ring, focus moves to the page', async () => {
    const page = await ui.open('/workspace');
    await settled(page, 'Workspace');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      order.push((await page.evaluate(() => document.activeElement?.textContent)) ?? '');
    }
    expect(order).toEqual(['Workspace', 'Config Studio', 'Agents']);
    const outline = await page.evaluate(() => {
      const s = getComputedStyle(document.activeElement!);
      return { style: s.outlineStyle, width: Number.parseFloat(s.outlineWidth) };
    });
    expect(outline.style).not.toBe('none');
    expect(outline.width).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Enter');
    await settled(page, 'Agents');
    expect(new URL(page.url()).pathname).toBe('/agents');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  });

  it('moves between tabs with the arrow keys, Home and End', async () => {
    const page = await ui.open('/workspace');
    await settled(page, 'Workspace');
    const tabs = page.getByRole('tablist', { name: 'Workspace views' });
    await tabs.getByRole('tab', { name: 'Repositories' }).focus();
    await page.keyboard.press('ArrowRight');
    const selected = () => tabs.locator('[aria-selected="true"]').textContent();
    expect(await selected()).toBe('Explorer');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Explorer');
    await page.keyboard.press('End');
    expect(await selected()).toBe('Graph');
    await page.keyboard.press('ArrowRight');
    expect(await selected()).toBe('Repositories');
    await page.keyboard.press('ArrowLeft');
    expect(await selected()).toBe('Graph');
    await page.keyboard.press('Home');
    expect(await selected()).toBe('Repositories');
  });

  it('renders light and dark from prefers-color-scheme, and the toggle pins either', async () => {
    const light = await ui.open('/workspace', { colorScheme: 'light' });
    await settled(light, 'Workspace');
    expect(await bodyLuminance(light)).toBeGreaterThan(0.8);
    await ui.screenshot(light, 'shell-light');
    const dark = await ui.open('/workspace', { colorScheme: 'dark' });
    await settled(dark, 'Workspace');
    expect(await bodyLuminance(dark)).toBeLessThan(0.2);
    await ui.screenshot(dark, 'shell-dark');

    // The toggle cycles system -> light -> dark and is remembered across loads.
    const toggle = light.getByRole('button', { name: /^Theme:/ });
    await toggle.click();
    expect(await light.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await toggle.click();
    expect(await light.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await bodyLuminance(light)).toBeLessThan(0.2);
    await light.reload();
    await settled(light, 'Workspace');
    expect(await bodyLuminance(light)).toBeLessThan(0.2);
    await toggle.click();
    expect(await light.evaluate(() => document.documentElement.dataset.theme)).toBeUndefined();
    expect(await bodyLuminance(light)).toBeGreaterThan(0.8);
  });

  it("shows hub's error body (code, message, details) and does not retry a 4xx", async () => {
    const bad = join(ui.root, '..', 'bad-manifest');
    mkdirSync(bad, { recursive: true });
    writeFileSync(join(bad, '.hub.yml'), 'workspace:\n  name: bad\n  projects: 7\n');
    const server = await ui.startServer({ root: bad });
    ui.allowConsole(/status of 400/);
    const page = await ui.open('about:blank');
    let calls = 0;
    page.on('request', (r) => {
      // The Workspace page's rows come from the workspace list (ui-workspace).
      if (new URL(r.url()).pathname === '/v2/workspace/list') calls++;
    });
    await page.goto(`${server.base}/workspace`);
    const banner = page.getByRole('alert');
    await banner.waitFor();
    expect(await banner.locator('.error-banner__code').textContent()).toBe('validation');
    expect(await banner.textContent()).toContain('workspace.projects: Invalid input: expected array');
    expect(await banner.locator('dt').allTextContents()).toEqual(['file', 'issues']);
    await ui.screenshot(page, 'shell-error-banner');
    await banner.getByRole('button', { name: 'Retry' }).click();
    await banner.waitFor();
    await page.waitForLoadState('networkidle');
    // One call, one Retry: a 400 is never retried by itself.
    expect(calls).toBe(2);
    // The shell keeps working: navigation still goes to another page.
    await page.getByRole('link', { name: 'Agents' }).click();
    await settled(page, 'Agents');
  });

  it('keeps the Console live through the events stream (Server-Sent Events over fetch)', async () => {
    const page = await ui.open('/console');
    await settled(page, 'Console');
    // The Console's polling bar says when the server pushes (the page is the agents engineer's: ui-agents).
    await page
      .getByRole('group', { name: 'Live updates' })
      .getByText(/^Server push/)
      .waitFor();
    const r = await call(ui.base, 'POST', '/v3/ops/objectives', {
      body: { id: 'live-1', title: 'Live one' },
    });
    expect(r.status).toBe(200);
    const feed = page.getByRole('region', { name: 'Coordination events, newest first' });
    await feed.getByRole('row', { name: /live-1/ }).waitFor();
    await ui.screenshot(page, 'shell-console-live');
  });

  it('works against a token-protected server: #token= in the URL, or the prompt after a 401', async () => {
    const TOKEN = 'browser-token-0123456789';
    const protectedServer = await ui.startServer({ env: { HUB_SERVER_TOKEN: TOKEN } });
    // The calls made before the token is known answer 401, which Chromium logs as failed resources.
    ui.allowConsole(/status of 401/);

    // Without a token: the UI files load, the API refuses, the prompt asks.
    const page = await ui.open(`${protectedServer.base}/workspace`);
    const prompt = page.getByRole('heading', { name: 'This hub server needs its token' });
    await prompt.waitFor();
    await ui.screenshot(page, 'shell-token-prompt');
    const sent: Array<string | undefined> = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/v')) sent.push(r.headers().authorization);
    });
    await page.getByLabel('Server token').fill('wrong-token');
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByText('The token this tab holds was refused.').waitFor();
    await page.getByLabel('Server token').fill(TOKEN);
    await page.getByRole('button', { name: 'Use token' }).click();
    await settled(page, 'Workspace');
    await page.getByRole('cell', { name: 'platform/identity' }).waitFor();
    expect(sent).toContain(`Bearer ${TOKEN}`);

    // With #token= in the address: it leaves the address bar and history, and every call carries it.
    const linked = await ui.open(`${protectedServer.base}/console#token=${TOKEN}`);
    const calls: Array<string | undefined> = [];
    linked.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/v')) calls.push(r.headers().authorization);
    });
    await settled(linked, 'Console');
    expect(linked.url()).toBe(`${protectedServer.base}/console`);
    expect(await linked.evaluate(() => sessionStorage.getItem('hub.token'))).toBe(TOKEN);
    await linked.getByRole('link', { name: 'Agents' }).click();
    await settled(linked, 'Agents');
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((h) => h === `Bearer ${TOKEN}`)).toBe(true);
    expect(await linked.getByRole('heading', { name: 'This hub server needs its token' }).count()).toBe(0);
  });

  it('signs in from the link `web serve --open` hands the opener: a one-time code, never the token', async () => {
    const TOKEN = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';
    // The desktop's opener is a script that records its argv, as `ps` would show it to every local user.
    const bin = createTempDir('hub-ui-opener-');
    const argvFile = join(bin, 'argv.txt');
    writeFileSync(
      join(bin, 'xdg-open'),
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}.tmp' && mv '${argvFile}.tmp' '${argvFile}'\n`,
    );
    chmodSync(join(bin, 'xdg-open'), 0o755);
    try {
      const server = await ui.startServer({
        env: { HUB_SERVER_TOKEN: TOKEN, PATH: `${bin}:${process.env.PATH}` },
        args: ['--open'],
      });
      await expect.poll(() => existsSync(argvFile), { timeout: 60_000 }).toBe(true);
      const argv = readFileSync(argvFile, 'utf8').split('\n').filter(Boolean);
      expect(argv).toHaveLength(1);
      expect(argv[0]).not.toContain(TOKEN);
      expect(argv[0]).toMatch(new RegExp(`^${server.base}/#login=[A-Za-z0-9_-]{43}$`));

      const page = await ui.open(argv[0]!);
      const calls: Array<string | undefined> = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/v3/ops')) calls.push(r.headers().authorization);
      });
      await settled(page, 'Workspace');
      await page.getByRole('cell', { name: 'platform/identity' }).waitFor();
      expect(page.url()).not.toContain('login=');
      expect(await page.evaluate(() => sessionStorage.getItem('hub.token'))).toBe(TOKEN);
      expect(await page.getByRole('heading', { name: 'This hub server needs its token' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Console' }).click();
      await settled(page, 'Console');
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((h) => h === `Bearer ${TOKEN}`)).toBe(true);

      // The same link a second time (another tab, or another user who read it first): it signs in no one.
      ui.allowConsole(/status of 401/);
      const again = await ui.open(argv[0]!);
      await again.getByRole('heading', { name: 'This hub server needs its token' }).waitFor();
      await again.getByText('This sign-in link was already used.').waitFor();
      expect(await again.evaluate(() => sessionStorage.getItem('hub.token'))).toBeNull();
      expect(again.url()).not.toContain('login=');
      await ui.screenshot(again, 'shell-sign-in-link-used');
    } finally {
      removeTempDir(bin);
    }
  });
});
