import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { hubAsync, runObjectiveWriters } from './fixtures/concurrent-writers.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { HUB_BIN, runHub } from './run-hub.js';

// A real daemon process on a real Unix socket, in a private runtime folder of this test (XDG_RUNTIME_DIR), so a
// daemon the developer runs is never touched. Every forwarded command is compared with the same command run
// in its own process (HUB_DAEMON=off).

let dir: string;
let runtime: string;
let manifest: string;
let daemon: ChildProcess | undefined;

const daemonEnv = () => ({ XDG_RUNTIME_DIR: runtime, HUB_DAEMON: '', HUB_CACHE_DIR: join(dir, 'cache') });
const viaDaemon = (args: string[], env: Record<string, string> = {}, input?: string) =>
  runHub(args, { env: { ...daemonEnv(), ...env }, input });
const local = (args: string[], env: Record<string, string> = {}, input?: string) =>
  runHub(args, { env: { ...daemonEnv(), ...env, HUB_DAEMON: 'off' }, input });

interface Status {
  running: boolean;
  pid?: number;
  served?: number;
  declined?: Record<string, number>;
  socket: string;
}
const status = (): Status => {
  const r = viaDaemon(['daemon', 'status', '--json']);
  expect(r.code, r.stderr).toBe(0);
  return r.json();
};

