import {
  type HubError,
  NotFoundError,
  RefusedError,
  readBoundedBody,
  UnauthorizedError,
} from '../infra/index.js';
import { isLoopbackUrl, type ProviderConfig } from './provider-config.js';

/** Pages read from one listing at most (100 repositories a page: 20,000 repositories). */
export const MAX_PAGES = 200;
/** Longest wait hub accepts on a rate limit before giving up with the reset time. */
export const MAX_RATE_WAIT_MS = 60_000;
/** Retries of one page after rate-limit answers. */
export const MAX_RATE_RETRIES = 3;
export const REQUEST_TIMEOUT_MS = 30_000;
/** Largest page body read (a GitHub page of 100 repositories is ~600 KB). */
export const MAX_PAGE_BYTES = 16 * 1024 * 1024;
/** Most repositories one listing keeps (the index file of ~50,000 fits ORG_FILE_MAX_BYTES); the rest: truncated. */
export const MAX_INDEXED_REPOS = 50_000;

export interface HttpOptions {
  /** HUB_OFFLINE=1: only loopback may be reached. */
  offline?: boolean;
  /** Waits (tests and benches may shorten it; it is never mocked away in behaviour). */
  sleep?: (ms: number) => Promise<void>;
  maxWaitMs?: number;
}

export interface PagedResult<T> {
  items: T[];
  pages: number;
  /** Rate-limit answers waited out. */
  rate_limited: number;
  truncated: boolean;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Removes the token from text that may echo it (an error body, a URL). */
export function scrub(text: string, token: string | undefined): string {
  return token ? text.split(token).join('***') : text;
}

/** The `rel="next"` URL of a Link header. */
export function nextLink(link: string | null): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = /<([^>]+)>\s*;\s*rel="?next"?/.exec(part);
    if (m) return m[1];
  }
  return undefined;
}

/** Milliseconds to wait before retrying a rate-limited answer, or undefined when it is not one. */
function rateWait(res: Response, now: number): number | undefined {
  const limited =
    res.status === 429 ||
    (res.status === 403 &&
      (res.headers.get('x-ratelimit-remaining') === '0' || res.headers.has('retry-after')));
  if (!limited) return undefined;
  const retryAfter = res.headers.get('retry-after');
  if (retryAfter && /^\d+$/.test(retryAfter)) return Number(retryAfter) * 1000;
  const reset = res.headers.get('x-ratelimit-reset') ?? res.headers.get('ratelimit-reset');
  if (reset && /^\d+$/.test(reset)) return Math.max(0, Number(reset) * 1000 - now);
  return 60_000;
}

function failure(cfg: ProviderConfig, url: URL, res: Response, body: string): HubError {
  let detail = '';
  try {
    const j = JSON.parse(body) as { message?: unknown; error?: unknown };
    detail = String(j.message ?? j.error ?? '');
  } catch {
    detail = body.slice(0, 200);
  }
  detail = scrub(detail, cfg.token).slice(0, 300);
  const where = `${cfg.provider} ${url.pathname}`;
  const details = { provider: cfg.provider, status: res.status, path: url.pathname };
  if (res.status === 401)
    return new UnauthorizedError(
      `${where}: 401 ${detail || 'unauthorized'}; ${cfg.token ? `check ${cfg.tokenVariable}` : 'set a token in the environment'}`,
      { ...details, rule: 'provider_auth' },
    );
  if (res.status === 404)
    return new NotFoundError(`${where}: 404 ${detail || 'not found'} (private namespaces need a token)`, {
      ...details,
      rule: 'provider_not_found',
    });
  return new RefusedError(`${where}: ${res.status} ${detail}`.trim(), { ...details, rule: 'provider_error' });
}

/**
 * Reads every page of a listing: follows `next` links (only on the API's own origin, so the token never goes
 * elsewhere), waits out a rate limit when its reset is near (Retry-After, X-RateLimit-Reset), and otherwise
 * fails with the time to retry.
 */
export async function fetchAllPages<T>(
  cfg: ProviderConfig,
  first: string,
  headers: Record<string, string>,
  next: (res: Response, url: URL) => string | undefined,
  opts: HttpOptions = {},
): Promise<PagedResult<T>> {
  const origin = new URL(cfg.baseUrl).origin;
  const sleep = opts.sleep ?? defaultSleep;
  const maxWait = opts.maxWaitMs ?? MAX_RATE_WAIT_MS;
  const items: T[] = [];
  let url: URL | undefined = new URL(first);
  let pages = 0;
  let limited = 0;
  let retries = 0;
  while (url && pages < MAX_PAGES) {
    if (url.origin !== origin)
      throw new RefusedError(
        `${cfg.provider}: the next page is on ${url.origin}, not the API's ${origin}; not followed (the token stays)`,
        { provider: cfg.provider, rule: 'provider_same_origin', value: url.origin },
      );
    if (opts.offline && !isLoopbackUrl(url))
      throw new RefusedError(`${cfg.provider}: HUB_OFFLINE=1 keeps hub off the network (${url.origin})`, {
        provider: cfg.provider,
        rule: 'offline',
      });
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { ...headers, 'user-agent': 'hub-workspace' },
        redirect: 'manual',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (err) {
      throw new RefusedError(
        `${cfg.provider} ${url.pathname}: ${scrub((err as Error).message, cfg.token)} (is ${origin} reachable?)`,
        { provider: cfg.provider, rule: 'provider_unreachable', path: url.pathname },
      );
    }
    const wait = rateWait(res, Date.now());
    if (wait !== undefined) {
      await res.body?.cancel();
      if (wait > maxWait || retries >= MAX_RATE_RETRIES) {
        const at = new Date(Date.now() + wait).toISOString();
        throw new RefusedError(
          `${cfg.provider}: rate limited; the limit resets at ${at} (rule provider_rate_limited)`,
          { provider: cfg.provider, rule: 'provider_rate_limited', retry_at: at, status: res.status },
        );
      }
      retries++;
      limited++;
      await sleep(wait);
      continue;
    }
    const body = await readBoundedBody(res, MAX_PAGE_BYTES);
    if (body === undefined)
      throw new RefusedError(
        `${cfg.provider} ${url.pathname}: the answer is larger than ${MAX_PAGE_BYTES} bytes; not read`,
        { provider: cfg.provider, rule: 'provider_too_large', limit: MAX_PAGE_BYTES },
      );
    if (res.status < 200 || res.status >= 300) throw failure(cfg, url, res, body);
    let page: unknown;
    try {
      page = JSON.parse(body);
    } catch {
      throw new RefusedError(`${cfg.provider} ${url.pathname}: the answer is not JSON`, {
        provider: cfg.provider,
        rule: 'provider_error',
      });
    }
    if (!Array.isArray(page))
      throw new RefusedError(`${cfg.provider} ${url.pathname}: expected a list of repositories`, {
        provider: cfg.provider,
        rule: 'provider_error',
      });
    for (const item of page as T[]) items.push(item);
    pages++;
    if (items.length >= MAX_INDEXED_REPOS) {
      const more = items.length > MAX_INDEXED_REPOS || next(res, url) !== undefined;
      items.length = MAX_INDEXED_REPOS;
      return { items, pages, rate_limited: limited, truncated: more };
    }
    retries = 0;
    const n = next(res, url);
    url = n ? new URL(n, url) : undefined;
  }
  return { items, pages, rate_limited: limited, truncated: url !== undefined };
}
