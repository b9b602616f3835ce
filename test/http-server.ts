// Real hub HTTP servers on port 0 for the HTTP tests, and a small request helper.
import { request as httpRequest } from 'node:http';
import { type HubServer, type StartOptions, startHubServer } from '../src/surfaces/http/index.js';

export interface RunningServer {
  server: HubServer;
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  close(): Promise<void>;
}

/** Starts a hub server on 127.0.0.1, port 0, placeholder UI, manifest cache off (override any option). */
export async function startTestServer(
  opts: Partial<StartOptions> & { root: string },
): Promise<RunningServer> {
  const server = await startHubServer({
    mode: 'web',
    env: { HUB_CACHE_DIR: 'off' },
    host: '127.0.0.1',
    port: 0,
    explicitPort: true,
    uiDir: null,
    ...opts,
  });
  const port = server.listening.port;
  return { server, base: `http://127.0.0.1:${port}`, port, close: () => server.close() };
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the route answered.
  json: any;
}

/**
 * One HTTP exchange on a connection of its own (`agent: false`). Pooled keep-alive sockets broke tests that host
 * the server in their own process: a synchronous `runHub` blocks that process for seconds, the server's
 * keep-alive timer then closes the idle socket just as the next request reuses it, and the request fails with
 * ECONNRESET. A fresh connection per call cannot race that timer.
 */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const h = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          for (const v of Array.isArray(value) ? value : [value]) h.append(name, v);
        }
        resolve({ status: res.statusCode ?? 0, headers: h, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One real request; a JSON `body` is sent as application/json unless headers say otherwise. */
export async function call(
  base: string,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await send(`${base}${path}`, method, headers, body);
  const text = res.text;
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
