// `hub web serve --open` on a token-protected server: the browser gets a one-time sign-in code, never the token, so
// the process list (`ps`, /proc/<pid>/cmdline of the opener and of the browser it starts) shows nothing that still
// opens the server. A real server, a real `hub web serve --open` whose opener is a script that records its argv.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PATH } from '../src/surfaces/http/index.js';
import { buildWorkspace, createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { HUB_BIN } from './run-hub.js';

const TOKEN = '5f0c8e2a9b7d41c6e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0';

let root: string;
let tools: string;
beforeAll(() => {
  root = buildWorkspace({ projects: [{ name: 'p', repos: [{ name: 'r', files: { a: 'a' } }] }] }).root;
  tools = createTempDir('hub-opener-');
});
afterAll(() => {
  removeTempDir(root);
  removeTempDir(tools);
});

describe('sign-in codes', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', HUB_SERVER_TOKEN: TOKEN } });
  });
  afterAll(() => srv?.close());

  const redeem = (code: unknown, headers: Record<string, string> = {}) =>
    call(srv.base, 'POST', LOGIN_PATH, { body: { code }, headers });

  it('hand the browser a URL with a one-time code in its fragment, never the token', () => {
    const url = srv.server.signInUrl('http://127.0.0.1:1/');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:1\/#login=[A-Za-z0-9_-]{43}$/);
    expect(url).not.toContain(TOKEN);
    expect(srv.server.signInUrl('http://127.0.0.1:1/')).not.toBe(url);
  });

  it('exchange a code for the token once, without the token; a used, unknown or malformed code gets nothing', async () => {
    const code = new URL(srv.server.signInUrl('http://127.0.0.1:1/')).hash.replace('#login=', '');
    const r = await redeem(code);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ token: TOKEN });
    expect(r.headers.get('cache-control')).toBe('no-store');
    const again = await redeem(code);
    expect(again.status).toBe(401);
    expect(again.json.error).toMatchObject({
      code: 'unauthorized',
      details: { rule: 'login_code', reason: 'used' },
    });
    expect(again.text).not.toContain(TOKEN);
    const unknown = await redeem('A'.repeat(43));
    expect(unknown.status).toBe(401);
    expect(unknown.json.error.details).toMatchObject({ rule: 'login_code', reason: 'unknown' });
    for (const bad of ['', 3, 'x'.repeat(44), null]) expect((await redeem(bad)).status).toBe(400);
    expect((await redeem('x'.repeat(5000))).status).toBe(413);
  });

  it('refuse an exchange from a page of another origin, and every other route still needs the token', async () => {
    const code = new URL(srv.server.signInUrl('http://127.0.0.1:1/')).hash.replace('#login=', '');
    const foreign = await redeem(code, { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    // The refused attempt did not spend the code.
    expect((await redeem(code)).status).toBe(200);
    expect((await call(srv.base, 'GET', '/v3/ops/components')).status).toBe(401);
    expect((await call(srv.base, 'GET', LOGIN_PATH)).status).toBe(401);
  });

  it('do not exist on a server without a token', async () => {
    const plain = await startTestServer({ root });
    try {
      expect(plain.server.signInUrl('http://127.0.0.1:1/')).toBe('http://127.0.0.1:1/');
      expect((await call(plain.base, 'POST', LOGIN_PATH, { body: { code: 'x'.repeat(43) } })).status).toBe(
        404,
      );
    } finally {
      await plain.close();
    }
  });
});

describe('hub web serve --open', () => {
  /** Runs `hub web serve --open` with an opener (xdg-open) that records its argv; resolves with that argv. */
  async function openerArgv(
    env: Record<string, string>,
  ): Promise<{ argv: string[]; base: string; stop(): void }> {
    const bin = createTempDir('hub-opener-bin-');
    const argvFile = join(bin, 'argv.txt');
    const opener = join(bin, 'xdg-open');
    writeFileSync(
      opener,
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}.tmp' && mv '${argvFile}.tmp' '${argvFile}'\n`,
    );
    chmodSync(opener, 0o755);
    const child = spawn(
      process.execPath,
      [HUB_BIN, 'web', 'serve', '--root', root, '--port', '0', '--open'],
      {
        env: {
          ...process.env,
          HUB_CACHE_DIR: 'off',
          HUB_DAEMON: 'off',
          PATH: `${bin}:${process.env.PATH}`,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    let exited = false;
    child.on('exit', () => (exited = true));
    // The opener runs once the server listens (a loaded machine may take seconds); give up if the server dies.
    for (let i = 0; i < 2400 && !existsSync(argvFile) && !exited; i++) await sleep(25);
    const base = /url=(http:\/\/\S+?)\/?\s/.exec(out)?.[1] ?? '';
    const argv = existsSync(argvFile) ? readFileSync(argvFile, 'utf8').split('\n').filter(Boolean) : [];
    return {
      argv,
      base,
      stop: () => {
        child.kill('SIGTERM');
        removeTempDir(bin);
      },
    };
  }

  it('gives the opener a URL with a sign-in code, not the token, and the code signs in once', async () => {
    const run = await openerArgv({ HUB_SERVER_TOKEN: TOKEN });
    try {
      expect(run.argv).toHaveLength(1);
      expect(run.argv.join(' ')).not.toContain(TOKEN);
      const url = new URL(run.argv[0]!);
      expect(url.hash).toMatch(/^#login=[A-Za-z0-9_-]{43}$/);
      const code = url.hash.replace('#login=', '');
      const r = await call(run.base, 'POST', LOGIN_PATH, { body: { code } });
      expect(r.json).toEqual({ token: TOKEN });
      expect((await call(run.base, 'POST', LOGIN_PATH, { body: { code } })).status).toBe(401);
    } finally {
      run.stop();
    }
  });

  it('opens the plain address when the server has no token', async () => {
    const run = await openerArgv({ HUB_SERVER_TOKEN: '' });
    try {
      expect(run.argv).toEqual([`${run.base}/`]);
    } finally {
      run.stop();
    }
  });
});
