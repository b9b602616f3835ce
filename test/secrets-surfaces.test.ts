// Secrets never shown in clear, on every surface: the application config's tokens, credentials in state.url, a
// token with a newline, and blank tokens refused at start. Real CLI processes, a real server, a real MCP server.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, removeTempDir } from './fixtures/index.js';
import { call, startTestServer } from './http-server.js';
import { connectHub, readText } from './mcp-client.js';
import { runHub } from './run-hub.js';

const CONFIG = `# settings (a comment stays)
state:
  backend: local
  token: state-token-SECRET1234
  api_key: 'apikey-SECRET5678'
server:
  token: server-token-SECRET9999
`;
const QUERY_URL = 'https://hub.example/x?token=qs-SECRET-4321&org=acme';
let root: string;
let manifest: string;
// The config lives in the user config directory: server.token is a key only the user's own config may set.
const userDir = createTempDir('hub-secrets-user-');
const USER = { HUB_CONFIG_DIR: userDir };
const userConfig = join(userDir, 'config.yml');
const HTTP_STATE = { ...USER, HUB_STATE_BACKEND: 'http', HUB_STATE_URL: QUERY_URL };
beforeAll(() => {
  ({ root, manifestPath: manifest } = buildWorkspace({
    projects: [{ name: 'p', repos: [{ name: 'r', files: { 'a.txt': 'a\n' } }] }],
  }));
  writeFileSync(userConfig, CONFIG);
});
afterAll(() => {
  removeTempDir(root);
  removeTempDir(userDir);
});

const shown = (r: { stdout: string; stderr: string }) => `${r.stdout}\n${r.stderr}`;

describe('appconfig patch', () => {
  it('redacts every token of the file in the preview, human and --json', () => {
    for (const json of [[], ['--json']]) {
      const r = runHub(
        ['appconfig', 'patch', '--op', 'set', '--path', 'state.conflict_retries', '--value', '2', ...json],
        { cwd: root, env: USER },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(shown(r)).not.toContain('SECRET');
      expect(shown(r)).toContain('***1234');
      expect(shown(r)).toContain('***9999');
      if (json.length) {
        const out = r.json();
        expect(out.text).toContain('# settings (a comment stays)');
        expect(out.text).toContain('conflict_retries: 2');
      }
    }
  });

  it('redacts the output of --save and keeps the real tokens in the file', () => {
    for (const [json, value] of [
      [[], '3'],
      [['--json'], '4'],
    ] as const) {
      const r = runHub(
        [
          'appconfig',
          'patch',
          '--op',
          'set',
          '--path',
          'state.conflict_retries',
          '--value',
          value,
          '--save',
          ...json,
        ],
        { cwd: root, env: USER },
      );
      expect(r.code, r.stderr).toBe(0);
      expect(shown(r)).not.toContain('SECRET');
    }
    const file = readFileSync(userConfig, 'utf8');
    expect(file).toContain('token: state-token-SECRET1234');
    expect(file).toContain('conflict_retries: 4');
  });

  it('redacts values echoed by its errors', () => {
    const cases = [
      ['state', '{"token":"leak-SECRET-0000","bogus":1}'],
      ['state.url', 'ftp://user:pw-SECRET@h.example/?token=qs-SECRET-4321'],
      ['server.token', 'abc\nSECRET-defg'],
      ['server.token', '   '],
    ];
    for (const [path, value] of cases) {
      const r = runHub(['appconfig', 'patch', '--op', 'set', '--path', path!, '--value', value!, '--json'], {
        cwd: root,
        env: USER,
      });
      expect(r.code, `${path}=${value}`).toBe(1);
      expect(shown(r)).not.toContain('SECRET');
    }
  });
});

describe('state.url credentials and state tokens', () => {
  it('redacts a token in the query wherever the URL is shown (state info, human and --json)', () => {
    for (const json of [[], ['--json']]) {
      const r = runHub(['-c', manifest, 'state', 'info', ...json], { env: HTTP_STATE });
      expect(r.code, r.stderr).toBe(0);
      expect(shown(r)).not.toContain('SECRET');
      expect(shown(r)).toContain('token=***4321');
      expect(shown(r)).toContain('org=acme');
    }
  });

  it('never echoes credentials of a refused state.url', () => {
    const r = runHub(['-c', manifest, 'state', 'info'], {
      env: { ...USER, HUB_STATE_URL: 'ftp://user:pw-SECRET@h.example/?access_token=SECRET-abcd' },
    });
    expect(r.code).toBe(1);
    expect(shown(r)).toContain('HUB_STATE_URL');
    expect(shown(r)).not.toContain('SECRET');
  });

  it('refuses a state token with a newline without echoing it', () => {
    const r = runHub(['-c', manifest, 'context', 'objective', 'list', '--json'], {
      env: { ...HTTP_STATE, HUB_STATE_TOKEN: 'abcd\nSECRET-efgh' },
    });
    expect(r.code).toBe(1);
    expect(shown(r)).not.toContain('SECRET');
    expect(r.json().error).toMatchObject({ code: 'validation', details: { variable: 'HUB_STATE_TOKEN' } });
    expect(r.json().error.message).not.toContain('\n');
  });
});

describe('blank server token', () => {
  it('is refused at start, on loopback and beyond, naming the variable', () => {
    for (const token of [' ', '\t', '\n']) {
      for (const host of ['127.0.0.1', '0.0.0.0']) {
        const r = runHub(['web', 'serve', '--root', root, '--host', host, '--port', '0', '--status-once'], {
          env: { ...USER, HUB_SERVER_TOKEN: token },
        });
        expect(r.code, `${JSON.stringify(token)} ${host}`).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain('HUB_SERVER_TOKEN');
        expect(r.stderr).toContain('blank');
      }
    }
  });
});

describe('HTTP and MCP', () => {
  it('GET /v3/config/appconfig and POST /v3/config/appconfig/preview show no secret', async () => {
    const srv = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', ...HTTP_STATE } });
    try {
      const h = { authorization: 'Bearer server-token-SECRET9999' };
      const r = await call(srv.base, 'GET', '/v3/config/appconfig', { headers: h });
      expect(r.status).toBe(200);
      expect(r.text).not.toContain('SECRET');
      expect(r.json.config.state.url).toBe('https://hub.example/x?token=***4321&org=acme');
      for (const style of ['normalized', 'minimal', 'on-disk']) {
        const preview = await call(srv.base, 'POST', '/v3/config/appconfig/preview', {
          body: { style, operations: [{ op: 'set', path: 'state.token', value: 'draft-SECRET-2468' }] },
          headers: h,
        });
        expect(preview.status, preview.text).toBe(200);
        expect(preview.text, style).not.toContain('SECRET');
        expect(preview.json.text, style).toContain(style === 'on-disk' ? '***1234' : '***2468');
      }
    } finally {
      await srv.close();
    }
  });

  it('hub://gate/status and hub://workspace/config show no secret', async () => {
    const client = await connectHub(root, [], HTTP_STATE);
    try {
      const gate = await readText(client, 'hub://gate/status');
      expect(gate.text).not.toContain('SECRET');
      expect(JSON.parse(gate.text).state_backend.location).toBe(
        'https://hub.example/x?token=***4321&org=acme',
      );
      for (const uri of ['hub://workspace/config', 'hub://workspace/config?view=full']) {
        expect((await readText(client, uri)).text, uri).not.toContain('SECRET');
      }
    } finally {
      await client.close();
    }
  });
});
