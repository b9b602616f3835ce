import {
  type ErrorCode,
  HubError,
  NotFoundError,
  PreconditionRequiredError,
  RefusedError,
  rememberSecret,
  StateConflictError,
  UnauthorizedError,
  ValidationError,
} from '../../infra/index.js';
import { STATE_URL_RULE } from '../../model/index.js';
import { type EventLog, type EventLogRead, LEGACY_EVENTS_DOCUMENT, type LoggedEvent } from '../event-log.js';
import {
  checkCollectionName,
  checkStoreDocumentName,
  DOCUMENT_NAME_RE,
  STATE_ROUTE,
  sharedDocument,
} from '../remote-routes.js';
import { assertDocument, type DocumentStore, type RouteAnswer, type Versioned } from '../store.js';
import { fetchTransport, nodeTransport } from './http-transport.js';

export interface HttpStoreOptions {
  /** Base URL of the hub server (`state.url`); a path prefix is kept (`https://host/hub` -> `/hub/v3/...`). */
  url: string | undefined;
  /** Bearer token (`state.token`, `HUB_STATE_TOKEN`, else `state.api_key`). */
  token?: string;
  /** Timeout of one request (`state.timeout_ms`). */
  timeoutMs?: number;
  /** A fetch to use instead of the default node:http(s) keep-alive transport (e.g. one bound to a dispatcher). */
  fetch?: typeof fetch;
}

const CLASSES: Partial<
  Record<ErrorCode, new (message: string, details?: Record<string, unknown>) => HubError>
> = {
  validation: ValidationError,
  not_found: NotFoundError,
  precondition_required: PreconditionRequiredError,
  unauthorized: UnauthorizedError,
};

/**
 * Failures that mean the connection closed under the request before any answer (undici's "other side closed",
 * a reset, a write to a closed socket), as when the server's keep-alive timeout ends as a kept-alive connection
 * is reused. Connection refused or a DNS failure are not among them: no request went out, and no retry helps.
 */
const CLOSED_CONNECTION = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * Methods retried once after CLOSED_CONNECTION. GET reads. PUT replaces a whole document under If-Match: if the
 * first try was applied after all, the repeat answers 412 (the ETag moved), never a second write. POST (append,
 * operation routes) is not idempotent, so it is not retried (RFC 9110 section 9.2.2).
 */
const REPLAYABLE = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

/** Events asked for per request when reading the server's log (the feed's largest page). */
const FEED_PAGE = 5000;

/** Checks `state.url` and returns it parsed; the scheme rule's message is the spec's exact text. */
export function parseStateUrl(url: string | undefined): URL {
  if (!url)
    throw new ValidationError('state.url is required by the http state backend (env HUB_STATE_URL)', {
      field: 'state.url',
      rule: 'required',
    });
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ValidationError(STATE_URL_RULE, { field: 'state.url', rule: 'http_url' });
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.host === '')
    throw new ValidationError(STATE_URL_RULE, {
      field: 'state.url',
      value: `${u.protocol}//${u.host}`,
      rule: 'http_url',
    });
  if (u.username || u.password)
    throw new ValidationError(
      'state.url must not embed credentials; put the token in state.token or HUB_STATE_TOKEN',
      { field: 'state.url', rule: 'no_credentials' },
    );
  return u;
}

/**
 * The `http` backend: another hub server's `/v3/ops/*` routes. Whole-document routes for objectives, approvals
 * and handoffs (ETag on GET, If-Match on PUT, 412 -> StateConflictError); the generic state routes for every other
 * document and for append. Errors come back as the server's `{"error": {...}}` body, rebuilt as the same class.
 */
