import { existsSync, fstatSync } from 'node:fs';
import { dirname } from 'node:path';
// The build id straight from its module, not the ops door: this file loads before anything else of hub.
import { BUILD_ID } from '../../ops/build-info.js';
import { commandWord } from './command-word.js';
import { type DaemonStatus, type Frame, PROTOCOL } from './daemon-protocol.js';
import type { CommandRequest, ControlRequest } from './daemon-request.js';
import { daemonSocket, daemonUsable, isPrivateDir, SHARED_ENV } from './daemon-socket.js';

type Env = Readonly<Record<string, string | undefined>>;

/** Whether stdin holds data a command could read (a file, a pipe or a socket). */
function stdinHasData(): boolean {
  try {
    const st = fstatSync(0);
    return st.isFile() || st.isFIFO() || st.isSocket();
  } catch {
    return false;
  }
}

/** The socket of a daemon of this build that may be used, or undefined. */
export function usableSocket(env: Env): string | undefined {
  if (!daemonUsable(env, BUILD_ID)) return undefined;
  const socket = daemonSocket(env, BUILD_ID);
  return existsSync(socket) && isPrivateDir(dirname(socket)) ? socket : undefined;
}

/**
 * Sends one request and hands each frame to `onFrame` until it returns a result. Resolves with that result,
 * or with `lost(framed)` when the socket fails or closes first (`framed`: a frame had arrived).
 */
export function exchange<T>(
  socket: string,
  request: CommandRequest | ControlRequest,
  onFrame: (frame: Frame) => T | undefined,
  lost: (framed: boolean) => T,
): Promise<T> {
  const net = process.getBuiltinModule('node:net');
  return new Promise((resolve) => {
    let settled = false;
    let framed = false;
    let buf = '';
    const s = net.createConnection(socket);
    const settle = (v: T) => {
      if (settled) return;
      settled = true;
      s.destroy();
      resolve(v);
    };
    s.setEncoding('utf8');
    s.on('connect', () => s.write(`${JSON.stringify(request)}\n`));
    s.on('data', (chunk: string) => {
      buf += chunk;
      for (let nl = buf.indexOf('\n'); nl >= 0 && !settled; nl = buf.indexOf('\n')) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let frame: Frame;
        try {
          frame = JSON.parse(line) as Frame;
        } catch {
          settle(lost(framed));
          return;
        }
        framed = true;
        const v = onFrame(frame);
        if (v !== undefined) settle(v);
      }
    });
    const onLost = () => {
      if (!settled) settle(lost(framed));
    };
    s.on('error', onLost);
    s.on('close', onLost);
  });
}

/** Asks the daemon at `socket` (of any build) for its status, or to stop; undefined when none answers. */
export function controlDaemon(socket: string, control: 'status' | 'stop'): Promise<DaemonStatus | undefined> {
  return exchange<DaemonStatus | undefined>(
    socket,
    { hub_daemon: PROTOCOL, build: BUILD_ID, control },
    (f) => ('status' in f ? f.status : undefined),
    () => undefined,
  );
}

/**
 * Runs the command line in this build's daemon when one is running, and prints what it prints. Undefined when
 * there is no daemon, it cannot be reached, or it declines (help, usage errors, a command that reads piped
 * stdin, an environment that differs from its own): the caller then runs the command itself.
 */
export async function forwardToDaemon(argv: string[], env: Env = process.env): Promise<number | undefined> {
  // The daemon's own commands talk to it themselves.
  if (commandWord(argv) === 'daemon') return undefined;
  const socket = usableSocket(env);
  if (!socket) return undefined;
  const request: CommandRequest = {
    hub_daemon: PROTOCOL,
    build: BUILD_ID,
    argv,
    cwd: process.cwd(),
    env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
    stdin: stdinHasData(),
  };
  const writes: Array<Promise<void>> = [];
  const write = (stream: NodeJS.WriteStream, text: string) => {
    writes.push(new Promise((done) => stream.write(text, () => done())));
  };
  const code = await exchange<number | 'declined'>(
    socket,
    request,
    (frame) => {
      if ('decline' in frame) return 'declined';
      if ('out' in frame) write(process.stdout, frame.out);
      else if ('err' in frame) write(process.stderr, frame.err);
      else if ('exit' in frame) return frame.exit;
      return undefined;
    },
    (framed) => {
      // The daemon answers `run` or `decline` before doing anything: with no frame yet, nothing ran here
      // (a stale socket, a daemon shutting down), so the command runs in this process. After `run`, never twice.
      if (!framed) return 'declined';
      process.stderr.write(`error: lost the hub daemon at ${socket} before the command finished\n`);
      return 1;
    },
  );
  if (code === 'declined') return undefined;
  await Promise.all(writes);
  return code;
}

/** Which environment entries the daemon and a client must share; the names that differ. */
export function envDifferences(a: Env, b: Env): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => SHARED_ENV.test(k)));
  return [...names].filter((k) => a[k] !== b[k]).sort();
}
