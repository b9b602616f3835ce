// The commands the Agents page shows are meant to be copied into a terminal: each one is taken from the page as
// the user would copy it and run with `sh -c` (a `hub` on the PATH that is this build's bin/hub), against the
// real demo workspace the server serves. A command that needs flags it lacks, or a folder it does not name,
// fails here. Its own demo copy: the commands install files into it.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../fixtures/index.js';
import { HUB_BIN } from '../run-hub.js';
import { describeBrowser, useBrowser } from './harness.js';

async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'Agents' }).waitFor();
  await page.locator('.loading').first().waitFor({ state: 'detached' });
}

describeBrowser('Agents page commands', () => {
  const ui = useBrowser();
  let dir: string;
  let bin: string;
  let home: string;
  let elsewhere: string;
  beforeAll(() => {
    dir = createTempDir('hub-agents-cmd-');
    bin = join(dir, 'bin');
    home = join(dir, 'home');
    elsewhere = join(dir, 'elsewhere');
    for (const d of [bin, home, elsewhere]) mkdirSync(d, { recursive: true });
    const hub = join(bin, 'hub');
    writeFileSync(hub, `#!/bin/sh\nexec '${process.execPath}' '${HUB_BIN}' "$@"\n`);
    chmodSync(hub, 0o755);
  });
  afterAll(() => removeTempDir(dir));

  /** Runs a copied command line in a POSIX shell, as a terminal would. */
  function runCopied(line: string, cwd: string) {
    const r = spawnSync('/bin/sh', ['-c', line], {
      cwd,
      encoding: 'utf8',
      env: {
        PATH: `${bin}:${process.env.PATH}`,
        HOME: home,
        HUB_CACHE_DIR: 'off',
        HUB_DAEMON: 'off',
        NO_COLOR: '1',
      },
    });
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  }

  it('shows install commands in the template preview that run as copied (project scope in a checkout, user scope anywhere)', async () => {
    const page = await ui.open('/agents?template=repo-implementer&vendor=cursor');
    await settled(page);
    const project = (await page.getByTestId('install-project').textContent()) ?? '';
    const user = (await page.getByTestId('install-user').textContent()) ?? '';
    expect(project).toContain('--scope project');
    expect(user).toContain('--scope user');

    const checkout = join(ui.root, 'storefront', 'web');
    const p = runCopied(project, checkout);
    expect(p.out).not.toMatch(/error/i);
    expect(p.code).toBe(0);
    expect(existsSync(join(checkout, '.cursor', 'agents', 'repo-implementer.md'))).toBe(true);

    const u = runCopied(user, elsewhere);
    expect(u.out).not.toMatch(/error/i);
    expect(u.code).toBe(0);
    expect(existsSync(join(home, '.cursor', 'agents', 'repo-implementer.md'))).toBe(true);
  });

  it("shows a dispatch plan's install command that runs as copied from any folder and installs into the repository", async () => {
    const page = await ui.open('/agents?template=repo-implementer&vendor=claude_code');
    await settled(page);
    await page.getByLabel('Repository').fill('platform/identity');
    await page.getByRole('button', { name: 'Show plan' }).click();
    const install = page.getByTitle('Install command');
    await install.waitFor();
    const line = (await install.textContent()) ?? '';
    const r = runCopied(line, elsewhere);
    expect(r.out).not.toMatch(/error/i);
    expect(r.code).toBe(0);
    expect(
      existsSync(join(ui.root, 'platform', 'identity', '.claude', 'agents', 'repo-implementer.md')),
    ).toBe(true);
    // The plan, read again, says it is installed now.
    await page.reload();
    await settled(page);
    await page.getByLabel('Repository').fill('platform/identity');
    await page.getByRole('button', { name: 'Show plan' }).click();
    await page.locator('.plan').getByText('installed (project)').waitFor();
  });
});
