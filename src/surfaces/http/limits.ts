import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorMapping, HubError } from '../../infra/index.js';

/** How long the server waits on a client; docs/http.md lists these. */
export interface HttpTimeouts {
  /** Whole request, headers and body: a body trickled a byte at a time is cut off with 408 after this. */
  requestMs: number;
  /** Request line and headers. */
  headersMs: number;
  /** An idle kept-alive connection between two requests. */
  keepAliveMs: number;
  /** A socket with no traffic either way (a backstop while a long operation runs: sized above any of them). */
  idleMs: number;
  /** How often Node checks connections against `requestMs` and `headersMs` (its default, 30 s, doubles them). */
  checkIntervalMs: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = {
  requestMs: 30_000,
  headersMs: 10_000,
  keepAliveMs: 5_000,
  idleMs: 300_000,
  checkIntervalMs: 1_000,
};

/** Largest request line plus headers (Node's default, named so the 431 message can say it). */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Most connections open at once; the next ones are closed on accept until some close. */
export const MAX_CONNECTIONS = 1_000;

/** Longest wait for a refusal to be flushed before the socket is closed anyway. */
const CLOSE_AFTER_ANSWER_MS = 1_000;

/** What Node's parser refuses before a route runs, by its error code: the status and the rule named. */
function parserRefusal(code: string | undefined): { status: number; rule: string; message: string } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        rule: 'request_timeout',
        message: 'request not received in time (headers and body must arrive within the request timeout)',
      };
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        rule: 'header_size',
        message: `request headers are larger than the limit (${MAX_HEADER_BYTES} bytes)`,
      };
    default:
      return { status: 400, rule: 'http_syntax', message: 'malformed HTTP request' };
  }
}

/**
 * The server's `clientError` handler: answers what Node's HTTP parser refused (malformed request, headers too
 * large, a request not received in time) in the documented error body, then closes the connection. A response
 * already under way is never written into.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const r = parserRefusal(err.code);
    const body = JSON.stringify(
      errorMapping(new HubError('validation', r.message, { rule: r.rule }, r.status)).body,
    );
    const text =
      `HTTP/1.1 ${r.status} ${STATUS_CODES[r.status]}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body;
    // Closed once the answer is flushed, or soon in any case (a client that reads nothing cannot hold it open).
    socket.write(text, () => socket.destroy());
    setTimeout(() => socket.destroy(), CLOSE_AFTER_ANSWER_MS).unref();
    return;
  }
  socket.destroy();
}
