// The server is safe by default: real requests against real servers on port 0.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubError } from '../src/infra/index.js';
import { createHubServer, startHubServer } from '../src/surfaces/http/index.js';
import { buildWorkspace, createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';

/** A request with headers fetch() will not send as given (Host), or a raw path (`/../x`). */
function raw(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A token as docs/http.md says to make one (`openssl rand -hex 32`). */
const STRONG = 'a3f1c9e07b5d42e8a1c6f0b9d2e47a58c3b6e1f09d8a7c2b5e4f3a1d0c9b8e7f';

let root: string;
beforeAll(() => {
  root = buildWorkspace({
    projects: [{ name: 'p', repos: [{ name: 'r', files: { 'a.txt': 'a\n' } }] }],
  }).root;
});
afterAll(() => removeTempDir(root));

describe('binding beyond loopback', () => {
  it('refuses a non-loopback host without a server token, naming HUB_SERVER_TOKEN', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.10', 'example.com']) {
      const err = await createHubServer({ mode: 'web', root, host, env: {} }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, host).toBeInstanceOf(HubError);
      expect((err as HubError).code).toBe('refused');
      expect((err as HubError).message).toContain('HUB_SERVER_TOKEN');
    }
    const r = runHub(['web', 'serve', '--root', root, '--host', '0.0.0.0', '--port', '0', '--status-once']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('HUB_SERVER_TOKEN');
    expect(r.stdout).toBe('');
  });

  it('binds all interfaces when a token is configured', async () => {
    const r = runHub(['web', 'serve', '--root', root, '--host', '0.0.0.0', '--port', '0', '--status-once'], {
      env: { HUB_SERVER_TOKEN: STRONG },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^web_state=ready host=0\.0\.0\.0 port=\d+ url=http:\/\/127\.0\.0\.1:\d+\/\n$/);
  });

  it('refuses a token shorter than 32 characters beyond loopback, naming the minimum and how to make one', async () => {
    for (const token of ['abc', 'x', 'k'.repeat(31)]) {
      for (const mode of ['web', 'api'] as const) {
        const err = await createHubServer({
          mode,
          root,
          host: '0.0.0.0',
          env: { HUB_SERVER_TOKEN: token },
        }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err, token).toBeInstanceOf(HubError);
        const e = err as HubError;
        expect(e.code).toBe('refused');
        expect(e.details).toMatchObject({
          rule: 'token_min_length',
          min_length: 32,
          length: token.length,
          variable: 'HUB_SERVER_TOKEN',
        });
        expect(e.message).toContain('32 characters');
        expect(e.message).toContain('openssl rand -hex 32');
        if (token.length > 1) expect(e.message).not.toContain(token);
      }
    }
    // The same token from a trusted config file names the file's key.
    writeFileSync(join(root, 'weak.yaml'), 'server:\n  token: abc\n');
    const fromFile = await createHubServer({
      mode: 'web',
      root,
      host: '192.0.2.10',
      appconfig: join(root, 'weak.yaml'),
      env: {},
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((fromFile as HubError).details).toMatchObject({ rule: 'token_min_length', key: 'server.token' });
    const r = runHub(['web', 'serve', '--root', root, '--host', '0.0.0.0', '--port', '0', '--status-once'], {
      env: { HUB_SERVER_TOKEN: 'abc' },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('openssl rand -hex 32');
    // 32 characters is enough; on loopback a short token only adds a check (nothing beyond the machine reaches it).
    const ok = await createHubServer({
      mode: 'web',
      root,
      host: '0.0.0.0',
      env: { HUB_SERVER_TOKEN: 'k'.repeat(32) },
    });
    await ok.close();
    const local = await createHubServer({
      mode: 'web',
      root,
      host: '127.0.0.1',
      env: { HUB_SERVER_TOKEN: 'abc' },
    });
    await local.close();
  });

  it('refuses to start when a workspace hub.config.yaml sets server.token, naming the key', async () => {
    // A cloned workspace's author would know the token that guards a public bind.
    const ws = buildWorkspace({ projects: [{ name: 'p', repos: [{ name: 'r', files: { a: 'a' } }] }] }).root;
    const userDir = createTempDir('hub-user-');
    try {
      writeFileSync(join(ws, 'hub.config.yaml'), `server:\n  token: ${STRONG}\n`);
      const r = runHub(['web', 'serve', '--root', ws, '--host', '0.0.0.0', '--port', '0', '--status-once'], {
        cwd: ws,
        env: { HUB_CONFIG_DIR: userDir },
      });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('server.token');
      expect(r.stderr).toContain('workspace_config_trusted_key');
      expect(r.stderr).not.toContain(STRONG);
      // From the user's own config it guards the bind.
      writeFileSync(join(ws, 'hub.config.yaml'), 'api_version: ws\n');
      writeFileSync(join(userDir, 'config.yml'), `server:\n  token: ${STRONG}\n`);
      const own = runHub(
        ['web', 'serve', '--root', ws, '--host', '0.0.0.0', '--port', '0', '--status-once'],
        {
          cwd: ws,
          env: { HUB_CONFIG_DIR: userDir },
        },
      );
      expect(own.code, own.stderr).toBe(0);
    } finally {
      removeTempDir(ws);
      removeTempDir(userDir);
    }
  });
});

describe('the docs', () => {
  it('show no server token that could be copied into an insecure server', () => {
    const repo = join(import.meta.dirname, '..');
    let seen = 0;
    for (const file of ['README.md', 'docs/http.md', 'docs/deploy.md', 'docs/ui.md', 'docs/security.md']) {
      const text = readFileSync(join(repo, file), 'utf8');
      for (const m of text.matchAll(/HUB_SERVER_TOKEN=("?\$\([^)]*\)|\S*)/g)) {
        seen++;
        const value = m[1]!;
        // A fresh random token, or a placeholder that does not run as written.
        const random = /^"?\$\(openssl rand -hex (\d+)\)/.exec(value);
        const ok = (random && Number(random[1]) * 2 >= 32) || /^<[^>]+>$/.test(value);
        expect(ok, `${file}: HUB_SERVER_TOKEN=${value}`).toBeTruthy();
      }
    }
    expect(seen).toBeGreaterThan(1);
  });
});

describe('bearer token', () => {
  let srv: RunningServer;
  const TOKEN = 'correct-horse-battery-staple';
  beforeAll(async () => {
    srv = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', HUB_SERVER_TOKEN: TOKEN } });
  });
  afterAll(() => srv?.close());

  it('answers 401 without the header, with a wrong token or another scheme, everywhere', async () => {
    for (const path of [
      '/v3/ops/components',
      '/v3/ops/objectives',
      '/v3/openapi.json',
      '/v3/nope',
      '/v2/workspace/repos',
      // The router decodes `%76` to `v`: still the API route, still protected.
      '/%763/ops/components',
      '/V3/ops/components',
    ]) {
      for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, 'Bearer ', TOKEN]) {
        const r = await call(srv.base, 'GET', path, { headers: authorization ? { authorization } : {} });
        expect(r.status, `${path} ${authorization}`).toBe(401);
        expect(r.json).toMatchObject({ error: { code: 'unauthorized' } });
        expect(r.headers.get('www-authenticate')).toBe('Bearer realm="hub"');
      }
    }
    const put = await call(srv.base, 'PUT', '/v3/ops/objectives', {
      body: { objectives: [] },
      headers: { 'if-match': '""', authorization: 'Bearer nope' },
    });
    expect(put.status).toBe(401);
    expect(
      (
        await call(srv.base, 'GET', '/v3/ops/objectives', { headers: { authorization: `Bearer ${TOKEN}` } })
      ).headers.get('etag'),
    ).toBeNull();
  });

  it('serves every route with the right token', async () => {
    const h = { authorization: `Bearer ${TOKEN}` };
    expect((await call(srv.base, 'GET', '/v3/ops/components', { headers: h })).status).toBe(200);
    expect((await call(srv.base, 'GET', '/', { headers: h })).status).toBe(200);
    expect((await call(srv.base, 'GET', '/%763/ops/components', { headers: h })).status).toBe(200);
    const put = await call(srv.base, 'PUT', '/v3/ops/objectives', {
      body: { objectives: [] },
      headers: { ...h, 'if-match': '""' },
    });
    expect(put.status).toBe(200);
    expect(
      (await call(srv.base, 'GET', '/v3/ops/components', { headers: { authorization: `bearer ${TOKEN}` } }))
        .status,
    ).toBe(200);
  });
});

describe('bearer token and the browser UI', () => {
  let ui: string;
  let srv: RunningServer;
  const TOKEN = 'tok-for-the-browser';
  beforeAll(async () => {
    ui = createTempDir('hub-ui-');
    mkdirSync(join(ui, 'assets'));
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>ui</title>');
    writeFileSync(join(ui, 'assets', 'app-abc123.js'), 'console.log(1)');
    srv = await startTestServer({ root, uiDir: ui, env: { HUB_CACHE_DIR: 'off', HUB_SERVER_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await srv?.close();
    removeTempDir(ui);
  });

  it('serves the UI files without the token (they hold no data), and no API route without it', async () => {
    const html = { accept: 'text/html' };
    for (const [path, headers] of [
      ['/', {}],
      ['/index.html', {}],
      ['/assets/app-abc123.js', {}],
      ['/workspace', html],
      ['/agents/objectives', html],
    ] as const) {
      const r = await call(srv.base, 'GET', path, { headers });
      expect(r.status, path).toBe(200);
      expect(r.text, path).not.toContain('"error"');
    }
    expect((await call(srv.base, 'HEAD', '/')).status).toBe(200);
    for (const path of [
      '/v3/ops/components',
      '/v2/workspace/repos',
      '/v3/openapi.json',
      '/%763/ops/objectives',
    ]) {
      expect((await call(srv.base, 'GET', path, { headers: html })).status, path).toBe(401);
    }
    // Only reads are public: a write to a UI path still needs the token.
    expect((await call(srv.base, 'POST', '/workspace', { body: {} })).status).toBe(401);
    // A foreign Host is refused for UI files too (DNS rebinding).
    const r = await raw(srv.port, 'GET', '/', { host: 'evil.example' });
    expect(r.status).toBe(403);
  });

  it('gives the browser a URL carrying the token in its fragment', () => {
    expect(srv.server.browserUrl('http://127.0.0.1:1/')).toBe(`http://127.0.0.1:1/#token=${TOKEN}`);
  });
});

describe('Host header (DNS rebinding) and Origin (CSRF)', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    // allowed_hosts loosens the DNS-rebinding guard: only a config the user names may set it (not the workspace's).
    writeFileSync(
      join(root, 'server.yaml'),
      'server:\n  allowed_hosts: [hub.internal, "other.internal:9999"]\n',
    );
    srv = await startTestServer({ root, appconfig: join(root, 'server.yaml') });
  });
  afterAll(() => srv?.close());

  it('refuses a Host that is not loopback or allowed, before any route runs', async () => {
    for (const host of [
      'evil.example',
      `evil.example:${srv.port}`,
      'localhost.evil.example',
      '10.0.0.1',
      'other.internal:1',
    ]) {
      const r = await raw(srv.port, 'GET', '/v3/ops/components', { host });
      expect(r.status, host).toBe(403);
      expect(JSON.parse(r.text)).toMatchObject({
        error: { code: 'refused', details: { rule: 'allowed_host' } },
      });
    }
    // Not even a state change gets through.
    const put = await raw(
      srv.port,
      'PUT',
      '/v3/ops/objectives',
      { host: 'evil.example', 'content-type': 'application/json', 'if-match': '""' },
      '{"objectives":[]}',
    );
    expect(put.status).toBe(403);
  });

  it('serves loopback names and addresses and the allowed hosts', async () => {
    for (const host of [
      `127.0.0.1:${srv.port}`,
      `localhost:${srv.port}`,
      'LOCALHOST',
      `app.localhost:${srv.port}`,
      `[::1]:${srv.port}`,
      '127.0.0.2',
      `hub.internal:${srv.port}`,
      'other.internal:9999',
    ]) {
      const r = await raw(srv.port, 'GET', '/v3/ops/components', { host });
      expect(r.status, host).toBe(200);
    }
  });

  it('refuses state-changing requests from a foreign Origin and allows same-origin ones', async () => {
    const body = JSON.stringify({ id: 'o1', title: 'One' });
    const json = { 'content-type': 'application/json' };
    for (const origin of [
      'http://evil.example',
      `http://localhost:${srv.port}`,
      'null',
      'file://',
      `http://127.0.0.1:${srv.port + 1}`,
    ]) {
      const r = await raw(
        srv.port,
        'POST',
        '/v3/ops/objectives',
        { ...json, host: `127.0.0.1:${srv.port}`, origin },
        body,
      );
      expect(r.status, origin).toBe(403);
      expect(JSON.parse(r.text)).toMatchObject({
        error: { code: 'refused', details: { rule: 'same_origin' } },
      });
    }
    const same = await raw(
      srv.port,
      'POST',
      '/v3/ops/objectives',
      { ...json, host: `127.0.0.1:${srv.port}`, origin: `http://127.0.0.1:${srv.port}` },
      body,
    );
    expect(same.status).toBe(200);
    // Without Origin (curl, the http state backend) is fine; a foreign Origin may read but gets no CORS grant.
    expect(
      (await call(srv.base, 'POST', '/v3/ops/objectives', { body: { id: 'o2', title: 'Two' } })).status,
    ).toBe(200);
    const read = await raw(srv.port, 'GET', '/v3/ops/objectives', {
      host: `127.0.0.1:${srv.port}`,
      origin: 'http://evil.example',
    });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    const patch = await raw(
      srv.port,
      'PATCH',
      '/v3/ops/objectives/o1',
      { ...json, host: `127.0.0.1:${srv.port}`, origin: 'http://evil.example' },
      '{"title":"x"}',
    );
    expect(patch.status).toBe(403);
  });
});

describe('bodies', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer({ root, bodyLimit: 64 * 1024, documentBodyLimit: 256 * 1024 });
  });
  afterAll(() => srv?.close());

  it('answers 413 for a body over the limit, in the JSON error body', async () => {
    const big = { id: 'big', title: 'x'.repeat(100 * 1024) };
    const r = await call(srv.base, 'POST', '/v3/ops/objectives', { body: big });
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ error: { code: 'validation', details: { rule: 'body_limit' } } });
    // Documents get a larger limit of their own.
    const doc = { items: [], note: 'y'.repeat(100 * 1024) };
    const put = await call(srv.base, 'PUT', '/v3/ops/state/big', {
      body: doc,
      headers: { 'if-match': '""' },
    });
    expect(put.status).toBe(200);
    const huge = { items: [], note: 'y'.repeat(300 * 1024) };
    const over = await call(srv.base, 'PUT', '/v3/ops/state/big', {
      body: huge,
      headers: { 'if-match': put.headers.get('etag')! },
    });
    expect(over.status).toBe(413);
  });

  it('takes JSON only: 415 for text, forms and multipart', async () => {
    for (const [type, raw] of [
      ['text/plain', '{"id":"t","title":"t"}'],
      ['application/x-www-form-urlencoded', 'id=t&title=t'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="id"\r\n\r\nt\r\n--x--\r\n',
      ],
    ] as const) {
      const r = await call(srv.base, 'POST', '/v3/ops/objectives', {
        raw,
        headers: { 'content-type': type },
      });
      expect(r.status, type).toBe(415);
      expect(r.json).toMatchObject({ error: { code: 'validation', details: { rule: 'json_only' } } });
    }
  });
});

describe('static files', () => {
  let ui: string;
  let srv: RunningServer;
  beforeAll(async () => {
    ui = createTempDir('hub-ui-');
    mkdirSync(join(ui, 'assets'));
    writeFileSync(join(ui, 'index.html'), '<!doctype html><title>ui</title>');
    writeFileSync(join(ui, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(ui, '.secret'), 'token');
    writeFileSync(join(root, 'outside.txt'), 'outside');
    srv = await startTestServer({ root, uiDir: ui });
  });
  afterAll(async () => {
    await srv?.close();
    removeTempDir(ui);
  });

  it('serves the built UI and its assets, client routes as index.html', async () => {
    const index = await call(srv.base, 'GET', '/');
    expect(index.status).toBe(200);
    expect(index.text).toContain('<title>ui</title>');
    const asset = await call(srv.base, 'GET', '/assets/app.js');
    expect(asset.text).toBe('console.log(1)');
    // Vite names assets by content hash: cached for good; index.html and client routes are revalidated.
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("default-src 'self'");
    const route = await call(srv.base, 'GET', '/explorer', { headers: { accept: 'text/html' } });
    expect(route.status).toBe(200);
    expect(route.text).toContain('<title>ui</title>');
    expect(route.headers.get('cache-control')).toBe('no-cache');
  });

  it('lists no directory, serves no dot file and nothing outside the UI folder', async () => {
    for (const path of [
      '/assets/',
      '/assets',
      '/.secret',
      '/../outside.txt',
      '/%2e%2e/outside.txt',
      '/assets/%2e%2e%2f%2e%2e%2foutside.txt',
      '/v3/../../outside.txt',
    ]) {
      const r = await raw(srv.port, 'GET', path, { host: `127.0.0.1:${srv.port}` });
      expect(r.status, path).not.toBe(200);
      expect(r.text, path).not.toContain('outside');
      expect(r.text, path).not.toContain('token');
      expect(r.text, path).not.toContain('app.js');
    }
  });

  it('serves a placeholder page until the UI is built', async () => {
    const plain = await startTestServer({ root, uiDir: null });
    try {
      const r = await call(plain.base, 'GET', '/');
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toContain('text/html');
      expect(r.text).toContain('hub is running');
    } finally {
      await plain.close();
    }
  });
});

describe('port', () => {
  it('probes upward from a busy default port, and fails on a busy explicit one', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const busy = (blocker.address() as { port: number }).port;
    try {
      const probed = await startHubServer({ mode: 'web', root, env: {}, port: busy, uiDir: null });
      expect(probed.listening.port).toBeGreaterThan(busy);
      await probed.close();
      const err = await startHubServer({
        mode: 'web',
        root,
        env: {},
        port: busy,
        explicitPort: true,
        uiDir: null,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((err as HubError).message).toContain(`port ${busy} in use`);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });
});
