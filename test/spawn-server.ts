// A real `hub web serve` in its own process, for attacks that could block or bloat a server: the test keeps its
// own event loop, can time out, and then kills the child instead of hanging itself.
import { type ChildProcess, spawn } from 'node:child_process';
import { HUB_BIN } from './run-hub.js';

export interface SpawnedServer {
  base: string;
  child: ChildProcess;
  /** Stops the server (SIGKILL when it does not stop on SIGTERM in time). */
  close(): Promise<void>;
}

/** Starts `hub web serve --root <root> --port 0 ...args` and resolves once it printed its url. */
export function spawnWebServer(
  root: string,
  opts: { args?: string[]; env?: Record<string, string> } = {},
): Promise<SpawnedServer> {
  const child = spawn(
    process.execPath,
    [HUB_BIN, 'web', 'serve', '--root', root, '--port', '0', ...(opts.args ?? [])],
    {
      env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off', NO_COLOR: '1', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  const close = async () => {
    if (exited) return;
    const gone = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await gone;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /url=(http:\/\/\S+?)\/?\s/.exec(out);
      if (m) resolve({ base: m[1]!, child, close });
    });
    child.stderr!.on('data', (d) => {
      err += d;
    });
    child.on('exit', (code) => reject(new Error(`hub web serve exited ${code}: ${err.trim()}`)));
  });
}
