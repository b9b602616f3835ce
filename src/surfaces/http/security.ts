import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RefusedError, UnauthorizedError } from '../../infra/index.js';

/** What the security hook checks on every request. */
export interface SecurityOptions {
  /** Bearer token every request must carry; undefined means loopback-only, no authentication. */
  token: string | undefined;
  /** Host header names accepted besides loopback names (`server.allowed_hosts`, plus an explicit bind host). */
  allowedHosts: readonly string[];
  /**
   * Requests served without the token: the browser UI's static files, which hold no data, so a browser can load
   * the page that then asks for the token. The Host check still applies to them.
   */
  publicRequest?: (req: FastifyRequest) => boolean;
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True for the names and addresses that always mean this machine: localhost, *.localhost, 127/8, ::1. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) {
    // The URL parser writes every spelling of an IPv6 address one way (`0:0::1` -> `::1`).
    const norm = new URL(`http://[${h}]/`).hostname;
    return norm === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(norm);
  }
  return false;
}

/** The host name of a Host header (`[::1]:8787` -> `::1`, `Example.com:80` -> `example.com`). */
export function hostName(header: string): string {
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(1, h.indexOf(']') > 0 ? h.indexOf(']') : undefined);
  const colon = h.lastIndexOf(':');
  return colon >= 0 && h.indexOf(':') === colon ? h.slice(0, colon) : h;
}

/** Whether a Host header names this server: a loopback name or address, or an allowed host (with or without port). */
export function hostAllowed(header: string | undefined, allowed: readonly string[]): boolean {
  if (!header) return false;
  const name = hostName(header);
  if (isLoopbackHost(name)) return true;
  const full = header.trim().toLowerCase();
  return allowed.some((a) => {
    const x = a.trim().toLowerCase();
    return x === full || x === name || (x.startsWith('[') && x === `[${name}]`);
  });
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Compares a presented bearer token with the configured one in constant time (both hashed to equal length). */
export function tokenMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer[ \t]+(.+)$/i.exec(authorization?.trim() ?? '');
  const presented = m?.[1]?.trim() ?? '';
  // Always compare, even for a missing header, so the time taken says nothing about the token.
  const same = timingSafeEqual(digest(presented), digest(token));
  return same && presented !== '';
}

/**
 * Same-origin test for state-changing requests: an Origin header, when a browser sends one, must name the host
 * the request was sent to. `null` origins (sandboxed frames, file: pages) are foreign.
 */
export function originAllowed(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (!host) return false;
  try {
    const u = new URL(origin);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
    return u.host.toLowerCase() === host.trim().toLowerCase();
  } catch {
    return false;
  }
}

/**
 * Whether a browser says the request comes from a page of another origin: an `Origin` that is not the request's
 * own host, or `Sec-Fetch-Site` other than `same-origin` or `none` (typed by the user). A no-cors fetch carries no
 * Origin but still carries Sec-Fetch-Site. Clients that are not browsers send neither and are not judged here.
 */
export function fromForeignPage(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return true;
  return !originAllowed(req.headers.origin, req.headers.host);
}

/**
 * Who a request counts against for per-client limits: the peer address, or, when the peer is this machine and
 * names a client in `X-Forwarded-For` (a reverse proxy on the same host, as docs/deploy.md sets up), the address
 * the proxy appended last. A browser page cannot set that header (it is not CORS-safelisted and no preflight is
 * ever answered), and a local process could open connections of its own anyway.
 */
export function clientAddress(req: FastifyRequest): string {
  const peer = req.socket?.remoteAddress ?? '';
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string' && isLoopbackHost(peer)) {
    const last = forwarded.split(',').pop()?.trim();
    if (last) return last.toLowerCase();
  }
  return peer;
}

/**
 * The onRequest hook: Host allow-list (DNS rebinding), bearer token (when configured), Origin on state-changing
 * methods (CSRF). Runs before the body is read, for every route including 404s and static files.
 */
export function securityHook(opts: SecurityOptions) {
  const allowed = [...opts.allowedHosts];
  const token = opts.token;
  // Host headers already judged allowed (a server sees few distinct ones); bounded so it cannot grow unbounded.
  const seen = new Set<string>();
  return (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    const host = req.headers.host;
    done(refusal(req, reply, host));
  };
  function refusal(req: FastifyRequest, reply: FastifyReply, host: string | undefined): Error | undefined {
    if (host === undefined || !seen.has(host)) {
      if (!hostAllowed(host, allowed)) {
        return new RefusedError(
          `host '${host ?? ''}' is not allowed: only loopback names and server.allowed_hosts are served (DNS rebinding protection)`,
          { header: 'Host', value: host ?? null, rule: 'allowed_host' },
        );
      }
      if (seen.size < 64) seen.add(host!);
    }
    if (
      token !== undefined &&
      !opts.publicRequest?.(req) &&
      !tokenMatches(req.headers.authorization, token)
    ) {
      reply.header('www-authenticate', 'Bearer realm="hub"');
      return new UnauthorizedError('a valid Authorization: Bearer <token> header is required', {
        header: 'Authorization',
        rule: 'bearer_token',
      });
    }
    if (STATE_CHANGING.has(req.method) && !originAllowed(req.headers.origin, host)) {
      return new RefusedError(
        `origin '${req.headers.origin}' may not change state on this server (cross-site request refused)`,
        { header: 'Origin', value: req.headers.origin ?? null, rule: 'same_origin' },
      );
    }
    return undefined;
  }
}

const API_PATH = /^\/v\d+(\/|$)/i;

/**
 * A GET or HEAD of the browser UI's files: neither the route that matched (after the router decoded the path, so
 * `/%763/...` is still an API route) nor the raw path is in an API family (`/v1`, `/v2`, `/v3`, ...).
 */
export function isUiFileRequest(req: FastifyRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const route = req.routeOptions?.url;
  if (route !== undefined && API_PATH.test(route)) return false;
  return !API_PATH.test(req.url.split('?')[0] ?? '');
}

/** Whether binding `host` exposes the server beyond this machine (0.0.0.0, ::, a LAN address or name). */
export function isPublicBind(host: string): boolean {
  return !isLoopbackHost(host);
}
