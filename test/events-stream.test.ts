// GET /v3/ops/events/stream: the coordination events feed as Server-Sent Events, against a real server on the
// demo workspace, with a real streaming client: backlog then live events, resume from Last-Event-ID, heartbeats,
// the open-stream bound, the token and Host rules, and the CLI's `hub context follow`.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { HUB_BIN } from './run-hub.js';
import { openSse } from './sse-client.js';

let dir: string;
let root: string;
let manifest: string;
let srv: RunningServer;
const MAX_STREAMS = 3;

beforeAll(async () => {
  dir = createTempDir('hub-sse-');
  ({ root, manifestPath: manifest } = createDemo(join(dir, 'demo')));
  srv = await startTestServer({ root, sse: { heartbeatMs: 200, maxStreams: MAX_STREAMS } });
});
afterAll(async () => {
  await srv?.close();
  removeTempDir(dir);
});

const objective = (id: string) => call(srv.base, 'POST', '/v3/ops/objectives', { body: { id, title: id } });
const STREAM = '/v3/ops/events/stream?poll_ms=100';

describe('GET /v3/ops/events/stream', () => {
  it('sends the feed, then each new event as it is recorded, each with its cursor as id', async () => {
    expect((await objective('sse-1')).status).toBe(200);
    const s = await openSse(`${srv.base}${STREAM}`);
    try {
      expect(s.status).toBe(200);
      expect(s.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(s.headers.get('cache-control')).toContain('no-cache');
      expect(s.headers.get('x-content-type-options')).toBe('nosniff');
      const first = await s.next();
      expect(JSON.parse(first.data)).toMatchObject({ kind: 'ObjectiveCreated', subject: 'sse-1' });
      // The objective's creation was recorded: its id in the stream is its sequence.
      expect(JSON.parse(first.data).id).toBe('objective:sse-1:created');
      expect(first.id).toBe(String(JSON.parse(first.data).seq));
      expect(s.retry).toBe(3000);
      await objective('sse-2');
      const live = await s.next();
      expect(JSON.parse(live.data)).toMatchObject({ kind: 'ObjectiveCreated', subject: 'sse-2' });
      // The GET feed and the stream agree on the events.
      const feed = await call(srv.base, 'GET', '/v3/ops/events');
      const ids = feed.json.events.map((e: { id: string }) => e.id);
      expect(ids).toContain(JSON.parse(first.data).id);
      expect(ids).toContain(JSON.parse(live.data).id);
      // Heartbeat comments while nothing happens.
      await expect.poll(() => s.comments.includes('heartbeat'), { timeout: 5000 }).toBe(true);
    } finally {
      s.close();
    }
  });

  it('resumes after Last-Event-ID (or ?after=) with only the events after it', async () => {
    const s = await openSse(`${srv.base}${STREAM}`);
    const seen: string[] = [];
    let last: string | undefined;
    try {
      for (;;) {
        const m = await s.next(1000).catch(() => undefined);
        if (!m) break;
        seen.push(JSON.parse(m.data).id);
        last = m.id;
      }
    } finally {
      s.close();
    }
    expect(seen.length).toBeGreaterThan(0);
    await objective('sse-3');
    for (const [url, headers] of [
      [`${srv.base}${STREAM}`, { 'last-event-id': last! }],
      [`${srv.base}${STREAM}&after=${encodeURIComponent(last!)}`, {}],
    ] as const) {
      const r = await openSse(url, headers);
      try {
        const m = await r.next();
        expect(JSON.parse(m.data)).toMatchObject({ kind: 'ObjectiveCreated', subject: 'sse-3' });
        await expect(r.next(600)).rejects.toThrow(/no SSE message/);
      } finally {
        r.close();
      }
    }
    const bad = await openSse(`${srv.base}${STREAM}`, { 'last-event-id': 'not-a-cursor' });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.text!)).toMatchObject({
      error: { code: 'validation', details: { rule: 'event_cursor' } },
    });
  });

  it('bounds the open streams, and frees a slot when a client goes away', async () => {
    const open = await Promise.all(
      Array.from({ length: MAX_STREAMS }, () => openSse(`${srv.base}${STREAM}`)),
    );
    try {
      expect(open.map((s) => s.status)).toEqual(Array(MAX_STREAMS).fill(200));
      const over = await openSse(`${srv.base}${STREAM}`);
      expect(over.status).toBe(503);
      expect(JSON.parse(over.text!)).toMatchObject({
        error: { code: 'refused', details: { rule: 'max_streams' } },
      });
      open.pop()!.close();
      await expect
        .poll(
          async () => {
            const s = await openSse(`${srv.base}${STREAM}`);
            s.close();
            return s.status;
          },
          { timeout: 5000 },
        )
        .toBe(200);
    } finally {
      for (const s of open) s.close();
    }
    // Every slot comes back once the clients are gone: the server still serves streams and plain routes.
    await expect
      .poll(
        async () => {
          const all = await Promise.all(
            Array.from({ length: MAX_STREAMS }, () => openSse(`${srv.base}${STREAM}`)),
          );
          for (const s of all) s.close();
          return all.every((s) => s.status === 200);
        },
        { timeout: 5000 },
      )
      .toBe(true);
    expect((await call(srv.base, 'GET', '/v3/ops/events')).status).toBe(200);
  });

  it('keeps the token and Host rules', async () => {
    const TOKEN = 'sse-token-123456';
    const guarded = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', HUB_SERVER_TOKEN: TOKEN } });
    try {
      expect((await openSse(`${guarded.base}${STREAM}`)).status).toBe(401);
      const ok = await openSse(`${guarded.base}${STREAM}`, { authorization: `Bearer ${TOKEN}` });
      expect(ok.status).toBe(200);
      ok.close();
    } finally {
      await guarded.close();
    }
    // fetch never sends a Host of its own choosing: a raw request does, as a rebound DNS name would.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${srv.base}${STREAM}`, { headers: { host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('refuses a stream asked for by a page of another origin (Origin, Sec-Fetch-Site), serves its own UI', async () => {
    const own = `http://127.0.0.1:${srv.port}`;
    for (const headers of [
      { origin: 'http://evil.example' },
      { origin: `http://localhost:${srv.port + 1}` },
      { origin: 'null' },
      // A no-cors fetch carries no Origin, but the browser still says where it comes from.
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: own, 'sec-fetch-site': 'cross-site' },
    ] as Array<Record<string, string>>) {
      const s = await openSse(`${srv.base}${STREAM}`, headers);
      expect(s.status, JSON.stringify(headers)).toBe(403);
      expect(JSON.parse(s.text!), JSON.stringify(headers)).toMatchObject({
        error: { code: 'refused', details: { rule: 'same_origin' } },
      });
    }
    for (const headers of [
      {},
      { origin: own },
      { origin: own, 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
    ] as Array<Record<string, string>>) {
      const s = await openSse(`${srv.base}${STREAM}`, headers);
      s.close();
      expect(s.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('caps the streams of one client, so one client cannot hold every slot', async () => {
    const capped = await startTestServer({
      root,
      sse: { heartbeatMs: 200, maxStreams: 6, maxStreamsPerClient: 2 },
    });
    const open: Awaited<ReturnType<typeof openSse>>[] = [];
    try {
      for (let i = 0; i < 2; i++) open.push(await openSse(`${capped.base}${STREAM}`));
      expect(open.map((s) => s.status)).toEqual([200, 200]);
      const over = await openSse(`${capped.base}${STREAM}`);
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toBe('10');
      expect(JSON.parse(over.text!)).toMatchObject({
        error: { code: 'refused', details: { rule: 'max_streams_per_client', limit: 2 } },
      });
      // Another client (behind a proxy on this machine, which names it in X-Forwarded-For) has its own share.
      const other = await openSse(`${capped.base}${STREAM}`, { 'x-forwarded-for': '192.0.2.7' });
      open.push(other);
      expect(other.status).toBe(200);
      open.shift()!.close();
      await expect
        .poll(
          async () => {
            const s = await openSse(`${capped.base}${STREAM}`);
            if (s.status === 200) open.push(s);
            return s.status;
          },
          { timeout: 5000 },
        )
        .toBe(200);
    } finally {
      for (const s of open) s.close();
      await capped.close();
    }
  });

  it('is not an MCP tool, and has an OpenAPI entry as text/event-stream', async () => {
    const doc = (await call(srv.base, 'GET', '/v3/openapi.json')).json;
    const get = doc.paths['/v3/ops/events/stream'].get;
    expect(Object.keys(get.responses['200'].content)).toEqual(['text/event-stream']);
    expect(get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['after', 'since', 'Last-Event-ID']),
    );
  });
});

describe('hub context follow', () => {
  it('prints the events as JSON lines as they come, and exits 0 on Ctrl-C', async () => {
    const child = spawn(
      process.execPath,
      [HUB_BIN, '-c', manifest, 'context', 'follow', '--poll-ms', '100', '--json'],
      { env: { ...process.env, HUB_CACHE_DIR: 'off', HUB_DAEMON: 'off' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await expect.poll(() => out.includes('"subject":"sse-1"'), { timeout: 10_000 }).toBe(true);
    await objective('sse-cli');
    await expect.poll(() => out.includes('"subject":"sse-cli"'), { timeout: 10_000 }).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    const lines = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ kind: 'ObjectiveCreated', subject: 'sse-cli' });
    expect(lines.at(-1).cursor).toBe(String(lines.at(-1).seq));
  });
});
