import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';

export const HUB_BIN = join(import.meta.dirname, '..', 'bin', 'hub');

/**
 * `path` (a PATH value) without the folders whose `hub` is this checkout's (`npm link` puts one in npm's bin
 * folder): a test that needs no hub of ours on the PATH passes on a developer's machine too.
 */
export function pathWithoutThisHub(path: string): string {
  const mine = realpathSync(HUB_BIN);
  const ours = (dir: string) => {
    try {
      return realpathSync(join(dir, 'hub')) === mine;
    } catch {
      return false;
    }
  };
  return path
    .split(delimiter)
    .filter((dir) => !dir || !ours(dir))
    .join(delimiter);
}

export interface HubRun {
  code: number;
  stdout: string;
  stderr: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the command printed.
  json: () => any;
}

export interface RunHubOptions {
  cwd?: string;
  env?: Record<string, string>;
  input?: string;
  /** Run as a process of its own even when the test daemon could take it (the process boundary is tested). */
  spawn?: boolean;
}

const TIMEOUT_MS = 60_000;

/**
 * Runs the built CLI; the manifest cache is off unless a test sets HUB_CACHE_DIR, and a daemon the developer
 * may be running is never used unless a test sets HUB_DAEMON.
 *
 * The command runs in this test worker's own `hub daemon` (the product's warm path: the same command code, with
 * the test's directory and environment) and, when the daemon declines it (help, usage errors, piped stdin, an
 * environment the daemon does not share), as a process of its own. A process costs ~100 ms of CPU and the suite
 * runs thousands of commands. HUB_TEST_SPAWN=1 runs every command as a process.
 */
export function runHub(args: string[], opts: RunHubOptions = {}): HubRun {
  const cwd = opts.cwd ?? process.cwd();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    HUB_CACHE_DIR: 'off',
    HUB_DAEMON: 'off',
    HUB_AGENT_MODE: '',
    NO_COLOR: '1',
    ...opts.env,
  };
  if (!opts.spawn && !opts.input && daemonMayRun(opts.env)) {
    const viaDaemon = runInDaemon(args, cwd, env);
    if (process.env.HUB_TEST_TRACE === '1')
      process.stderr.write(`[runHub] ${viaDaemon ? 'daemon' : 'process'} ${args.join(' ')}\n`);
    if (viaDaemon) return viaDaemon;
  }
  const r = spawnSync(process.execPath, [HUB_BIN, ...args], {
    cwd,
    env,
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
  });
  return result(r.status ?? -1, r.stdout, r.stderr);
}

function result(code: number, stdout: string, stderr: string): HubRun {
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}

/** Tests of the daemon itself, and of what only a process has, choose their own. */
function daemonMayRun(env: Record<string, string> | undefined): boolean {
  if (process.env.HUB_TEST_SPAWN === '1') return false;
  if (!env) return true;
  return !('HUB_DAEMON' in env) && !('XDG_RUNTIME_DIR' in env) && !('NODE_OPTIONS' in env);
}

interface Answer {
  declined?: string;
  code?: number;
  stdout: string;
  stderr: string;
  lost: boolean;
  /** The daemon accepted the command (its first frame was `run`). */
  ran?: boolean;
  status?: { build: string };
}

interface Daemon {
  socket: string;
  build: string;
  process: ChildProcess;
  runtime: string;
}

/** Environment a daemon must share with the commands it runs (src/surfaces/cli/daemon-socket.ts SHARED_ENV). */
const SHARED_ENV = /^(PATH|HOME|TMPDIR|GIT_.*|XDG_(CONFIG|CACHE|DATA|STATE)_HOME|XDG_(CONFIG|DATA)_DIRS)$/;
/** Daemons kept per test worker: one per shared environment (a test file with its own HOME gets its own). */
const MAX_DAEMONS = 3;

let channel: { worker: Worker; port: MessagePort } | undefined;
const daemons = new Map<string, Daemon | null>();

process.once('exit', () => {
  for (const d of daemons.values()) if (d) stopDaemon(d);
});

const uses = new Map<string, number>();

