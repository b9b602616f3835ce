import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const HUB_BIN = join(import.meta.dirname, '..', 'bin', 'hub');

export interface HubRun {
  code: number;
  stdout: string;
  stderr: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the command printed.
  json: () => any;
}

/**
 * Runs the built CLI as a real process; the manifest cache is off unless a test sets HUB_CACHE_DIR, and a
 * daemon the developer may be running is never used unless a test sets HUB_DAEMON.
 */
export function runHub(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string>; input?: string } = {},
): HubRun {
  const r = spawnSync(process.execPath, [HUB_BIN, ...args], {
    cwd: opts.cwd ?? process.cwd(),
    env: {
      ...process.env,
      HUB_CACHE_DIR: 'off',
      HUB_DAEMON: 'off',
      HUB_AGENT_MODE: '',
      NO_COLOR: '1',
      ...opts.env,
    },
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return {
    code: r.status ?? -1,
    stdout: r.stdout,
    stderr: r.stderr,
    json: () => JSON.parse(r.stdout),
  };
}
