// The HTTP server at the socket: slow requests are cut off, connections are capped, and what Node's parser or the
// router refuses (431, a malformed request, a bad URL) is answered in the documented error body. Raw sockets only.
import { connect, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';

let root: string;
beforeAll(() => {
  root = buildWorkspace({
    projects: [{ name: 'p', repos: [{ name: 'r', files: { 'a.txt': 'a\n' } }] }],
  }).root;
});
afterAll(() => removeTempDir(root));

// Whatever a test leaves open (a failing test never reaches its own cleanup) is closed after it.
const sockets = new Set<Socket>();
const timers = new Set<ReturnType<typeof setInterval>>();
afterEach(() => {
  for (const t of timers) clearInterval(t);
  for (const s of sockets) s.destroy();
  timers.clear();
  sockets.clear();
});

/** Calls `fn` every `ms` until the test ends. */
function every(ms: number, fn: () => void): void {
  timers.add(setInterval(fn, ms));
}

interface RawSocket {
  socket: Socket;
  /** Everything the server wrote until it closed the connection. */
  closed: Promise<string>;
  write(text: string): void;
}

function open(port: number): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    sockets.add(socket);
    let received = '';
    const closed = new Promise<string>((done) => {
      socket.on('data', (d) => (received += d.toString('latin1')));
      socket.on('close', () => done(received));
    });
    socket.on('error', () => {});
    socket.once('connect', () =>
      resolve({
        socket,
        closed,
        write: (t) => {
          if (!socket.destroyed) socket.write(t);
        },
      }),
    );
    socket.once('error', reject);
  });
}

/** Status line and parsed JSON body of a raw HTTP/1.1 answer. */
function parseAnswer(raw: string): { status: number; headers: string; json: unknown } {
  const m = /^HTTP\/1\.1 (\d{3})/.exec(raw);
  const split = raw.indexOf('\r\n\r\n');
  let json: unknown;
  try {
    json = JSON.parse(raw.slice(split + 4));
  } catch {
    json = undefined;
  }
  return { status: m ? Number(m[1]) : 0, headers: raw.slice(0, split), json };
}

const documented = (code: string) => ({
  error: {
    code,
    message: expect.any(String),
    details: expect.objectContaining({ rule: expect.any(String) }),
  },
});

describe('slow requests', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer({
      root,
      timeouts: { requestMs: 600, headersMs: 400, keepAliveMs: 200, idleMs: 5000, checkIntervalMs: 50 },
    });
  });
  afterAll(() => srv?.close());

  it('cuts off a body trickled a byte at a time with 408 in the error body, and serves others meanwhile', async () => {
    const slow = await open(srv.port);
    slow.write(
      `POST /v3/ops/objectives HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`,
    );
    let sent = 0;
    every(40, () => {
      slow.write(' ');
      sent++;
    });
    // Others are served while the trickle goes on.
    for (let i = 0; i < 3; i++) expect((await call(srv.base, 'GET', '/v3/ops/components')).status).toBe(200);
    const answer = parseAnswer(await slow.closed);
    expect(answer.status).toBe(408);
    expect(answer.json).toMatchObject(documented('validation'));
    expect(sent).toBeLessThan(1000);
    expect((await call(srv.base, 'GET', '/v3/ops/components')).status).toBe(200);
  });

  it('cuts off a connection that sends nothing', async () => {
    const silent = await open(srv.port);
    const answer = parseAnswer(await silent.closed);
    expect(answer.status).toBe(408);
    expect(answer.json).toMatchObject(documented('validation'));
  });

  it('cuts off headers that never end', async () => {
    const slow = await open(srv.port);
    slow.write(`GET /v3/ops/components HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\n`);
    every(40, () => slow.write('X-Pad: 1\r\n'));
    const answer = parseAnswer(await slow.closed);
    expect(answer.status).toBe(408);
    expect(answer.json).toMatchObject(documented('validation'));
  });

  it('closes an idle kept-alive connection', async () => {
    const s = await open(srv.port);
    s.write(`GET /v3/ops/components HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\n\r\n`);
    const raw = await s.closed;
    expect(parseAnswer(raw).status).toBe(200);
  });
});

describe('connections', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer({ root, maxConnections: 2 });
  });
  afterAll(() => srv?.close());

  it('caps concurrent connections and serves again once they close', async () => {
    const held = [await open(srv.port), await open(srv.port)];
    // Wait until the server has accepted both (an answered request on each).
    for (const h of held) h.write(`GET /v3/ops/components HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await new Promise((r) => setTimeout(r, 100));
    const extra = await open(srv.port);
    expect(await extra.closed).toBe('');
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    expect((await call(srv.base, 'GET', '/v3/ops/components')).status).toBe(200);
  });
});

describe('what the parser and the router refuse', () => {
  let srv: RunningServer;
  beforeAll(async () => {
    srv = await startTestServer({ root });
  });
  afterAll(() => srv?.close());

  const send = async (text: string) => {
    const s = await open(srv.port);
    s.write(text);
    return parseAnswer(await s.closed);
  };

  it('answers headers over the size limit with 431 in the error body', async () => {
    const a = await send(
      `GET /v3/ops/components HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\nConnection: close\r\n\r\n`,
    );
    expect(a.status).toBe(431);
    expect(a.json).toMatchObject(documented('validation'));
    expect(a.headers.toLowerCase()).toContain('content-type: application/json');
  });

  it('answers a malformed request with 400 in the error body', async () => {
    const a = await send('GET /v3/ops/components HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n');
    expect(a.status).toBe(400);
    expect(a.json).toMatchObject(documented('validation'));
  });

  it('answers a URL with malformed percent-encoding with 400 in the error body', async () => {
    for (const path of ['/v3/ops/objectives/%E0%A4%A', '/v3/ops/objectives/%zz', '/v3/ops/state/%']) {
      const a = await send(`PATCH ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(a.status, path).toBe(400);
      expect(a.json, path).toMatchObject(documented('validation'));
    }
    // In the query string an undecodable sequence is kept as typed, and the operation judges it.
    const r = await call(srv.base, 'GET', '/v3/ops/components/resolve?path=%zz');
    expect(r.status).toBeLessThan(500);
  });
});