function sharedKey(env: Record<string, string | undefined>): string {
  return JSON.stringify(
    Object.entries(env)
      .filter(([k]) => SHARED_ENV.test(k))
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
}

let own: string | undefined;
const ownKey = () => {
  own ??= sharedKey(process.env);
  return own;
};

function runInDaemon(args: string[], cwd: string, env: Record<string, string>): HubRun | undefined {
  const key = sharedKey(env);
  let daemon = daemons.get(key);
  if (daemon === undefined) {
    // A daemon costs about three commands to start: an environment (a test's own HOME) gets one from its
    // third command on; the test process's own environment at once.
    const seen = (uses.get(key) ?? 0) + 1;
    uses.set(key, seen);
    if (seen < 3 && key !== ownKey()) return undefined;
    daemon = startDaemon(env);
    daemons.set(key, daemon);
    evictOldest();
  }
  if (!daemon) return undefined;
  const answer = ask(daemon.socket, {
    hub_daemon: 1,
    build: daemon.build,
    argv: args,
    cwd,
    env,
    stdin: false,
  });
  if (!answer || answer.declined !== undefined) return undefined;
  if (!answer.ran) {
    // Nothing ran (the daemon stopped, idle or killed): start another next time, run this one as a process.
    daemons.delete(key);
    if (daemon) stopDaemon(daemon);
    return undefined;
  }
  if (answer.lost || answer.code === undefined) {
    // The daemon went away mid-command: this run cannot be trusted, and neither can the daemon.
    daemons.set(key, null);
    return result(1, answer.stdout, `${answer.stderr}test daemon lost during the command\n`);
  }
  return result(answer.code, answer.stdout, answer.stderr);
}

function evictOldest(): void {
  while (daemons.size > MAX_DAEMONS) {
    const [oldest, d] = daemons.entries().next().value as [string, Daemon | null];
    daemons.delete(oldest);
    if (d) stopDaemon(d);
  }
}

function stopDaemon(d: Daemon): void {
  d.process.kill();
  rmSync(d.runtime, { recursive: true, force: true });
}

/** Sends one message to a daemon socket through the bridge thread and waits for its answer. */
function ask(socket: string, message: Record<string, unknown>): Answer | undefined {
  if (!channel) {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL('./daemon-bridge-worker.mjs', import.meta.url), {
      workerData: { port: port2 },
      transferList: [port2],
    });
    worker.unref();
    port1.unref();
    channel = { worker, port: port1 };
  }
  const flag = new SharedArrayBuffer(4);
  channel.port.postMessage({ socket, request: message, flag });
  const status = Atomics.wait(new Int32Array(flag), 0, 0, TIMEOUT_MS);
  if (status === 'timed-out') return undefined;
  return receiveMessageOnPort(channel.port)?.message as Answer | undefined;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Starts a daemon with `env`'s shared part in a private runtime folder; null when it does not come up. */
function startDaemon(env: Record<string, string>): Daemon | null {
  const runtime = mkdtempSync(join(tmpdir(), 'hub-test-daemon-'));
  // The guard stops the daemon when this worker goes away; the idle limit is a second line.
  const guard = join(import.meta.dirname, 'daemon-guard.mjs');
  const child = spawn(process.execPath, [guard, HUB_BIN, 'daemon', 'serve', '--idle-minutes', '2'], {
    cwd: tmpdir(),
    env: { ...env, XDG_RUNTIME_DIR: runtime, HUB_DAEMON: '' },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  const hubDir = join(runtime, 'hub');
  for (let waited = 0; waited < 15_000; waited += 20) {
    const socket = existsSync(hubDir) ? findSocket(hubDir) : undefined;
    const build = socket && ask(socket, { hub_daemon: 1, build: 'test', control: 'status' })?.status?.build;
    if (socket && build) return { socket, build, process: child, runtime };
    if (child.exitCode !== null) break;
    sleep(20);
  }
  stopDaemon({ socket: '', build: '', process: child, runtime });
  return null;
}

function findSocket(dir: string): string | undefined {
  const name = readdirSync(dir).find((f) => /^daemon-[A-Za-z0-9]+\.sock$/.test(f));
  return name ? join(dir, name) : undefined;
}
