// A `hub daemon` for a benchmark: its socket in a private runtime folder of the run, so no other case (and no
// daemon of the developer) is involved.
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { HUB_BIN, timeSpawn } from './measure.mjs';

/**
 * Starts a daemon under `dir`; `env` is what a case needs to be served by it (merge it into the case's env).
 * `served()` counts the commands it ran, so a bench can prove that its daemon case never ran in the client.
 */
export function startBenchDaemon(dir, extraEnv = {}) {
  const runtime = join(dir, 'daemon-run');
  mkdirSync(runtime, { recursive: true });
  chmodSync(runtime, 0o700);
  const env = { XDG_RUNTIME_DIR: runtime, HUB_DAEMON: '' };
  const ctl = (args) =>
    JSON.parse(
      timeSpawn(process.execPath, [HUB_BIN, 'daemon', ...args, '--json'], {
        env: { ...process.env, ...extraEnv, ...env },
      }).stdout,
    );
  ctl(['start', '--idle-minutes', '10']);
  return {
    env,
    served: () => ctl(['status']).served,
    stop: () => ctl(['stop']),
  };
}
