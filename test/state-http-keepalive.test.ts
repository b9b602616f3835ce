// The http state backend against a server that closes a kept-alive connection as the next request arrives: what
// a server does when its keep-alive timeout ends just as a long-running client (MCP server, daemon) speaks again
// after a pause. A real node:http server on port 0 closes the second request of every connection without an
// answer, which is that race made deterministic (waiting out a short keepAliveTimeout is not: undici either
// sees the server's `Keep-Alive: timeout=0` and never reuses, or reads the FIN before it writes).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HubError } from '../src/infra/index.js';
import { createHttpStore } from '../src/state/index.js';

/** Lets undici put the answered connection back in its pool, so the next request reuses it. */
const pooled = () => new Promise((r) => setTimeout(r, 20));

interface Seen {
  method: string;
  reused: boolean;
}

describe('http state backend: a kept-alive connection the server closes', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  const uses = new WeakMap<Socket, number>();

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const n = (uses.get(req.socket) ?? 0) + 1;
      uses.set(req.socket, n);
      seen.push({ method: req.method ?? '', reused: n > 1 });
      if (n > 1) {
        // Closed before any answer, as an idle connection is when the server's keep-alive timer fires.
        req.socket.destroy();
        return;
      }
      req.resume();
      req.on('end', () => {
        // No Keep-Alive hint: undici keeps the connection for the next request, as with a long server timeout.
        res.setHeader('connection', 'keep-alive');
        res.setHeader('content-type', 'application/json');
        if (req.method === 'GET') {
          res.setHeader('etag', '"v1"');
          res.end(JSON.stringify({ objectives: [] }));
        } else res.end(JSON.stringify({ etag: '"v2"' }));
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('retries a GET and a PUT once on a fresh connection, and they succeed', async () => {
    const store = createHttpStore({ url: base });
    expect((await store.read('objectives')).etag).toBe('"v1"');
    await pooled();
    seen.length = 0;
    expect((await store.read('objectives')).etag).toBe('"v1"');
    expect(seen).toEqual([
      { method: 'GET', reused: true },
      { method: 'GET', reused: false },
    ]);
    await pooled();
    seen.length = 0;
    expect(await store.write('objectives', { objectives: [] }, '"v1"')).toBe('"v2"');
    expect(seen).toEqual([
      { method: 'PUT', reused: true },
      { method: 'PUT', reused: false },
    ]);
  });

  it('does not retry a POST (it may have been applied) and says so', async () => {
    const store = createHttpStore({ url: base });
    await store.read('objectives');
    await pooled();
    seen.length = 0;
    const err = await store.append('coord.events', 'events', { kind: 'x' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HubError);
    expect((err as HubError).message).toMatch(/UND_ERR_SOCKET|ECONNRESET/);
    expect((err as HubError).message).toContain('not retried');
    expect((err as HubError).details).toMatchObject({ method: 'POST', rule: 'connection_closed' });
    expect(seen).toEqual([{ method: 'POST', reused: true }]);
  });
});
