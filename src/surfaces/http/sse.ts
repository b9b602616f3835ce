import type { FastifyReply, FastifyRequest } from 'fastify';
import { HubError, RefusedError } from '../../infra/index.js';
import { invoke, isOpStream } from '../../ops/index.js';
import type { BoundRoute, ContextFactory, RouteHandler } from './routes-from-registry.js';
import { clientAddress, fromForeignPage } from './security.js';

/** Server-Sent Events settings of one server. */
export interface SseOptions {
  /** A comment line is sent this often when nothing else is, so proxies and the idle timeout keep the stream. */
  heartbeatMs: number;
  /** Most streams open at once on one server; the next is answered 503 until one closes. */
  maxStreams: number;
  /**
   * Most streams one client (its address: clientAddress) holds at once, so no client takes every slot; the next is
   * answered 429.
   */
  maxStreamsPerClient: number;
}

export const SSE_DEFAULTS: SseOptions = { heartbeatMs: 15_000, maxStreams: 32, maxStreamsPerClient: 8 };

/** Streams open on one server, in all and per client. */
export interface OpenStreams {
  count: number;
  byClient: Map<string, number>;
}

export function createOpenStreams(): OpenStreams {
  return { count: 0, byClient: new Map() };
}

/** Seconds a client over its share of streams is told to wait (Retry-After). */
const PER_CLIENT_RETRY_S = 10;

/** How long a browser's EventSource waits before reconnecting (sent once as `retry:`). */
const RETRY_MS = 3_000;

/** One SSE message: `id:` the cursor, `data:` one line of JSON (JSON never holds a raw newline). */
export function sseMessage(id: string, data: unknown): string {
  return `id: ${id.replace(/[\r\n]/g, '')}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * The handler of a streaming binding: validates and starts the operation like any route (errors are the usual
 * JSON answers), then holds the response open as text/event-stream, one message per item, a heartbeat comment
 * when idle, until the client goes away or the server closes. `Last-Event-ID` (what a reconnecting EventSource
 * sends) becomes the `after` input.
 */
export function sseHandler(
  route: BoundRoute,
  makeContext: ContextFactory,
  inputOf: (req: FastifyRequest) => Record<string, unknown>,
  opts: SseOptions,
  open: OpenStreams,
): RouteHandler {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    // A stream only reads, so the CSRF rule of writes does not cover it; but a page of another origin could still
    // hold every slot (and make the server poll the feed for each), so such a page gets none.
    if (fromForeignPage(req)) {
      throw new RefusedError(
        `a page of another origin ('${req.headers.origin ?? req.headers['sec-fetch-site']}') may not open an event stream on this server`,
        { header: 'Origin', value: req.headers.origin ?? null, rule: 'same_origin' },
      );
    }
    const input = inputOf(req);
    const last = req.headers['last-event-id'];
    if (typeof last === 'string' && last.trim() !== '') input.after = last.trim();
    if (open.count >= opts.maxStreams) {
      throw new HubError(
        'refused',
        `too many event streams are open on this server (at most ${opts.maxStreams}): close one and retry`,
        { rule: 'max_streams', limit: opts.maxStreams },
        503,
      );
    }
    const client = clientAddress(req);
    if ((open.byClient.get(client) ?? 0) >= opts.maxStreamsPerClient) {
      // 429: this client holds its share (the server may still have room for others); 503 is the server full.
      reply.header('retry-after', String(PER_CLIENT_RETRY_S));
      throw new HubError(
        'refused',
        `too many event streams are open from ${client} (at most ${opts.maxStreamsPerClient} per client): close one and retry`,
        { rule: 'max_streams_per_client', limit: opts.maxStreamsPerClient, client },
        429,
      );
    }
    const result = await invoke(route.op, makeContext(), input);
    if (!isOpStream(result)) throw new HubError('internal', `${route.op.id} did not return a stream`);
    open.count++;
    open.byClient.set(client, (open.byClient.get(client) ?? 0) + 1);
    const stop = new AbortController();
    const res = reply.raw;
    reply.hijack();
    // Headers the onRequest hook set (nosniff, frame options) go out with the stream's own.
    res.writeHead(200, {
      ...(reply.getHeaders() as Record<string, string>),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    // Nothing is written once the client is gone (a write to a closed response would raise).
    const send = (text: string) => {
      if (!stop.signal.aborted && !res.destroyed && !res.writableEnded) res.write(text);
    };
    send(`retry: ${RETRY_MS}\n\n`);
    let idle = setInterval(() => send(': heartbeat\n\n'), opts.heartbeatMs);
    const finish = () => {
      if (stop.signal.aborted) return;
      stop.abort();
      clearInterval(idle);
      open.count--;
      const left = (open.byClient.get(client) ?? 1) - 1;
      if (left > 0) open.byClient.set(client, left);
      else open.byClient.delete(client);
    };
    req.raw.on('close', finish);
    res.on('close', finish);
    try {
      for await (const item of result.open(stop.signal)) {
        if (stop.signal.aborted) break;
        send(sseMessage(result.cursor(item), result.data(item)));
        clearInterval(idle);
        idle = setInterval(() => send(': heartbeat\n\n'), opts.heartbeatMs);
      }
    } catch (err) {
      // Headers are gone: the failure is told as a last event, then the stream ends (the client reconnects).
      const message = err instanceof Error ? err.message : String(err);
      send(`event: error\ndata: ${JSON.stringify({ error: { code: 'internal', message } })}\n\n`);
    } finally {
      finish();
      if (!res.writableEnded) res.end();
    }
  };
}
