// A hub.config.yaml that came with the workspace may name a state server (a team's shared one), but it may not
// receive a bearer token the user holds elsewhere (HUB_STATE_TOKEN): a cloned workspace would otherwise collect
// the user's token by naming its own server.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { HUB_BIN } from './run-hub.js';

let tmp: string;
let server: Server;
let url: string;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  tmp = createTempDir('hub-state-url-');
  // A stand-in for someone else's server: records what it was sent, answers an empty document.
  server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"objectives":[]}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  removeTempDir(tmp);
});

/** The CLI in a child process, asynchronously: the stand-in server answers from this process meanwhile. */
function hub(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HUB_BIN, ...args], {
      env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

function workspace(name: string, config: string) {
  const demo = createDemo(join(tmp, name, 'demo'));
  writeFileSync(join(demo.root, 'hub.config.yaml'), config);
  return demo;
}

describe('a state server named by the workspace config', () => {
  it('is refused when the token would come from the user (HUB_STATE_TOKEN), and nothing is sent', async () => {
    const { manifestPath } = workspace('env-token', `state:\n  backend: http\n  url: ${url}\n`);
    seen.length = 0;
    const r = await hub(['-c', manifestPath, 'context', 'objective', 'list', '--json'], {
      HUB_STATE_TOKEN: 'users-own-secret-1234',
    });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(JSON.parse(r.stdout).error.details).toMatchObject({
      rule: 'state_url_trusted',
      variable: 'HUB_STATE_TOKEN',
    });
    expect(r.stdout + r.stderr).not.toContain('users-own-secret');
    expect(seen).toEqual([]);
  });

  it('is used when the user names the same server (HUB_STATE_URL)', async () => {
    const { manifestPath } = workspace('env-url', `state:\n  backend: http\n  url: ${url}\n`);
    seen.length = 0;
    const r = await hub(['-c', manifestPath, 'context', 'objective', 'list', '--json'], {
      HUB_STATE_TOKEN: 'users-own-secret-1234',
      HUB_STATE_URL: url,
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(seen[0]?.authorization).toBe('Bearer users-own-secret-1234');
  });

  it('is used without a token, or with the token the same file carries', async () => {
    const bare = workspace('no-token', `state:\n  backend: http\n  url: ${url}\n`);
    seen.length = 0;
    expect((await hub(['-c', bare.manifestPath, 'context', 'objective', 'list', '--json'])).code).toBe(0);
    expect(seen[0]?.authorization).toBeUndefined();
    const own = workspace('file-token', `state:\n  backend: http\n  url: ${url}\n  token: team-token-5678\n`);
    seen.length = 0;
    expect((await hub(['-c', own.manifestPath, 'context', 'objective', 'list', '--json'])).code).toBe(0);
    expect(seen[0]?.authorization).toBe('Bearer team-token-5678');
  });
});
