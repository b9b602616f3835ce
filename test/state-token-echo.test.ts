// A state server that echoes the bearer token (and whatever else it was told) in its errors: hub prints none of
// the secrets it knows (state token, server token, any configured secret) on any surface, whatever the server
// sent. Real CLI processes, a real MCP server, a real hub HTTP server in front of a stand-in state server.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { connectHub } from './mcp-client.js';
import { runHubAsync } from './run-hub-async.js';

const STATE_TOKEN = 'state-token-SECRET-1234';
const SERVER_TOKEN = 'server-token-SECRET-9999';
const API_KEY = 'apikey-SECRET-5678';

let root: string;
let upstream: Server;
let env: Record<string, string>;

beforeAll(async () => {
  ({ root } = buildWorkspace({
    projects: [{ name: 'p', repos: [{ name: 'r', files: { 'a.txt': 'a\n' } }] }],
  }));
  const userDir = join(root, '..', 'user-config');
  mkdirSync(userDir, { recursive: true });
  writeFileSync(join(userDir, 'config.yml'), `state:\n  api_key: ${API_KEY}\n`);
  // Echoes the request's Authorization header and every secret, in the message and the details.
  upstream = createServer((req, res) => {
    const echo = `echo ${req.headers.authorization}; also ${SERVER_TOKEN} and ${API_KEY}`;
    res.writeHead(req.method === 'GET' ? 400 : 403, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        error: {
          code: req.method === 'GET' ? 'validation' : 'refused',
          message: `bad request: ${echo}`,
          details: { authorization: req.headers.authorization, nested: [{ note: echo }] },
        },
      }),
    );
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  env = {
    HUB_CONFIG_DIR: userDir,
    HUB_STATE_BACKEND: 'http',
    HUB_STATE_URL: url,
    HUB_STATE_TOKEN: STATE_TOKEN,
    HUB_SERVER_TOKEN: SERVER_TOKEN,
  };
});
afterAll(async () => {
  await new Promise((r) => upstream?.close(r));
  removeTempDir(root);
});

const expectNoSecret = (text: string) => {
  expect(text).not.toContain('SECRET');
};

describe('errors of a state server that echoes secrets', () => {
  it('the CLI prints none of them, --json or human, stack traces included', async () => {
    for (const args of [
      ['context', 'objective', 'list', '--json'],
      ['context', 'objective', 'list'],
      ['context', 'handoff', 'create', '--title', 't', '--json'],
    ]) {
      const r = await runHubAsync(args, { cwd: root, env });
      expect(r.code, args.join(' ')).toBe(1);
      expect(`${r.stdout}${r.stderr}`, args.join(' ')).toContain('echo');
      expectNoSecret(`${r.stdout}\n${r.stderr}`);
    }
    const debug = await runHubAsync(['context', 'objective', 'list'], {
      cwd: root,
      env: { ...env, HUB_DEBUG: '1' },
    });
    expect(debug.code).toBe(1);
    expectNoSecret(`${debug.stdout}\n${debug.stderr}`);
  });

  it('MCP errors carry none of them', async () => {
    const client: Client = await connectHub(root, [], env);
    try {
      const out = await client.callTool({ name: 'hub_objective_list', arguments: {} }).then(
        (r) => JSON.stringify(r),
        (e: unknown) =>
          JSON.stringify({ message: (e as Error).message, data: (e as { data?: unknown }).data }),
      );
      expect(out).toContain('echo');
      expectNoSecret(out);
    } finally {
      await client.close();
    }
  });

  describe('a hub server in front of it', () => {
    let srv: RunningServer;
    beforeAll(async () => {
      srv = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', ...env } });
    });
    afterAll(async () => srv?.close());

    it('answers error bodies with none of them', async () => {
      const headers = { authorization: `Bearer ${SERVER_TOKEN}` };
      for (const [method, path, body] of [
        ['GET', '/v3/ops/objectives', undefined],
        ['GET', '/v3/ops/handoffs?status=open', undefined],
        ['POST', '/v3/ops/objectives', { id: 'o1', title: 'T' }],
      ] as const) {
        const r = await call(srv.base, method, path, { headers, ...(body ? { body } : {}) });
        expect(r.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
        expect(r.text, `${method} ${path}`).toContain('echo');
        expectNoSecret(r.text);
      }
    });
  });
});
