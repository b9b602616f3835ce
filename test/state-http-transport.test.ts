// The http state backend's default transport (node:http with a keep-alive agent, in place of the global fetch):
// sequential requests share one connection and bodies go with Content-Length. (That an idle kept-alive socket
// keeps no CLI process alive is shown by the CLI tests against a server: http-writers, http-no-lost-updates.)
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpStore } from '../src/state/index.js';

describe('http state backend: default transport', () => {
  let server: Server;
  let base: string;
  const sockets = new Set<Socket>();
  const seen: { method: string; length?: string; chunked: boolean; ifMatch?: string; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      sockets.add(req.socket);
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        body += c;
      });
      req.on('end', () => {
        seen.push({
          method: req.method ?? '',
          length: req.headers['content-length'],
          chunked: req.headers['transfer-encoding'] !== undefined,
          ifMatch: req.headers['if-match'] as string | undefined,
          body,
        });
        res.setHeader('content-type', 'application/json');
        res.setHeader('etag', `"v${seen.length}"`);
        res.end(req.method === 'GET' ? JSON.stringify({ objectives: [] }) : JSON.stringify({ ok: true }));
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

  it('reuses one connection for sequential writes, each body sent with its Content-Length', async () => {
    const store = createHttpStore({ url: base });
    let etag = (await store.read('objectives')).etag ?? '""';
    for (let i = 0; i < 5; i++)
      etag = await store.write('objectives', { objectives: [], n: i, s: 'é' }, etag);
    expect(sockets.size).toBe(1);
    const puts = seen.filter((s) => s.method === 'PUT');
    expect(puts).toHaveLength(5);
    for (const p of puts) {
      expect(p.chunked).toBe(false);
      expect(Number(p.length)).toBe(Buffer.byteLength(p.body));
    }
    expect(puts[1]?.ifMatch).toBe(etag.replace('6', '2'));
    expect(etag).toBe('"v6"');
  });
});
