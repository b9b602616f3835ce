import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';
import { HubTerminal, hasTmux, recordingEditor } from './tmux.js';

let dir: string;
let root: string;
let userConfig: string;
let log: string;
let editor: string;
const open: HubTerminal[] = [];

beforeAll(() => {
  dir = createTempDir('hub-tui-');
  root = createDemo(join(dir, 'demo')).root;
  userConfig = join(dir, 'user-config');
  mkdirSync(userConfig);
  log = join(dir, 'editor.log');
  editor = recordingEditor(dir, log);
  writeFileSync(join(userConfig, 'config.yml'), `config:\n  editor: ${editor}\n`);
});
afterEach(() => {
  for (const t of open.splice(0)) t.close();
  writeFileSync(log, '');
});
afterAll(() => removeTempDir(dir));

function term(args: string[], opts: { cwd?: string; configDir?: string } = {}): HubTerminal {
  const t = new HubTerminal({
    cwd: opts.cwd ?? root,
    args,
    env: { HUB_CONFIG_DIR: opts.configDir ?? userConfig },
  });
  open.push(t);
  return t;
}

const opened = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);

/** Moves the menu's cursor from where it is to `label` (Down or Up) and runs it. */
async function choose(t: HubTerminal, label: string): Promise<void> {
  // The whole menu, down to its last item.
  await t.waitFor(/\? hub\n[\s\S]*Quit/);
  const items = t
    .screen()
    .split('\n')
    .filter((l) => /^[❯ ] \S/.test(l));
  const at = items.findIndex((l) => l.slice(2) === label);
  const from = items.findIndex((l) => l.startsWith('❯'));
  expect(at, `menu items: ${items.join(' | ')}`).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < Math.abs(at - from); i++) t.keys(at > from ? 'Down' : 'Up');
  await t.waitFor(`❯ ${label}`);
  // The answer line may scroll off the screen at once under a long output: counted in the transcript.
  const before = t.printed(`✔ hub ${label}`);
  t.keys('Enter');
  await t.waitForPrinted(`✔ hub ${label}`, before);
}

describe.skipIf(!hasTmux())('hub tui in a terminal', { timeout: 120_000 }, () => {
  it('shows the sections, greps file contents with a query prompt, and comes back to the menu', async () => {
    const t = term(['tui']);
    await t.waitFor('-- Tools --');
    expect(t.screen()).toMatch(/-- Workspace --[\s\S]*-- Configuration --[\s\S]*-- Tools --[\s\S]*Quit/);
    await choose(t, 'Search file contents (workspace grep)');
    await t.waitFor('? Text to find');
    t.type('Login, sessions');
    t.keys('Enter');
    await t.waitForOutput('platform/identity/README.md:');
    // The menu again, cursor where it was; Esc on the menu quits.
    await t.waitFor('❯ Search file contents (workspace grep)');
    t.keys('Escape');
    expect(await t.exitCode()).toBe(0);
  });

  it('validates the manifest and shows the application config, as their commands print them', async () => {
    const t = term(['tui']);
    await choose(t, 'Validate the manifest');
    const validate = runHub(['config', 'validate'], { cwd: root });
    await t.waitForOutput(validate.stdout.trim().split('\n')[0]!);
    await choose(t, 'Show the application config');
    await t.waitForOutput(`"editor": "${editor}"`);
    await choose(t, 'Quit');
    expect(await t.exitCode()).toBe(0);
  });

  it('opens a repository: project, then repository, then the editor', async () => {
    const t = term(['tui']);
    await choose(t, 'Open a repository (project, then repository)');
    await t.waitFor('? Project');
    t.type('plat');
    await t.waitFor('❯ platform');
    await t.enterUntil('? Project plat', '? Repository of platform');
    t.type('gate');
    await t.waitFor('❯ gateway');
    await t.enterUntil('? Repository of platform gate', `opening platform/gateway with ${editor}`);
    await t.waitFor('? hub');
    expect(opened()).toEqual([join(root, 'platform', 'gateway')]);
    // Esc inside an item goes back to the menu, not out of the tui.
    await choose(t, 'Search the catalog (names, descriptions, tags)');
    await t.waitFor('? Words to look for');
    t.keys('Escape');
    await t.waitFor('❯ Search the catalog (names, descriptions, tags)');
    t.keys('C-c');
    expect(await t.exitCode()).toBe(130);
  });

  it('runs its operations in process: no child process is a hub', async () => {
    // Every child process hub starts goes through node:child_process (src/infra/child-process.ts); a preload
    // records each one, so a menu item that ran `hub ...` in a child would show here.
    const spawns = join(dir, 'spawns.log');
    const spy = join(dir, 'spawn-spy.cjs');
    writeFileSync(
      spy,
      `const cp = require('node:child_process');
const fs = require('node:fs');
for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'fork', 'exec', 'execSync']) {
  const original = cp[name];
  cp[name] = function (command, args, ...rest) {
    fs.appendFileSync(${JSON.stringify(spawns)}, JSON.stringify([name, command, Array.isArray(args) ? args : []]) + '\\n');
    return original.call(this, command, args, ...rest);
  };
}
`,
    );
    const t = new HubTerminal({
      cwd: root,
      args: ['tui'],
      env: { HUB_CONFIG_DIR: userConfig, NODE_OPTIONS: `--require ${spy}` },
    });
    open.push(t);
    await choose(t, 'List the catalog');
    await t.waitForOutput('storefront/catalog');
    await choose(t, 'Validate the manifest');
    await choose(t, 'Search the catalog (names, descriptions, tags)');
    await t.waitFor('? Words to look for');
    t.type('login');
    t.keys('Enter');
    await t.waitForOutput('platform/identity');
    // Content grep runs ripgrep (or git) as a child: the preload sees it, so it would see a hub too.
    await choose(t, 'Search file contents (workspace grep)');
    await t.waitFor('? Text to find');
    t.type('Login, sessions');
    t.keys('Enter');
    await t.waitForOutput('platform/identity/README.md:');
    await choose(t, 'Quit');
    expect(await t.exitCode()).toBe(0);
    const calls = existsSync(spawns)
      ? readFileSync(spawns, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as [string, string, string[]])
      : [];
    const selves = calls.filter(
      ([, command, args]) =>
        command === process.execPath || args.some((a) => /bin\/hub$|dist\/cli\.js$/.test(a)),
    );
    expect(selves).toEqual([]);
    expect(calls.length, 'the preload saw no child process at all').toBeGreaterThan(0);
  });

  it('prints an operation failure and keeps the menu (no manifest here)', async () => {
    const empty = mkdtempSync(join(dir, 'empty-'));
    const t = term(['tui'], { cwd: empty });
    await choose(t, 'List the catalog');
    await t.waitForOutput(/error: .*\.hub\.yml/);
    await choose(t, 'Validate the application config');
    await t.waitForOutput('ok: ');
    t.keys('Escape');
    expect(await t.exitCode()).toBe(0);
  });
});

