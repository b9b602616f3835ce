// Config Studio in a real Chromium against a real `hub web serve` on a COPY of the demo workspace (Save writes
// there) with a hub.config.yaml holding a token: the tree and its keyboard, the Draft badge, the three preview
// modes, draft errors above the YAML, Save keeping comments (read back from disk), a refused save, the text editor,
// and the application config's redaction.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, expect, it } from 'vitest';
import { createDemo } from '../../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from '../fixtures/index.js';
import { describeBrowser, useBrowser } from './harness.js';

const dir = createTempDir('hub-ui-config-');
const { root, manifestPath } = createDemo(join(dir, 'demo'));
const ORIGINAL = readFileSync(manifestPath, 'utf8');
const TOKEN = 'state-token-SECRET9876';
writeFileSync(
  join(root, 'hub.config.yaml'),
  `# settings of the demo (a comment stays)\nstate:\n  backend: local\n  token: ${TOKEN}\n`,
);
afterAll(() => removeTempDir(dir));

/** Heading shown, tree and preview loaded. */
async function studio(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Config Studio' }).waitFor();
  await page.getByRole('tree').waitFor();
  await page.locator('.code-editor .cm-content').waitFor();
  await page.locator('.loading').waitFor({ state: 'detached' });
}

/** The text the YAML pane shows (the viewport is made tall enough for CodeMirror to render every line). */
async function yamlText(page: Page): Promise<string> {
  await page.locator('.yaml-pane__editor[aria-busy="false"]').waitFor();
  // innerText: one line per rendered line (textContent would run CodeMirror's line elements together).
  // biome-ignore lint/performance/useDomNodeTextContent: the line breaks are what is compared.
  return page.locator('.code-editor .cm-content').innerText();
}

/** Selects a tree node by its JSON pointer (clicking its row, expanding nothing). */
async function pick(page: Page, path: string): Promise<void> {
  await page.locator(`[role="treeitem"][data-path="${path}"]`).click();
  await page.getByRole('form', { name: `Edit ${path}` }).waitFor();
}

/** Expands the ancestors of `path` in the tree (the viewport must be tall enough to render them) and picks it. */
async function reveal(page: Page, path: string): Promise<void> {
  const segs = path.split('/').slice(1);
  for (let i = 1; i < segs.length; i++) {
    const row = page.locator(`[role="treeitem"][data-path="/${segs.slice(0, i).join('/')}"]`);
    if ((await row.getAttribute('aria-expanded')) === 'false') await row.click();
  }
  await pick(page, path);
}

function resetManifest(): void {
  writeFileSync(manifestPath, ORIGINAL);
}

