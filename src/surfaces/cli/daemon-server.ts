import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { RefusedError, scrubSecrets } from '../../infra/index.js';
import { BUILD_ID } from '../../ops/index.js';
import { forwardingIo } from './cli-io.js';
import { commandTable } from './command-table.js';
import { controlDaemon, envDifferences } from './daemon-client.js';
import type { DaemonStatus, Frame } from './daemon-protocol.js';
import { RequestSchema } from './daemon-request.js';
import { ensurePrivateDir } from './daemon-socket.js';
import { runFast } from './main.js';

export interface DaemonOptions {
  socket: string;
  /** Where the log goes when the daemon runs in the background (shown by status). */
  logFile?: string;
  /** Minutes without a request after which the daemon stops. */
  idleMinutes: number;
  log: (line: string) => void;
}

/**
 * Serves CLI commands of this build on a Unix socket in a private folder until stopped or idle. Each command
 * runs as the CLI would run it, with the client's directory, environment and argv, on code that is already
 * loaded and warm. What it cannot run exactly as the client would, it declines before running anything.
 */
export async function serveDaemon(opts: DaemonOptions): Promise<void> {
  const { socket } = opts;
  if (!ensurePrivateDir(dirname(socket))) {
    throw new RefusedError(`the daemon folder ${dirname(socket)} must belong to this user with mode 0700`, {
      field: 'socket',
      value: socket,
      rule: 'private_dir',
    });
  }
  if (await controlDaemon(socket, 'status')) {
    throw new RefusedError(`a hub daemon of build ${BUILD_ID} already serves ${socket}`, {
      field: 'socket',
      value: socket,
      rule: 'one_daemon',
    });
  }
  rmSync(socket, { force: true });
  const entries = await commandTable();
  const status: DaemonStatus = {
    pid: process.pid,
    build: BUILD_ID,
    socket,
    started_at: new Date().toISOString(),
    idle_minutes: opts.idleMinutes,
    log: opts.logFile ?? null,
    served: 0,
    declined: {},
  };
  let active = 0;
  let idle: NodeJS.Timeout | undefined;
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  // Idle time counts from the last command run; status checks and declined requests do not keep it alive.
  // The listening server keeps the process alive; the timer must not outlive it.
  let lastUse = Date.now();
  const armIdle = () => {
    if (idle) clearTimeout(idle);
    const due = lastUse + opts.idleMinutes * 60_000 - Date.now();
    idle = active === 0 ? setTimeout(stop, Math.max(0, due)).unref() : undefined;
  };

  async function handle(conn: Socket, line: string): Promise<void> {
    const send = (f: Frame) =>
      new Promise<void>((resolve) => {
        if (conn.destroyed) return resolve();
        conn.write(`${JSON.stringify(f)}\n`, () => resolve());
      });
    const decline = async (reason: string) => {
      status.declined[reason] = (status.declined[reason] ?? 0) + 1;
      await send({ decline: reason });
    };
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return await decline('bad_request');
    }
    const parsed = RequestSchema.safeParse(json);
    if (!parsed.success) return await decline('bad_request');
    const req = parsed.data;
    // Status and stop run no command, so any build may ask (`hub daemon stop --all` reaches older daemons).
    if ('control' in req) {
      await send({ status });
      if (req.control === 'stop') stop();
      return;
    }
    if (req.build !== BUILD_ID) return await decline('bad_request');
    if (envDifferences(req.env, process.env).length > 0) return await decline('environment');
    let started = false;
    const io = forwardingIo(
      { cwd: req.cwd, env: req.env, readStdin: async () => '' },
      async (stream, text) => {
        if (!started) return;
        await send(stream === 'out' ? { out: text } : { err: text });
      },
    );
    // runFast declines (undefined) before running anything; `run` goes out just before the operation starts.
    let reason = 'commander';
    const code = await runFast(entries, req.argv, io, {
      stdin: !req.stdin,
      streams: false,
      onDecline: (r) => {
        reason = r;
      },
      onStart: async () => {
        started = true;
        status.served++;
        await send({ run: true });
      },
    }).catch(async (err: unknown) => {
      if (!started) return undefined;
      await send({ err: `error: ${scrubSecrets((err as Error)?.message ?? String(err))}\n` });
      return 1;
    });
    if (code === undefined) return await decline(reason);
    lastUse = Date.now();
    await send({ exit: code });
  }

  const server = createServer((conn) => {
    active++;
    armIdle();
    conn.setEncoding('utf8');
    let buf = '';
    let handled = false;
    conn.on('data', (chunk: string) => {
      buf += chunk;
      const nl = buf.indexOf('\n');
      if (nl < 0 || handled) return;
      handled = true;
      handle(conn, buf.slice(0, nl))
        .catch((err: unknown) => opts.log(`hub daemon: ${(err as Error)?.message ?? String(err)}`))
        .finally(() => conn.end());
    });
    conn.on('error', () => {});
    conn.on('close', () => {
      active--;
      armIdle();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => resolve());
  });
  chmodSync(socket, 0o600);
  armIdle();
  const onSignal = () => stop();
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  opts.log(`hub daemon: serving build ${BUILD_ID} at ${socket} (pid ${process.pid})`);
  await stopped;
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  if (idle) clearTimeout(idle);
  // The socket goes first, so a new client runs its command itself instead of reaching a closing daemon.
  rmSync(socket, { force: true });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  opts.log('hub daemon: stopped');
}
