import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { callJson, connectHub, rpcError } from './mcp-client.js';
import { HUB_BIN, runHub } from './run-hub.js';

/** The bundle's version comes from package.json at build time. */
const HUB_VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

// A local registry and release feed on port 0: these tests never reach the real network.
let server: Server;
let base: string;
let dir: string;

beforeAll(async () => {
  dir = createTempDir('hub-version-');
  server = createServer((req, res) => {
    if (req.url === '/hub-workspace/latest') res.end(JSON.stringify({ version: '99.0.0' }));
    else if (req.url === '/releases/latest')
      res.end(
        JSON.stringify({ tag_name: 'v99.0.0', body: 'Big release', html_url: 'https://example.com/99' }),
      );
    else if (req.url?.startsWith('/hang/')) return;
    else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
  removeTempDir(dir);
});

/** The CLI run asynchronously (spawnSync would block the local registry in this process). */
function hubAsync(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [HUB_BIN, ...args],
      { env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_OFFLINE: '', ...env }, timeout: 30_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err.code as number) ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('hub version', () => {
  it('prints the version, node and the install channel (this checkout: development)', () => {
    const r = runHub(['version', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      name: 'hub-workspace',
      version: HUB_VERSION,
      node: process.version,
      install: { channel: 'development' },
    });
    expect(runHub(['version']).stdout).toContain(`hub ${HUB_VERSION}`);
  });

  it('version check compares with the registry and the code host', async () => {
    const r = await hubAsync(['version', 'check', '--json', '--include-notes'], {
      HUB_NPM_REGISTRY: base,
      HUB_RELEASES_URL: `${base}/releases/latest`,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      installed: HUB_VERSION,
      latest: '99.0.0',
      status: 'update_available',
      notes: 'Big release',
    });
  });

  it('version check without network is a clear unknown with exit 0, not a hang', async () => {
    const offline = runHub(['version', 'check', '--json'], { env: { HUB_OFFLINE: '1' } });
    expect(offline.code).toBe(0);
    expect(offline.json()).toMatchObject({ status: 'unknown', latest: null });
    const hanging = await hubAsync(['version', 'check', '--json'], {
      HUB_NPM_REGISTRY: `${base}/hang`,
      HUB_RELEASES_URL: 'off',
    });
    expect(hanging.code).toBe(0);
    const out = JSON.parse(hanging.stdout);
    expect(out.status).toBe('unknown');
    expect(out.reason).toContain('no answer within');
    const refused = runHub(['version', 'check'], {
      env: { HUB_NPM_REGISTRY: 'http://127.0.0.1:9', HUB_RELEASES_URL: 'off', HUB_OFFLINE: '' },
    });
    expect(refused.code).toBe(0);
    expect(refused.stdout).toContain('latest unknown');
  });

  it('version upgrade plans by default and refuses --apply on a development checkout', () => {
    const plan = runHub(['version', 'upgrade', '--json'], { env: { HUB_OFFLINE: '1' } });
    expect(plan.code).toBe(0);
    expect(plan.json()).toMatchObject({ channel: 'development', apply: false, applied: false });
    expect(plan.json().plan.instructions).toContain('git pull');
    const apply = runHub(['version', 'upgrade', '--apply', '--json'], { env: { HUB_OFFLINE: '1' } });
    expect(apply.code).toBe(1);
    expect(apply.json().error).toMatchObject({ code: 'refused', details: { channel: 'development' } });
  });

  it('the MCP tools give the same answers, and -32000 for the refused apply', async () => {
    const c = await connectHub(dir, [], { HUB_OFFLINE: '', HUB_NPM_REGISTRY: base, HUB_RELEASES_URL: 'off' });
    try {
      const check = await callJson(c, 'hub_version_check', {});
      expect(check).toMatchObject({ latest: '99.0.0', status: 'update_available' });
      const plan = await callJson(c, 'hub_version_upgrade', {});
      expect(plan).toMatchObject({ channel: 'development', latest: '99.0.0', applied: false });
      const err = await rpcError(
        c.callTool({ name: 'hub_version_upgrade', arguments: { apply: true } }),
        -32000,
      );
      expect(err.message).toContain('development checkout');
      await rpcError(c.callTool({ name: 'hub_version_check', arguments: { include_notes: 'yes' } }), -32602);
    } finally {
      await c.close();
    }
  });
});