describe.skipIf(!hasTmux())('hub tui --wizard', { timeout: 120_000 }, () => {
  it('writes hub.config.yaml through appconfig patch, and the editor to the user config (a workspace file may not name it)', async () => {
    const ws = createDemo(join(dir, 'wizard-demo')).root;
    const own = join(dir, 'wizard-user-config');
    mkdirSync(own);
    const t = term(['tui', '--wizard'], { cwd: ws, configDir: own });
    await t.waitFor('? Editor command');
    t.type(editor);
    t.keys('Enter');
    await t.waitFor('(workspace.ui_ignore_hidden)?');
    t.type('n');
    t.keys('Enter');
    await t.waitFor('? Write 2 setting(s)?');
    expect(t.screen()).toContain(
      `workspace.ui_ignore_hidden: true -> false  (${join(ws, 'hub.config.yaml')})`,
    );
    expect(t.screen()).toContain(`config.editor: code -> ${editor}  (${join(own, 'config.yml')})`);
    t.keys('Enter');
    expect(await t.exitCode()).toBe(0);
    expect(t.transcript()).toContain(`ok: ${join(ws, 'hub.config.yaml')}`);
    expect(readFileSync(join(ws, 'hub.config.yaml'), 'utf8')).toBe('workspace:\n  ui_ignore_hidden: false\n');
    expect(readFileSync(join(own, 'config.yml'), 'utf8')).toBe(`config:\n  editor: ${editor}\n`);
    const info = runHub(['appconfig', 'info', '--json'], { cwd: ws, env: { HUB_CONFIG_DIR: own } }).json();
    expect(info.config.config.editor).toBe(editor);
    expect(info.config.workspace.ui_ignore_hidden).toBe(false);
    // nav now opens with the editor the wizard set.
    const nav = term(['nav', '-p', 'storefront', '--repo', 'web'], { cwd: ws, configDir: own });
    expect(await nav.exitCode()).toBe(0);
    expect(opened()).toEqual([join(ws, 'storefront', 'web')]);
  });

  it('keeps the comments of an existing hub.config.yaml, and writes nothing when told no', async () => {
    const ws = createDemo(join(dir, 'wizard-comments')).root;
    const file = join(ws, 'hub.config.yaml');
    const before = '# team settings\nworkspace:\n  ui_ignore_hidden: true # dot folders stay hidden\n';
    writeFileSync(file, before);
    const own = join(dir, 'wizard-comments-user');
    mkdirSync(own);
    const no = term(['tui', '--wizard'], { cwd: ws, configDir: own });
    await no.waitFor('? Editor command');
    no.keys('Enter');
    await no.waitFor('(workspace.ui_ignore_hidden)?');
    no.type('n');
    no.keys('Enter');
    await no.waitFor('? Write 1 setting(s)?');
    no.type('n');
    no.keys('Enter');
    expect(await no.exitCode()).toBe(0);
    expect(no.transcript()).toContain('Nothing written.');
    expect(readFileSync(file, 'utf8')).toBe(before);
    const yes = term(['tui', '--wizard'], { cwd: ws, configDir: own });
    await yes.waitFor('? Editor command');
    yes.keys('Enter');
    await yes.waitFor('(workspace.ui_ignore_hidden)?');
    yes.type('n');
    yes.keys('Enter');
    await yes.waitFor('? Write 1 setting(s)?');
    yes.keys('Enter');
    expect(await yes.exitCode()).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(
      '# team settings\nworkspace:\n  ui_ignore_hidden: false # dot folders stay hidden\n',
    );
    expect(existsSync(join(own, 'config.yml'))).toBe(false);
  });
});
