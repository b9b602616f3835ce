import type { Command } from 'commander';
import { ValidationError } from '../../infra/index.js';
import { BUILD_ID } from '../../ops/index.js';
import { exchange } from './daemon-client.js';
import { PROTOCOL } from './daemon-protocol.js';
import { daemonAnswers, serveDaemon } from './daemon-server.js';
import { daemonSocket, daemonUsable } from './daemon-socket.js';
import { writeErr, writeOut } from './output.js';

const DEFAULT_IDLE_MINUTES = 30;
const START_WAIT_MS = 10_000;

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

async function print(json: boolean, value: Record<string, unknown>, line: string): Promise<void> {
  await writeOut(json ? JSON.stringify(value) : line);
}

/**
 * `hub daemon serve|start|stop|status`: a warm hub process that runs this build's CLI commands for this user,
 * so a command pays for Node's start only, not for loading hub (see docs/cli.md, "The daemon").
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
    .option(
      '--idle-minutes <n>',
      `Stop after this many minutes without a command (default ${DEFAULT_IDLE_MINUTES}).`,
    )
    .action(async (flags: { idleMinutes?: string }) => {
      await serveDaemon({
        socket: socketOrRefuse(),
        idleMinutes: idleMinutes(flags.idleMinutes),
        log: writeErr,
      });
    });

  daemon
    .command('start')
    .description('Start the daemon in the background (no-op when it already runs) and wait until it answers.')
    .option(
      '--idle-minutes <n>',
      `Stop after this many minutes without a command (default ${DEFAULT_IDLE_MINUTES}).`,
    )
    .option('--json', 'Print the daemon status as JSON.')
    .action(async (flags: { idleMinutes?: string; json?: boolean }, command: Command) => {
      const json = Boolean(command.optsWithGlobals().json);
      const socket = socketOrRefuse();
      const minutes = idleMinutes(flags.idleMinutes);
      let status = await daemonAnswers(socket);
      if (!status) {
        const child = process
          .getBuiltinModule('node:child_process')
          .spawn(process.execPath, [process.argv[1]!, 'daemon', 'serve', '--idle-minutes', String(minutes)], {
            detached: true,
            stdio: 'ignore',
            env: process.env,
            cwd: '/',
          });
        child.unref();
        const deadline = Date.now() + START_WAIT_MS;
        while (!status && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 50));
          status = await daemonAnswers(socket);
        }
        if (!status)
          throw new Error(`the hub daemon did not answer at ${socket} within ${START_WAIT_MS / 1000} s`);
      }
      await print(
        json,
        { running: true, ...status },
        `hub daemon: pid ${status.pid}, build ${status.build}, ${socket}`,
      );
    });

  daemon
    .command('stop')
    .description("Stop this build's daemon (commands then run in their own process again).")
    .option('--json', 'Print the result as JSON.')
    .action(async (_flags: unknown, command: Command) => {
      const json = Boolean(command.optsWithGlobals().json);
      const socket = socketOrRefuse();
      const status = await exchange(
        socket,
        { hub_daemon: PROTOCOL, build: BUILD_ID, control: 'stop' },
        (f) => ('status' in f ? f.status : undefined),
        () => undefined,
      );
      await print(
        json,
        { stopped: Boolean(status), socket, pid: status?.pid ?? null },
        status ? `hub daemon: stopped pid ${status.pid}` : `hub daemon: none running at ${socket}`,
      );
    });

  daemon
    .command('status')
    .description("Whether this build's daemon runs, since when, and how many commands it served or declined.")
    .option('--json', 'Print the status as JSON.')
    .action(async (_flags: unknown, command: Command) => {
      const json = Boolean(command.optsWithGlobals().json);
      const socket = daemonSocket(process.env, BUILD_ID);
      const status = daemonUsable(process.env, BUILD_ID) ? await daemonAnswers(socket) : undefined;
      await print(
        json,
        status ? { running: true, ...status } : { running: false, socket, build: BUILD_ID },
        status
          ? `hub daemon: pid ${status.pid} since ${status.started_at}, ${status.served} command(s) served, idle stop after ${status.idle_minutes} min`
          : `hub daemon: not running (${socket})`,
      );
    });
}
