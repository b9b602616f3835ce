// Real hub HTTP servers on port 0 for the HTTP tests, and a small fetch helper.
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
  const res = await fetch(`${base}${path}`, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