export function createHttpStore(opts: HttpStoreOptions): DocumentStore {
  const base = parseStateUrl(opts.url);
  const prefix = base.pathname.replace(/\/+$/, '');
  const origin = `${base.protocol}//${base.host}`;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const send = opts.fetch ? fetchTransport(opts.fetch) : nodeTransport();
  const auth = opts.token ? `Bearer ${opts.token}` : undefined;
  // Every error this process prints masks it, whatever the server echoes back (errorMapping).
  rememberSecret(opts.token);

  const readPath = (name: string): string => {
    const shared = sharedDocument(name);
    if (!shared) return `${STATE_ROUTE}/${encodeURIComponent(checkStoreDocumentName(name))}`;
    const q = new URLSearchParams(shared.wholeQuery).toString();
    return q ? `${shared.path}?${q}` : shared.path;
  };
  const writePath = (name: string): string =>
    sharedDocument(name)?.path ?? `${STATE_ROUTE}/${encodeURIComponent(checkStoreDocumentName(name))}`;

  async function request(
    method: string,
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; etag: string | undefined; json: unknown }> {
    const url = `${origin}${prefix}${path}`;
    const h: Record<string, string> = { accept: 'application/json', ...headers };
    if (auth) h.authorization = auth;
    if (body !== undefined) h['content-type'] = 'application/json';
    const payload = body === undefined ? undefined : JSON.stringify(body);
    // One deadline for the request, its retry included: `state.timeout_ms` bounds the whole call.
    const deadline = Date.now() + timeoutMs;
    let res: { status: number; etag: string | undefined; text: string };
    let retried = false;
    for (;;) {
      try {
        res = await send(method, url, h, payload, Math.max(1, deadline - Date.now()));
        break;
      } catch (err) {
        const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
        // undici's fetch puts the socket's code under `cause`; node:http puts it on the error itself.
        const code = e.cause?.code ?? e.code;
        const closed = e.name !== 'TimeoutError' && CLOSED_CONNECTION.has(code ?? '');
        // A kept-alive connection the server closed as this request went out: the agent took it from its pool
        // and the request failed before any answer. The retry gets a fresh connection (the closed one has left
        // the pool). Only methods whose repeat is harmless: see docs/decisions.md, http state client keep-alive.
        if (closed && !retried && REPLAYABLE.has(method)) {
          retried = true;
          continue;
        }
        const why =
          e.name === 'TimeoutError'
            ? `timed out after ${timeoutMs} ms`
            : (code ?? e.cause?.message ?? e.message);
        const note = !closed
          ? ''
          : retried
            ? ' (the connection closed before any answer, again on a fresh connection)'
            : ` (the connection closed before any answer; a ${method} is not retried, since the server may have applied it: check, then repeat the operation)`;
        throw new HubError('internal', `remote state ${method} ${url} failed: ${why}${note}`, {
          url,
          method,
          rule: e.name === 'TimeoutError' ? 'timeout' : closed ? 'connection_closed' : 'unreachable',
        });
      }
    }
    const text = res.text;
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    if (res.status >= 400) throw remoteError(method, url, res.status, json);
    return { status: res.status, etag: res.etag, json };
  }

  /** The server's events log: appends through its state route, reads through its feed by sequence. */
  const events: EventLog = {
    async append(event) {
      const path = `${STATE_ROUTE}/${encodeURIComponent(LEGACY_EVENTS_DOCUMENT)}/events`;
      const r = await request('POST', path, event);
      const body = r.json as { seq?: unknown; id?: unknown } | undefined;
      return { seq: typeof body?.seq === 'number' ? body.seq : undefined, id: body?.id };
    },
    async read(o = {}) {
      const out: LoggedEvent[] = [];
      let after = o.after ?? 0;
      const path = `${STATE_ROUTE}/${encodeURIComponent(LEGACY_EVENTS_DOCUMENT)}/events`;
      for (;;) {
        const want = Math.min(FEED_PAGE, (o.limit ?? Number.POSITIVE_INFINITY) - out.length);
        const q = new URLSearchParams({ after: String(after), limit: String(want) }).toString();
        const r = await request('GET', `${path}?${q}`, undefined);
        const got = r.json as EventLogRead;
        out.push(...got.events);
        const done =
          got.events.length < want ||
          (o.limit !== undefined && out.length >= o.limit) ||
          got.events.length === 0;
        if (done) return { events: out, first_seq: got.first_seq, last_seq: got.last_seq };
        after = got.events.at(-1)!.seq;
      }
    },
    // The server compacts its own log as it appends.
    compact: async () => ({ removed: 0 }),
  };

  return {
    backend: 'http',
    events,
    async read<T>(name: string): Promise<Versioned<T>> {
      const r = await request('GET', readPath(name), undefined);
      // No ETag is the contract's "empty document", whatever placeholder body came with it.
      if (r.etag === undefined) return { value: undefined, etag: undefined };
      return { value: r.json as T, etag: r.etag };
    },
    async write(name, value, ifMatch) {
      assertDocument(name, value);
      const r = await request('PUT', writePath(name), value, { 'if-match': ifMatch });
      return etagFrom(r, 'PUT', name);
    },
    async append(name, key, item) {
      const path = `${STATE_ROUTE}/${encodeURIComponent(checkStoreDocumentName(name))}/${encodeURIComponent(key)}`;
      const r = await request('POST', path, item ?? null);
      return etagFrom(r, 'POST', name);
    },
    async list(collection) {
      const q = new URLSearchParams({ collection: checkCollectionName(collection) }).toString();
      const r = await request('GET', `${STATE_ROUTE}?${q}`, undefined);
      const names = (r.json as { documents?: unknown } | undefined)?.documents;
      if (!Array.isArray(names) || !names.every((n) => typeof n === 'string'))
        throw new HubError(
          'internal',
          `remote state list of '${collection}' answered without a documents list`,
          {
            collection,
          },
        );
      return names.filter((n) => n.startsWith(`${collection}/`) && DOCUMENT_NAME_RE.test(n)).sort();
    },
    async callRoute(method, path, body): Promise<RouteAnswer> {
      if (!path.startsWith('/'))
        throw new ValidationError(`route path '${path}' must start with /`, { field: 'path', value: path });
      try {
        const r = await request(method, path, body);
        return { found: true, json: r.json };
      } catch (err) {
        const status = (err as HubError).details?.remote_status;
        if (typeof status === 'number' && routeMissing(status, err as HubError))
          return { found: false, status };
        throw err;
      }
    },
  };
}

