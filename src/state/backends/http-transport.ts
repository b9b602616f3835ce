import type { IncomingMessage } from 'node:http';

/** One answer of the remote state server, read whole. */
export interface TransportAnswer {
  status: number;
  etag: string | undefined;
  text: string;
}

/**
 * Sends one request and reads its answer whole. A failure before any answer throws an error whose `code` (or
 * `cause.code`, as undici's fetch reports it) names the socket failure; a deadline throws a `TimeoutError`.
 */
export type Transport = (
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
) => Promise<TransportAnswer>;

/** The transport over a WHATWG fetch (what a caller passes, e.g. one bound to an undici dispatcher). */
export function fetchTransport(doFetch: typeof fetch): Transport {
  return async (method, url, headers, body, timeoutMs) => {
    const res = await doFetch(url, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, etag: res.headers.get('etag') ?? undefined, text: await res.text() };
  };
}

function timeoutError(timeoutMs: number): Error {
  const err = new Error(`timed out after ${timeoutMs} ms`);
  err.name = 'TimeoutError';
  return err;
}

/**
 * The default transport: node:http(s) with a keep-alive agent of its own. The global fetch (undici) spent about
 * 0.6 ms of CPU a request on a small CAS write (streams, Request/Response objects, an AbortSignal each), more than
 * the server's own handling: bench/state-dynamodb.mjs. Same wire behaviour: keep-alive, Content-Length, and a
 * reused connection the server closed fails with ECONNRESET/EPIPE before any answer (the caller's retry rule).
 */
export function nodeTransport(): Transport {
  // Loaded here, not at import: every command opens the state module, and only the http and DynamoDB backends
  // send a request (node:http and node:https cost ~9 ms of CPU at start-up).
  const http = process.getBuiltinModule('node:http');
  const https = process.getBuiltinModule('node:https');
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  return (method, url, headers, body, timeoutMs) =>
    new Promise<TransportAnswer>((resolve, reject) => {
      const u = new URL(url);
      const secure = u.protocol === 'https:';
      const h: Record<string, string | number> = { ...headers };
      if (body !== undefined) h['content-length'] = Buffer.byteLength(body);
      let settled = false;
      const done = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        fn();
      };
      const req = (secure ? https.request : http.request)(
        u,
        { method, headers: h, agent: secure ? agents.https : agents.http },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (err) => done(() => reject(err)));
          res.on('end', () => {
            const etag = res.headers.etag;
            done(() =>
              resolve({
                status: res.statusCode ?? 0,
                etag: typeof etag === 'string' ? etag : undefined,
                text: Buffer.concat(chunks).toString('utf8'),
              }),
            );
          });
        },
      );
      // One deadline for the whole exchange, answer body included (state.timeout_ms).
      const timer = setTimeout(() => {
        const err = timeoutError(timeoutMs);
        done(() => reject(err));
        req.destroy(err);
      }, timeoutMs);
      req.on('error', (err) => done(() => reject(err)));
      req.end(body);
    });
}
