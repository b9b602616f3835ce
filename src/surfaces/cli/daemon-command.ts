import { closeSync, openSync } from 'node:fs';
import type { Command } from 'commander';
import { ValidationError } from '../../infra/index.js';
import { BUILD_ID } from '../../ops/index.js';
import { controlDaemon } from './daemon-client.js';
import type { DaemonStatus } from './daemon-protocol.js';
import { serveDaemon } from './daemon-server.js';
import {
  daemonDir,
  daemonLog,
  daemonSocket,
  daemonSockets,
  daemonUsable,
  ensurePrivateDir,
} from './daemon-socket.js';
import { writeErr, writeOut } from './output.js';

const DEFAULT_IDLE_MINUTES = 30;
const START_WAIT_MS = 10_000;
const IDLE_HELP = `Stop after this many minutes without a command (default ${DEFAULT_IDLE_MINUTES}).`;

function idleMinutes(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_IDLE_MINUTES;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 24 * 60) {
    throw new ValidationError(`--idle-minutes: '${raw}' must be a number of minutes above 0, at most 1440`, {
      field: 'idle_minutes',
      value: raw,
      rule: 'range',
    });
  }
  return n;
}

function socketOrRefuse(): string {
  if (!daemonUsable(process.env, BUILD_ID)) {
    throw new ValidationError(
      BUILD_ID === 'dev'
        ? 'the daemon serves a built hub (npm run build), not the sources'
        : 'the daemon is off here (HUB_DAEMON=off, or a platform without Unix sockets)',
      { field: 'daemon', value: BUILD_ID, rule: 'usable' },
    );
  }
  return daemonSocket(process.env, BUILD_ID);
}

/** Daemons of other builds that still answer (each stops by itself once idle). */
async function otherBuilds(socket: string): Promise<DaemonStatus[]> {
  const found = await Promise.all(
    daemonSockets(process.env)
      .filter((s) => s !== socket)
      .map((s) => controlDaemon(s, 'status')),
  );
  return found.filter((s): s is DaemonStatus => s !== undefined);
}

async function print(json: boolean, value: Record<string, unknown>, line: string): Promise<void> {
  await writeOut(json ? JSON.stringify(value) : line);
}