/**
 * True when an answer means the server has no such operation route (a server that keeps the state contract but
 * lacks hub's extra routes, or whose workspace is not loaded), rather than the operation's own refusal: 405 and
 * 501, and a 404 that names no input field (hub's own "not found" of a record always names the field, `id`).
 */
function routeMissing(status: number, err: HubError): boolean {
  if (status === 405 || status === 501) return true;
  return status === 404 && err.details?.field === undefined;
}

/** True when `err` is an http backend's answer that the server has no such route (see routeMissing). */
export function isRouteMissing(err: unknown): boolean {
  const status = (err as HubError | undefined)?.details?.remote_status;
  return typeof status === 'number' && routeMissing(status, err as HubError);
}

function etagFrom(r: { etag: string | undefined; json: unknown }, method: string, name: string): string {
  const etag = r.etag ?? (r.json as { etag?: unknown } | undefined)?.etag;
  if (typeof etag !== 'string')
    throw new HubError('internal', `remote state ${method} of '${name}' answered without an ETag`, {
      document: name,
    });
  return etag;
}

/** Rebuilds the server's error as the class it was, so callers (updateDocument) react the same as locally. */
function remoteError(method: string, url: string, status: number, json: unknown): HubError {
  const body = (json as { error?: { code?: string; message?: string; details?: Record<string, unknown> } })
    ?.error;
  const message = body?.message ?? `HTTP ${status}`;
  const details = { ...(body?.details ?? {}), remote_status: status, url, method };
  if (status === 412 || body?.code === 'conflict') return new StateConflictError(message, details);
  if (body?.code === 'refused') return new RefusedError(message, details, status === 409 ? 409 : 403);
  if (status === 401)
    return new UnauthorizedError(`remote state server refused the request: ${message}`, details);
  const cls = body?.code ? CLASSES[body.code as ErrorCode] : undefined;
  if (cls) return new cls(message, details);
  return new HubError('internal', `remote state ${method} ${url}: ${message}`, details);
}
