import { spawn } from 'node:child_process';
import { HUB_BIN, type HubRun } from './run-hub.js';

/**
 * runHub without blocking the test process: for commands that call a server the test itself runs (the
 * provider fixture on loopback), which spawnSync would starve.
 */
export function runHubAsync(
  args: string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Promise<HubRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HUB_BIN, ...args], {
      cwd: opts.cwd ?? process.cwd(),
      env: {
        ...process.env,
        HUB_CACHE_DIR: 'off',
        HUB_DAEMON: 'off',
        HUB_AGENT_MODE: '',
        NO_COLOR: '1',
        ...opts.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({ code: code ?? -1, stdout, stderr, json: () => JSON.parse(stdout) }),
    );
  });
}