/** Starts `hub daemon serve` detached, its log in a file beside the socket, and waits until it answers. */
async function startInBackground(socket: string, minutes: number): Promise<DaemonStatus> {
  if (!ensurePrivateDir(daemonDir(process.env)))
    throw new ValidationError(
      `the daemon folder ${daemonDir(process.env)} must belong to this user with mode 0700`,
      {
        field: 'socket',
        value: socket,
        rule: 'private_dir',
      },
    );
  const log = daemonLog(process.env, BUILD_ID);
  const fd = openSync(log, 'a', 0o600);
  try {
    const child = process
      .getBuiltinModule('node:child_process')
      .spawn(
        process.execPath,
        [process.argv[1]!, 'daemon', 'serve', '--idle-minutes', String(minutes), '--log-file', log],
        { detached: true, stdio: ['ignore', 'ignore', fd], env: process.env, cwd: '/' },
      );
    child.unref();
  } finally {
    closeSync(fd);
  }
  const deadline = Date.now() + START_WAIT_MS;
  for (;;) {
    const status = await controlDaemon(socket, 'status');
    if (status) return status;
    if (Date.now() > deadline)
      throw new Error(
        `the hub daemon did not answer at ${socket} within ${START_WAIT_MS / 1000} s; see ${log}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * `hub daemon serve|start|stop|status`: a warm hub process that runs this build's CLI commands for this user,
 * so a command pays for Node's start only, not for loading hub (see docs/daemon.md).
 */
export function addDaemonCommands(program: Command): void {
  const daemon = program
    .command('daemon')
    .description('A warm hub process that runs CLI commands for this user and build: start, stop, status.')
    .addHelpText(
      'after',
      '\nWhile a daemon of this build runs, `hub` sends it each plain command (not help, serve commands or\n' +
        'commands reading piped stdin) with its directory and environment, and prints what it prints. A client\n' +
        'whose PATH, HOME, TMPDIR, XDG_*_HOME or GIT_* differ runs the command itself. The socket lives in\n' +
        '$XDG_RUNTIME_DIR/hub (else <tmp>/hub-<uid>), mode 0700. HUB_DAEMON=off turns forwarding off.\n' +
        'See docs/daemon.md.',
    );

  daemon
    .command('serve')
    .description("Serve CLI commands on this build's socket in the foreground until stopped or idle.")
    .option('--idle-minutes <n>', IDLE_HELP)
    .option('--log-file <file>', 'Where stderr goes, as status reports it (set by start).')
    .action(async (flags: { idleMinutes?: string; logFile?: string }) => {
      await serveDaemon({
        socket: socketOrRefuse(),
        idleMinutes: idleMinutes(flags.idleMinutes),
        logFile: flags.logFile,
        log: writeErr,
      });
    });

  daemon
    .command('start')
    .description('Start the daemon in the background (no-op when it already runs) and wait until it answers.')
    .option('--idle-minutes <n>', IDLE_HELP)
    .option('--json', 'Print the daemon status as JSON.')
    .action(async (flags: { idleMinutes?: string }, command: Command) => {
      const json = Boolean(command.optsWithGlobals().json);
      const socket = socketOrRefuse();
      const minutes = idleMinutes(flags.idleMinutes);
      const status = (await controlDaemon(socket, 'status')) ?? (await startInBackground(socket, minutes));
      await print(
        json,
        { running: true, ...status },
        `hub daemon: pid ${status.pid}, build ${status.build}, ${socket}${status.log ? `, log ${status.log}` : ''}`,
      );
    });

  daemon
    .command('stop')
    .description("Stop this build's daemon (commands then run in their own process again).")
    .option('--all', 'Also stop the daemons of other builds (older installs) in the same folder.')
    .option('--json', 'Print the result as JSON.')
    .action(async (flags: { all?: boolean }, command: Command) => {
      const json = Boolean(command.optsWithGlobals().json);
      const socket = socketOrRefuse();
      const status = await controlDaemon(socket, 'stop');
      const others = flags.all
        ? await Promise.all((await otherBuilds(socket)).map((s) => controlDaemon(s.socket, 'stop')))
        : [];
      const stoppedOthers = others.filter((s): s is DaemonStatus => s !== undefined).map((s) => s.pid);
      await print(
        json,
        {
          stopped: Boolean(status),
          socket,
          pid: status?.pid ?? null,
          ...(flags.all ? { others: stoppedOthers } : {}),
        },
        [
          status ? `hub daemon: stopped pid ${status.pid}` : `hub daemon: none running at ${socket}`,
          ...(stoppedOthers.length
            ? [`hub daemon: stopped other builds' pids ${stoppedOthers.join(', ')}`]
            : []),
        ].join('\n'),
      );
    });

  daemon
    .command('status')
    .description(
      "Whether this build's daemon runs, since when, what it served and declined; other builds' too.",
    )
    .option('--json', 'Print the status as JSON.')
    .action(async (_flags: unknown, command: Command) => {
      const json = Boolean(command.optsWithGlobals().json);
      const socket = daemonSocket(process.env, BUILD_ID);
      const usable = daemonUsable(process.env, BUILD_ID);
      const status = usable ? await controlDaemon(socket, 'status') : undefined;
      const others = usable ? await otherBuilds(socket) : [];
      await print(
        json,
        {
          ...(status ? { running: true, ...status } : { running: false, socket, build: BUILD_ID }),
          other_builds: others.map((o) => ({ build: o.build, pid: o.pid, socket: o.socket })),
        },
        [
          status
            ? `hub daemon: pid ${status.pid} since ${status.started_at}, ${status.served} command(s) served, idle stop after ${status.idle_minutes} min`
            : `hub daemon: not running (${socket})`,
          ...others.map((o) => `other build ${o.build}: pid ${o.pid} (hub daemon stop --all stops it)`),
        ].join('\n'),
      );
    });
}
