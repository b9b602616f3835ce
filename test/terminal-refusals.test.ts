import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { terminalRefusal } from '../src/surfaces/tui/terminal-gate.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { HUB_BIN, runHub } from './run-hub.js';
import { HubTerminal, hasTmux } from './tmux.js';

let dir: string;
let root: string;
const open: HubTerminal[] = [];

beforeAll(() => {
  dir = createTempDir('hub-refuse-');
  root = createDemo(join(dir, 'demo')).root;
});
afterEach(() => {
  for (const t of open.splice(0)) t.close();
});
afterAll(() => removeTempDir(dir));

const INSTEAD = { nav: 'hub workspace repo list --json', tui: 'hub mcp serve' } as const;

describe('terminalRefusal', () => {
  const tty = { env: {}, stdinTty: true, stdoutTty: true, json: false };
  it('lets a person at a terminal in', () => {
    expect(terminalRefusal('nav', tty)).toBeUndefined();
    expect(terminalRefusal('tui', { ...tty, env: { HUB_AGENT_MODE: 'false' } })).toBeUndefined();
  });
  it.each([
    [{ env: { HUB_AGENT_MODE: 'true' } }, 'HUB_AGENT_MODE=true'],
    [{ env: { HUB_AGENT_MODE: '1' } }, 'HUB_AGENT_MODE=1'],
    [{ json: true }, '--json'],
    [{ stdinTty: false }, 'standard input is not a terminal'],
    [{ stdoutTty: false }, 'standard output is not a terminal'],
  ])('refuses %j, saying why and what an agent runs instead', (facts, why) => {
    for (const cmd of ['nav', 'tui'] as const) {
      const line = terminalRefusal(cmd, { ...tty, ...facts })!;
      expect(line).toContain(why);
      expect(line).toContain(INSTEAD[cmd]);
      expect(line).not.toContain('\n');
    }
  });
});

describe('nav, select and tui refuse where no person is at a terminal (exit 2)', () => {
  it.each([
    ['nav'],
    ['select'],
    ['tui'],
    ['tui', '--wizard'],
    ['nav', '-p', 'platform', '--repo', 'gateway'],
  ])('hub %s with stdin and stdout not a terminal: one line on stderr, nothing else', (...args) => {
    const r = runHub(args, { cwd: root, spawn: true });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/for people at a terminal and will not start: standard input is not a terminal/);
    expect(lines[0]).toContain(args[0] === 'tui' ? INSTEAD.tui : INSTEAD.nav);
  });

  it('prints the refusal as a JSON error under --json', () => {
    const r = runHub(['nav', '--json'], { cwd: root, spawn: true });
    expect(r.code).toBe(2);
    expect(r.json().error).toMatchObject({
      code: 'refused',
      message: expect.stringContaining('--json asks for machine output'),
      details: { rule: 'interactive_terminal' },
    });
  });

  it.skipIf(!hasTmux())(
    'refuses HUB_AGENT_MODE=true, --json and a piped stdout even in a real terminal',
    async () => {
      const agent = new HubTerminal({ cwd: root, args: ['tui'], env: { HUB_AGENT_MODE: 'true' } });
      const json = new HubTerminal({ cwd: root, args: ['nav', '--json'] });
      // stdout into a file while stdin stays the terminal (a test-only shell does the redirect).
      const out = join(dir, 'piped.txt');
      const piped = new HubTerminal({
        cwd: root,
        args: [],
        command: ['sh', '-c', `exec "$0" "$1" nav > '${out}'`, process.execPath, HUB_BIN],
      });
      open.push(agent, json, piped);
      expect(await agent.exitCode()).toBe(2);
      expect(agent.transcript()).toContain('will not start: HUB_AGENT_MODE=true; agents use');
      expect(await json.exitCode()).toBe(2);
      expect(json.transcript()).toContain('"code":"refused"');
      expect(await piped.exitCode()).toBe(2);
      expect(piped.transcript()).toContain('will not start: standard output is not a terminal');
      expect(readFileSync(out, 'utf8')).toBe('');
    },
  );
});
