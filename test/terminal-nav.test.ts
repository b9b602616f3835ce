import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { HubTerminal, hasTmux, recordingEditor } from './tmux.js';

const tmux = hasTmux();
if (!tmux) console.log('terminal tests skipped: tmux is not installed (apt-get install -y tmux)');

let dir: string;
let root: string;
let userConfig: string;
let log: string;
const open: HubTerminal[] = [];

beforeAll(() => {
  dir = createTempDir('hub-nav-');
  root = createDemo(join(dir, 'demo')).root;
  userConfig = join(dir, 'user-config');
  mkdirSync(userConfig);
  log = join(dir, 'editor.log');
  const editor = recordingEditor(dir, log);
  // The editor is the user's own setting (a workspace hub.config.yaml may not name a command).
  writeFileSync(join(userConfig, 'config.yml'), `config:\n  editor: ${editor} --reuse-window\n`);
});
afterEach(() => {
  for (const t of open.splice(0)) t.close();
  writeFileSync(log, '');
});
afterAll(() => removeTempDir(dir));

function nav(args: string[] = []): HubTerminal {
  const t = new HubTerminal({ cwd: root, args: ['nav', ...args], env: { HUB_CONFIG_DIR: userConfig } });
  open.push(t);
  return t;
}

const opened = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);

describe.skipIf(!tmux)('hub nav in a terminal', { timeout: 120_000 }, () => {
  it('picks a project, then a repository with the fuzzy finder and its preview, and opens it', async () => {
    const t = nav();
    await t.waitFor('? Project');
    await t.waitFor(/platform[\s\S]*storefront/);
    t.type('store');
    await t.waitFor(/❯ storefront/);
    await t.enterUntil('? Project store', '? Repository of storefront');
    // The preview of the highlighted repository sits under the list.
    await t.waitFor(`path: ${join(root, 'storefront', 'web')}`);
    t.type('ctlg');
    await t.waitFor(/❯ catalog/);
    await t.waitFor(`path: ${join(root, 'storefront', 'catalog')}`);
    await t.enterUntil('? Repository of storefront ctlg', 'opening storefront/catalog');
    expect(await t.exitCode()).toBe(0);
    expect(opened()).toEqual(['--reuse-window', join(root, 'storefront', 'catalog')]);
  });

  it('opens -p PROJECT --repo NAME without a picker', async () => {
    const t = nav(['-p', 'platform', '--repo', 'gateway']);
    expect(await t.exitCode()).toBe(0);
    expect(opened()).toEqual(['--reuse-window', join(root, 'platform', 'gateway')]);
    expect(t.transcript()).not.toContain('?');
  });

  it('goes straight to the repositories with -p (select is the same command)', async () => {
    const t = new HubTerminal({
      cwd: root,
      args: ['select', '-p', 'platform'],
      env: { HUB_CONFIG_DIR: userConfig },
    });
    open.push(t);
    await t.waitFor('? Repository of platform');
    expect(t.screen()).not.toContain('? Project');
    t.keys('Down');
    await t.waitFor(/❯ gateway/);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(opened()).toEqual(['--reuse-window', join(root, 'platform', 'gateway')]);
  });

  it('cancels with Esc (exit 130) and opens nothing', async () => {
    const t = nav(['-p', 'storefront']);
    await t.waitFor('? Repository of storefront');
    t.keys('Escape');
    expect(await t.exitCode()).toBe(130);
    expect(t.transcript()).toContain('cancelled (Esc)');
    expect(opened()).toEqual([]);
  });

  it('cancels with Ctrl-C at the project picker (exit 130)', async () => {
    const t = nav();
    await t.waitFor('? Project');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
    expect(opened()).toEqual([]);
  });

  it('will not open a repository that is not on disk, and says how to get it', async () => {
    const t = nav(['-p', 'platform']);
    await t.waitFor('? Repository of platform');
    t.type('legacy');
    await t.waitFor('legacy-billing (not on disk: hub project sync --project platform)');
    t.keys('Enter');
    // Enter picks nothing: the finder stays, the editor never runs.
    await t.waitFor('? Repository of platform legacy');
    t.keys('Escape');
    expect(await t.exitCode()).toBe(130);
    expect(opened()).toEqual([]);
  });

  it('exits 1 naming the nearest project for an unknown -p, and the nearest repository for an unknown --repo', async () => {
    const a = nav(['-p', 'platfrom']);
    expect(await a.exitCode()).toBe(1);
    expect(a.transcript()).toMatch(/platfrom[\s\S]*platform/);
    const b = nav(['-p', 'platform', '--repo', 'gatway']);
    expect(await b.exitCode()).toBe(1);
    expect(b.transcript()).toMatch(/gatway[\s\S]*gateway/);
    expect(opened()).toEqual([]);
  });
});