/** Starts `hub daemon serve` in the foreground as a child of the test and waits until it answers. */
async function startDaemon(extra: string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [HUB_BIN, 'daemon', 'serve', ...extra], {
    env: { ...process.env, NO_COLOR: '1', HUB_AGENT_MODE: '', ...daemonEnv() },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  for (let i = 0; i < 200 && !status().running; i++) {
    if (child.exitCode !== null) throw new Error(`daemon exited ${child.exitCode}: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(status().running, err).toBe(true);
  return child;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

beforeAll(async () => {
  dir = createTempDir('hub-daemon-');
  runtime = join(dir, 'run');
  mkdirSync(runtime, { mode: 0o700 });
  manifest = createDemo(join(dir, 'demo')).manifestPath;
  daemon = await startDaemon();
});
afterAll(async () => {
  if (daemon && daemon.exitCode === null) {
    daemon.kill('SIGTERM');
    await exited(daemon);
  }
  removeTempDir(dir);
});

describe('hub daemon', () => {
  it('serves from a socket in the private runtime folder, named by the build', () => {
    const s = status();
    expect(s.socket.startsWith(join(runtime, 'hub', 'daemon-'))).toBe(true);
    expect(s.pid).toBe(daemon!.pid);
    expect(readdirSync(join(runtime, 'hub'))).toEqual([s.socket.slice(join(runtime, 'hub').length + 1)]);
  });

  it('runs commands for the client with the same output and exit code as a process of their own', () => {
    const cases: string[][] = [
      ['-c', manifest, 'component', 'list', '--json'],
      ['-c', manifest, 'component', 'list'],
      ['-c', manifest, 'context', 'pack', '--tier', '1', '--json'],
      ['-c', manifest, 'component', 'show', 'no-such-component', '--json'],
      ['-c', manifest, 'component', 'show', 'no-such-component'],
      ['-c', join(dir, 'missing.yml'), 'component', 'list', '--json'],
    ];
    for (const args of cases) {
      const before = status().served!;
      const a = local(args);
      const b = viaDaemon(args);
      expect(b.code, args.join(' ')).toBe(a.code);
      expect(b.stdout, args.join(' ')).toBe(a.stdout);
      expect(b.stderr, args.join(' ')).toBe(a.stderr);
      expect(status().served, `${args.join(' ')} went through the daemon`).toBe(before + 1);
    }
    expect(local(['-c', manifest, 'component', 'show', 'no-such-component', '--json']).code).toBe(1);
  });

  it('serves concurrent clients, each its own output', async () => {
    const before = status().served!;
    const lists = [
      ['component', 'list', '--json'],
      ['context', 'pack', '--tier', '0', '--json'],
      ['context', 'pack', '--tier', '1', '--json'],
      ['workspace', 'repo', 'list', '--json'],
    ];
    const runs = await Promise.all(
      [...lists, ...lists].map((args) => hubAsync(manifest, args, { ...daemonEnv(), HUB_AGENT_MODE: '' })),
    );
    runs.forEach((r, i) => {
      const args = [...lists, ...lists][i]!;
      expect(r.code, r.out).toBe(0);
      expect(r.out).toBe(local(['-c', manifest, ...args]).stdout);
    });
    expect(status().served).toBe(before + 8);
  });

  it('loses no update when concurrent clients write the same document through it', async () => {
    const before = status().served!;
    const { failures, written } = await runObjectiveWriters({
      manifest,
      workers: 4,
      updates: 5,
      env: { ...daemonEnv(), HUB_AGENT_MODE: '' },
    });
    expect(failures).toEqual([]);
    expect(status().served).toBe(before + written.length);
    const ids = local(['-c', manifest, 'context', 'objective', 'list', '--json'])
      .json()
      .objectives.map((o: { id: string }) => o.id);
    for (const id of written) expect(ids).toContain(id);
  });

  it('uses the client directory: a relative manifest path resolves where the client runs', () => {
    const args = ['-c', 'demo/.hub.yml', 'component', 'list', '--json'];
    const a = runHub(args, { cwd: dir, env: { ...daemonEnv(), HUB_DAEMON: 'off' } });
    const b = runHub(args, { cwd: dir, env: daemonEnv() });
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
  });

  it('declines, and the client runs it itself: help, usage errors, piped stdin, another environment', () => {
    const before = status();
    const help = viaDaemon(['component', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(local(['component', '--help']).stdout);
    const usage = viaDaemon(['-c', manifest, 'component', 'list', '--no-such-flag']);
    expect(usage.code).toBe(2);
    // A command that reads JSON on stdin, with stdin piped: only the client has that stdin.
    const input = JSON.stringify({ id: 'obj-stdin', title: 'from stdin', status: 'pending' });
    const piped = viaDaemon(['-c', manifest, 'context', 'objective', 'set', '--json'], {}, input);
    expect(piped.code, piped.stdout + piped.stderr).toBe(0);
    expect(piped.stdout).toContain('from stdin');
    // git reads its environment from the process that runs it: a client whose GIT_* differ runs locally.
    const otherEnv = viaDaemon(['-c', manifest, 'component', 'list', '--json'], { GIT_AUTHOR_NAME: 'x' });
    expect(otherEnv.code).toBe(0);
    const after = status();
    expect(after.served).toBe(before.served);
    expect(after.declined!.commander).toBeGreaterThanOrEqual((before.declined!.commander ?? 0) + 2);
    expect(after.declined!.stdin).toBe((before.declined!.stdin ?? 0) + 1);
    expect(after.declined!.environment).toBe((before.declined!.environment ?? 0) + 1);
  });

  it('declines a command that streams until Ctrl-C: only the client sees its reader go away', () => {
    const before = status();
    // A bad --since ends the follow at once in the client, which proves it ran there.
    const r = viaDaemon(['-c', manifest, 'context', 'follow', '--since', 'yesterday', '--json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('iso_timestamp');
    const after = status();
    expect(after.served).toBe(before.served);
    expect(after.declined!.stream).toBe((before.declined!.stream ?? 0) + 1);
  });

  it('is not used when its folder is open to others, or with HUB_DAEMON=off', () => {
    const folder = join(runtime, 'hub');
    const before = status().served!;
    chmodSync(folder, 0o755);
    try {
      expect(viaDaemon(['-c', manifest, 'component', 'list', '--json']).code).toBe(0);
    } finally {
      chmodSync(folder, 0o700);
    }
    expect(viaDaemon(['-c', manifest, 'component', 'list', '--json'], { HUB_DAEMON: 'off' }).code).toBe(0);
    expect(status().served).toBe(before);
  });

  it('refuses a second daemon of the same build', () => {
    const r = viaDaemon(['daemon', 'serve']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/already serves/);
  });

  it('stops on request and removes its socket; commands then run in their own process', async () => {
    const socket = status().socket;
    const r = viaDaemon(['daemon', 'stop', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ stopped: true, pid: daemon!.pid });
    expect(await exited(daemon!)).toBe(0);
    expect(existsSync(socket)).toBe(false);
    expect(status().running).toBe(false);
    expect(viaDaemon(['-c', manifest, 'component', 'list', '--json']).code).toBe(0);
    expect(viaDaemon(['daemon', 'stop', '--json']).json()).toMatchObject({ stopped: false });
  });

  it('ignores a socket file nobody listens on', () => {
    const socket = status().socket;
    mkdirSync(join(runtime, 'hub'), { recursive: true, mode: 0o700 });
    writeFileSync(socket, '');
    try {
      const r = viaDaemon(['-c', manifest, 'component', 'list', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(local(['-c', manifest, 'component', 'list', '--json']).stdout);
    } finally {
      rmSync(socket, { force: true });
    }
  });

  it('starts in the background, and stops by itself once idle', async () => {
    const started = viaDaemon(['daemon', 'start', '--idle-minutes', '0.02', '--json']);
    expect(started.code, started.stderr).toBe(0);
    const s = started.json();
    expect(s).toMatchObject({ running: true, idle_minutes: 0.02 });
    // Its log goes to a file beside the socket.
    expect(s.log).toBe(s.socket.replace(/\.sock$/, '.log'));
    expect(readFileSync(s.log, 'utf8')).toContain(`serving build ${s.build}`);
    expect(viaDaemon(['-c', manifest, 'component', 'list', '--json']).code).toBe(0);
    // Idle for 1.2 s: the daemon removes its socket and exits; wait for that without asserting a duration.
    for (let i = 0; i < 300 && status().running; i++) await new Promise((r) => setTimeout(r, 100));
    expect(status().running).toBe(false);
    expect(existsSync(s.socket)).toBe(false);
  });

  it('lists daemons of other builds, and stop --all stops them too', async () => {
    // A stand-in for an older install's daemon: it speaks the protocol's status and stop, nothing else.
    const socket = join(runtime, 'hub', 'daemon-0123456789abcdef.sock');
    const asked: string[] = [];
    const other = createServer((conn) => {
      conn.setEncoding('utf8');
      conn.once('data', (line: string) => {
        const req = JSON.parse(line.trim());
        asked.push(req.control);
        const status = { pid: 4242, build: '0123456789abcdef', socket, started_at: '', idle_minutes: 1 };
        conn.end(`${JSON.stringify({ status: { ...status, log: null, served: 0, declined: {} } })}\n`);
      });
    });
    await new Promise<void>((resolve) => other.listen(socket, resolve));
    try {
      // Spawned asynchronously: the stand-in answers from this process's event loop.
      const s = await hubAsync(manifest, ['daemon', 'status', '--json'], daemonEnv());
      expect(s.code, s.out).toBe(0);
      expect(JSON.parse(s.out).other_builds).toEqual([{ build: '0123456789abcdef', pid: 4242, socket }]);
      const stop = await hubAsync(manifest, ['daemon', 'stop', '--all', '--json'], daemonEnv());
      expect(stop.code, stop.out).toBe(0);
      expect(JSON.parse(stop.out)).toMatchObject({ others: [4242] });
      expect(asked).toContain('stop');
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('checks --idle-minutes', () => {
    const r = viaDaemon(['daemon', 'start', '--idle-minutes', 'soon', '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({
      code: 'validation',
      details: { field: 'idle_minutes', value: 'soon' },
    });
  });
});