describeBrowser('Config Studio', () => {
  const ui = useBrowser({ root });

  it('loads with no console error, in light and dark, and the tree is navigable by keyboard', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await ui.open('/config', { colorScheme });
      await studio(page);
      expect(new URL(page.url()).pathname).toBe('/config');
      expect(await page.getByRole('alert').count()).toBe(0);
      await ui.screenshot(page, colorScheme === 'light' ? 'config' : 'config-dark');
    }
    const page = await ui.open('/config');
    await studio(page);
    const tree = page.getByRole('tree', { name: 'Schema tree of .hub.yml' });
    await tree.focus();
    const active = () => page.evaluate(() => document.activeElement?.getAttribute('aria-activedescendant'));
    const activePath = async () => page.locator(`[id="${await active()}"]`).getAttribute('data-path');
    expect(await activePath()).toBe('/workspace');
    await page.keyboard.press('ArrowDown');
    expect(await activePath()).toBe('/workspace/name');
    const outline = await tree.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe('none');
    // Left goes to the parent and collapses it; Right expands it again.
    await page.keyboard.press('ArrowLeft');
    expect(await activePath()).toBe('/workspace');
    await page.keyboard.press('ArrowLeft');
    expect(await page.locator('[data-path="/workspace"]').getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('[data-path="/workspace"]').getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    // Enter edits the field: its input has the focus, with the value from the file.
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value))
      .toBe('demo');
  });

  it('turns a field edit into a pending operation: the Draft badge counts it, lists it, undoes it', async () => {
    const page = await ui.open('/config');
    await studio(page);
    await pick(page, '/workspace/description');
    await page.getByLabel('description', { exact: true }).fill('Edited from the studio');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    const badge = page.locator('.draft-badge');
    await expect.poll(() => badge.textContent()).toBe('Draft1 pending operation');
    await badge.click();
    const list = page.getByRole('list', { name: 'Pending operations' });
    expect(await list.textContent()).toContain('set /workspace/description = Edited from the studio');
    // The tree marks the pending value on its row.
    expect(
      await page.locator('[data-path="/workspace/description"] .stree__pending').textContent(),
    ).toContain('Edited from the studio');
    await pick(page, '/workspace/name');
    await page.getByLabel('name', { exact: true }).fill('demo2');
    await page.getByLabel('name', { exact: true }).press('Enter');
    await expect.poll(() => badge.textContent()).toBe('Draft2 pending operations');
    await page.getByRole('button', { name: /^Undo operation 1:/ }).click();
    await expect.poll(() => badge.textContent()).toBe('Draft1 pending operation');
    expect(await list.textContent()).toContain('set /workspace/name = demo2');
    await page.getByRole('button', { name: 'Discard all' }).click();
    await page.getByText('No pending changes').waitFor();
    expect(readFileSync(manifestPath, 'utf8')).toBe(ORIGINAL);
  });

  it('edits typed fields: an enum list item, a boolean, a map entry; each is one pending operation', async () => {
    resetManifest();
    const page = await ui.open('/config');
    await page.setViewportSize({ width: 1280, height: 9000 });
    await studio(page);
    await reveal(page, '/workspace/agent_profile/vendors');
    const form = page.getByRole('form', { name: 'Edit /workspace/agent_profile/vendors' });
    await form.getByLabel('New item').selectOption('opencode');
    await form.getByRole('button', { name: 'Add item' }).click();
    await form.getByRole('button', { name: 'Remove cursor from vendors' }).click();
    await reveal(page, '/workspace/projects/storefront/agent_profile/inherit');
    await page.getByLabel('inherit', { exact: true }).check();
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await reveal(page, '/workspace/projects/storefront/repos/web/tags');
    await page.getByLabel('Key', { exact: true }).fill('cost');
    await page.getByLabel('Value', { exact: true }).fill('shared');
    await page.getByRole('button', { name: 'Add entry' }).click();
    await page.locator('.draft-badge').click();
    const items = await page
      .getByRole('list', { name: 'Pending operations' })
      .getByRole('listitem')
      .allTextContents();
    expect(items.map((t) => t.replace(/Undo$/, ''))).toEqual([
      'append /workspace/agent_profile/vendors opencode',
      'remove /workspace/agent_profile/vendors cursor',
      'set /workspace/projects/storefront/agent_profile/inherit = true',
      'set /workspace/projects/storefront/repos/web/tags/cost = shared',
    ]);
    expect(
      await page.locator('[data-path="/workspace/agent_profile/vendors"] .stree__pending').textContent(),
    ).toBe('(append, remove)');
    await expect.poll(() => yamlText(page)).toContain('cost: shared');
    const text = await yamlText(page);
    expect(text).toContain('inherit: true');
    expect(text).toMatch(/vendors:\n\s+- claude_code\n\s+- github_copilot\n\s+- codex\n\s+- opencode/);
    await page.setViewportSize({ width: 1280, height: 1000 });
    await ui.screenshot(page, 'config-typed-fields');
  });

  it('shows the three preview modes: Normalized with defaults, Minimal without, On disk without the draft', async () => {
    const page = await ui.open('/config');
    await page.setViewportSize({ width: 1280, height: 9000 });
    await studio(page);
    await pick(page, '/workspace/description');
    await page.getByLabel('description', { exact: true }).fill('Draft description');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await page.locator('.draft-badge').waitFor();
    await expect.poll(() => yamlText(page)).toContain('Draft description');
    const normalized = await yamlText(page);
    expect(normalized).toContain('status: active');
    expect(normalized).not.toContain('# Demo workspace');

    await page.getByRole('radio', { name: 'Minimal' }).check();
    await expect.poll(async () => (await yamlText(page)) !== normalized).toBe(true);
    const minimal = await yamlText(page);
    expect(minimal).toContain('Draft description');
    expect(minimal).not.toContain('status: active');

    await page.getByRole('radio', { name: 'On disk' }).check();
    await expect.poll(() => yamlText(page)).toContain('# Demo workspace for hub');
    const onDisk = await yamlText(page);
    expect(onDisk).not.toContain('Draft description');
    const lines = (t: string) =>
      t
        .split('\n')
        .map((l) => l.replace(/[\s\u200b]+$/, ''))
        .filter(Boolean);
    expect(lines(onDisk)).toEqual(lines(ORIGINAL));
    expect(new Set([normalized, minimal, onDisk]).size).toBe(3);
    // The radio group moves by arrow keys.
    await page.getByRole('radio', { name: 'On disk' }).press('ArrowLeft');
    expect(await page.getByRole('radio', { name: 'Minimal' }).isChecked()).toBe(true);
  });

  it('shows the errors of an invalid text edit above the YAML with their path, and Save is refused', async () => {
    resetManifest();
    const page = await ui.open('/config');
    await studio(page);
    await page.getByRole('button', { name: 'Edit YAML' }).click();
    const editor = page.getByRole('textbox', { name: 'Draft text of .hub.yml' });
    await editor.waitFor();
    expect(await editor.getAttribute('contenteditable')).toBe('true');
    // Edit YAML moves the focus into the editor.
    await expect.poll(() => editor.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText(ORIGINAL.replace('    tier: 1\n', '    tier: many\n'));
    await ui.screenshot(page, 'config-edit-yaml');
    await page.getByRole('button', { name: 'Add changes to draft' }).click();
    await expect.poll(() => page.locator('.draft-badge').textContent()).toBe('Draft1 pending operation');
    const errors = page.getByRole('alert', { name: 'Draft validation errors' });
    await errors.waitFor();
    const text = (await errors.textContent()) ?? '';
    expect(text).toContain('/workspace/agent_profile/tier');
    expect(text).toMatch(/line \d+/);
    const errorBox = (await errors.boundingBox())!;
    const yamlBox = (await page.locator('.yaml-pane__editor').boundingBox())!;
    expect(errorBox.y + errorBox.height).toBeLessThanOrEqual(yamlBox.y);
    await ui.screenshot(page, 'config-invalid-draft');
    // The error's path leads to its node in the tree.
    await errors.getByRole('button', { name: '/workspace/agent_profile/tier' }).click();
    await page.getByRole('form', { name: 'Edit /workspace/agent_profile/tier' }).waitFor();
    expect(await page.locator('.stree__row--active').getAttribute('data-path')).toBe(
      '/workspace/agent_profile/tier',
    );

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(/Save refused: the draft would add 1 validation error/).waitFor();
    expect(readFileSync(manifestPath, 'utf8')).toBe(ORIGINAL);
    expect(await page.locator('.draft-badge').textContent()).toBe('Draft1 pending operation');
  });

  it('saves the draft keeping the comments of the file, clears the badge and shows the new value', async () => {
    resetManifest();
    const page = await ui.open('/config');
    await studio(page);
    await pick(page, '/workspace/description');
    await page.getByLabel('description', { exact: true }).fill('Saved from the browser');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await page.locator('.draft-badge').waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(`Saved ${manifestPath}`).waitFor();
    expect(await page.locator('.draft-badge').count()).toBe(0);
    const saved = readFileSync(manifestPath, 'utf8');
    expect(saved).toContain('  description: Saved from the browser\n');
    expect(saved).toContain('# Demo workspace for hub');
    expect(saved).toContain(
      '  # Applies to every project, repo and component unless a scope sets inherit: false.',
    );
    // Only the edited line changed.
    expect(saved.split('\n').filter((l, i) => l !== ORIGINAL.split('\n')[i])).toEqual([
      '  description: Saved from the browser',
    ]);
    await expect
      .poll(() => page.locator('[data-path="/workspace/description"] .stree__value').textContent())
      .toBe('Saved from the browser');
    resetManifest();
  });

  it('redacts the token of hub.config.yaml as *** plus its last four characters, in the tree and the preview', async () => {
    const page = await ui.open('/config/appconfig', { colorScheme: 'dark' });
    await page.setViewportSize({ width: 1280, height: 2400 });
    await studio(page);
    expect(await page.getByRole('tab', { name: /Application config/ }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const row = page.locator('[data-path="/state/token"]');
    await row.waitFor();
    expect(await row.locator('.stree__value').textContent()).toBe('***9876');
    for (const style of ['Normalized', 'Minimal', 'On disk']) {
      await page.getByRole('radio', { name: style }).check();
      await expect.poll(() => yamlText(page)).toContain('token: "***9876"');
    }
    // A mapping the file leaves out expands: its fields load from the server, with their defaults.
    await page.locator('[role="treeitem"][data-path="/merge"]').click();
    const timeout = page.locator('[data-path="/merge/timeout_ms"]');
    await timeout.waitFor();
    expect(await timeout.locator('.stree__value').textContent()).toBe('600000');
    expect(await timeout.locator('.stree__unset').count()).toBe(1);
    // A draft on the application config previews, redacted, and is never written from the browser.
    await pick(page, '/state/conflict_retries');
    await page.getByLabel('conflict_retries', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await page.getByRole('radio', { name: 'Normalized' }).check();
    await expect.poll(() => yamlText(page)).toContain('conflict_retries: 3');
    expect(await yamlText(page)).toContain('***9876');
    expect(await page.getByRole('button', { name: 'Save', exact: true }).count()).toBe(0);
    await page.locator('.draft-badge').click();
    expect(await page.locator('.draft__cli pre').textContent()).toBe(
      'hub appconfig patch --op set --path state.conflict_retries --value 3 --save',
    );
    expect(await page.content()).not.toContain('SECRET');
    await ui.screenshot(page, 'config-appconfig-dark');
  });

  it('asks before loading the tree of a manifest above 80 repositories, then loads it', async () => {
    const big = join(dir, 'big');
    mkdirSync(big, { recursive: true });
    const repos = Array.from(
      { length: 81 },
      (_, i) => `      - name: r${i}\n        url: https://example.com/r${i}.git`,
    );
    writeFileSync(
      join(big, '.hub.yml'),
      `workspace:\n  name: big\n  projects:\n    - name: p\n      repos:\n${repos.join('\n')}\n`,
    );
    const server = await ui.startServer({ root: big });
    const page = await ui.open(`${server.base}/config`);
    await page.getByRole('heading', { level: 1, name: 'Config Studio' }).waitFor();
    const load = page.getByRole('button', { name: 'Load the whole manifest' });
    await load.waitFor();
    expect(await page.getByRole('status').filter({ hasText: '81 repositories (over 80)' }).count()).toBe(1);
    await load.click();
    await page.locator('[role="treeitem"][data-path="/workspace/projects/p"]').click();
    await page.locator('[role="treeitem"][data-path="/workspace/projects/p/repos"]').click();
    // The rows are virtualised: End scrolls the last one (r80) into view.
    await page.getByRole('tree').press('End');
    await page.locator('[data-path="/workspace/projects/p/repos/r80"]').waitFor();
    expect(await page.locator('[role="treeitem"]').count()).toBeLessThan(81);
    await page.locator('.code-editor .cm-content').waitFor();
  });
});
