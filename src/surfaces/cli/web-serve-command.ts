import { existsSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { childProcess } from '../../infra/index.js';
import { writeErr, writeOut } from './output.js';

interface ServeFlags {
  root?: string;
  appconfig?: string;
  host?: string;
  port?: string;
  open?: boolean;
  statusOnce?: boolean;
}

/** Opens a URL in the desktop's browser; failures are only reported (the server keeps running). */
function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['explorer.exe', [url]]
        : ['xdg-open', [url]];
  try {
    const child = childProcess().spawn(cmd, args, { shell: false, detached: true, stdio: 'ignore' });
    child.on('error', (err) => writeErr(`hub: could not open a browser (${err.message}); visit ${url}`));
    child.unref();
  } catch (err) {
    writeErr(`hub: could not open a browser (${(err as Error).message}); visit ${url}`);
  }
}

/** Resolves on SIGINT or SIGTERM (Ctrl-C), so the server closes cleanly and the process exits 0. */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const done = (sig: NodeJS.Signals) => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve(sig);
    };
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}

function addServe(program: Command, mode: 'web' | 'api'): void {
  const group = program
    .command(mode)
    .description(
      mode === 'web'
        ? 'The HTTP server of the /v2 and /v3 routes and the browser UI.'
        : 'The HTTP API server of the /v1 and /v2 routes.',
    );
  group
    .command('serve')
    .description(
      mode === 'web'
        ? 'Serve the /v2 and /v3 JSON routes and, at /, the browser UI (default 127.0.0.1:8787).'
        : 'Serve the /v1 and /v2 JSON routes (default 127.0.0.1:8787).',
    )
    .option('--root <dir>', 'Definition directory (its .hub.yml is served); default the current directory.')
    .option('--appconfig <file>', 'Application config file (default: hub.config.yaml lookup chain).')
    .option(
      '--host <addr>',
      'Bind address; anything but loopback needs HUB_SERVER_TOKEN of 32+ characters (openssl rand -hex 32).',
      '127.0.0.1',
    )
    .option('--port <n>', 'Port (default 8787, probing upward when busy; an explicit port must be free).')
    .addOption(
      new Option(
        '--open',
        'Open the browser UI once listening (signed in with a one-time code when the server has a token).',
      ),
    )
    .addOption(new Option('--no-open', 'Do not open the browser (default).'))
    .option('--status-once', 'Bind, print one web_state=ready line, and exit.')
    .addHelpText(
      'after',
      '\nWith a server token (HUB_SERVER_TOKEN, or server.token in your own config) every /v2 and /v3 request needs\n' +
        'Authorization: Bearer <token>; the UI files load without it and the UI asks for it (docs/ui.md).\n' +
        'Only Host headers naming loopback or server.allowed_hosts are served; see docs/http.md.',
    )
    .action(async (flags: ServeFlags, command: Command) => {
      const globals = command.optsWithGlobals() as ServeFlags & {
        configPath?: string;
        definition?: string;
      };
      const http = await import('../http/index.js');
      const explicitPort = flags.port !== undefined;
      const server = await http.startHubServer({
        mode,
        root: flags.root ?? globals.configPath ?? globals.definition ?? '.',
        appconfig: flags.appconfig ?? globals.appconfig,
        env: process.env,
        cwd: process.cwd(),
        host: flags.host ?? http.DEFAULT_HOST,
        port: explicitPort ? http.parsePort(flags.port!) : http.DEFAULT_PORT,
        explicitPort,
        log: writeErr,
      });
      const { host, port, url } = server.listening;
      await writeOut(`${mode}_state=ready host=${host} port=${port} url=${url}`);
      if (flags.statusOnce) {
        await server.close();
        return;
      }
      writeErr(`hub ${mode} serve: serving ${server.definition} at ${url} (Ctrl-C to stop)`);
      // The token goes only to a terminal (not to a log file or a pipe): the URL fragment hands it to the UI.
      const browserUrl = server.browserUrl(url);
      if (mode === 'web' && server.tokenRequired) {
        writeErr(
          process.stderr.isTTY
            ? `hub web serve: open ${browserUrl} (the #token part stays in this browser tab)`
            : `hub web serve: open ${url}#token=<server token>, or paste the token when the UI asks`,
        );
      }
      if (!existsSync(server.definition))
        writeErr(
          `hub: ${server.definition} does not exist yet: catalog routes answer 404 until \`hub init\``,
        );
      // Never the token on the opener's command line (every local user can read argv): a one-time sign-in code.
      if (flags.open) openBrowser(mode === 'web' ? server.signInUrl(url) : url);
      await untilSignal();
      await server.close();
    });
}

/** `hub web serve` and `hub api serve`; the server (fastify) is loaded only when one of them runs. */
export function addWebServeCommands(program: Command): void {
  addServe(program, 'web');
  addServe(program, 'api');
}
