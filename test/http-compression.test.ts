import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { type RunningServer, startTestServer } from './http-server.js';
import { openSse } from './sse-client.js';

/** Big JSON answers are compressed when the client accepts it; small ones and the SSE stream never are. */

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request on its own connection, the body as the bytes that came over the wire (nothing decoded). */
function raw(base: string, path: string, headers: Record<string, string> = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = createTempDir('hub-compress-');
  const { root } = createDemo(join(dir, 'demo'));
  server = await startTestServer({ root });
});

afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

const TERRAIN = '/v3/ops/terrain?detail=manifest';

describe('response compression', () => {
  it('sends a big JSON answer gzip-compressed when asked, the same JSON once decoded', async () => {
    const plain = await raw(server.base, TERRAIN);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const gz = await raw(server.base, TERRAIN, { 'accept-encoding': 'gzip' });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toMatch(/accept-encoding/i);
    expect(gz.body.length).toBeLessThan(plain.body.length / 3);
    const decoded = JSON.parse(gunzipSync(gz.body).toString('utf8'));
    const whole = JSON.parse(plain.body.toString('utf8'));
    expect(decoded.nodes).toEqual(whole.nodes);
    expect(decoded.total).toBe(whole.total);
  });

  it('uses gzip when the client takes several (the cheapest in CPU), brotli when it takes only that', async () => {
    const many = await raw(server.base, TERRAIN, { 'accept-encoding': 'br, deflate, gzip' });
    expect(many.headers['content-encoding']).toBe('gzip');
    const br = await raw(server.base, TERRAIN, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8')).nodes.length).toBeGreaterThan(0);
  });

  it('compresses the OpenAPI document and the whole-document state GET too (their handlers return the reply)', async () => {
    const doc = await raw(server.base, '/v3/openapi.json', { 'accept-encoding': 'gzip' });
    expect(doc.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(doc.body).toString('utf8')).openapi).toMatch(/^3\./);
  });

  it('leaves a small answer as it is', async () => {
    const small = await raw(server.base, '/v3/ops/components?limit=1', { 'accept-encoding': 'gzip' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8')).components).toHaveLength(1);
  });

  it('still refuses a foreign Host before anything is compressed', async () => {
    const r = await raw(server.base, TERRAIN, { 'accept-encoding': 'gzip', host: 'evil.example' });
    expect(r.status).toBe(403);
    const body = r.headers['content-encoding'] === 'gzip' ? gunzipSync(r.body) : r.body;
    expect(JSON.parse(body.toString('utf8')).error.code).toBe('refused');
  });

  it('never compresses the SSE stream: each event arrives as it is written', async () => {
    const sse = await openSse(`${server.base}/v3/ops/events/stream`, { 'accept-encoding': 'gzip, br' });
    try {
      expect(sse.status).toBe(200);
      expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(sse.headers.get('content-encoding')).toBeNull();
      const made = await fetch(`${server.base}/v3/ops/handoffs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 'ho-sse-compress', title: 'Streamed' }),
      });
      expect(made.status).toBeLessThan(300);
      let m = await sse.next();
      while (!m.data.includes('ho-sse-compress')) m = await sse.next();
      expect(m.data).toContain('ho-sse-compress');
    } finally {
      sse.close();
    }
  });
});
