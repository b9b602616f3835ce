// The one HTTP client of the UI: same origin, JSON, the bearer token from sessionStorage, and hub's error body
// `{error:{code,message,details}}` turned into an ApiError every page can show.
import { readToken } from './token';

export interface HubErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** A failed call: `status` 0 means the server could not be reached (network error). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  constructor(status: number, body: HubErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code;
    this.details = body.details ?? {};
  }
  /** Network errors, 429 (too many at once, e.g. event streams) and 5xx are worth retrying; other 4xx are not. */
  get retryable(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

export type QueryValue = string | number | boolean | undefined | null;
export type Query = Record<string, QueryValue | readonly QueryValue[]>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** `/v2/workspace/repos` + `{limit: 10}` -> `/v2/workspace/repos?limit=10` (undefined and null left out). */
export function apiUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    const values = Array.isArray(v) ? v : [v];
    for (const x of values) if (x !== undefined && x !== null) params.append(k, String(x));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** Headers every call carries: JSON, and the bearer token when one is stored. */
export function authHeaders(extra?: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  const token = readToken();
  if (token) headers.authorization = `Bearer ${token}`;
  return headers;
}

async function errorOf(res: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const e = (body as { error?: Partial<HubErrorBody> } | undefined)?.error;
  if (e && typeof e.code === 'string' && typeof e.message === 'string') {
    return new ApiError(res.status, { code: e.code, message: e.message, details: e.details ?? {} });
  }
  return new ApiError(res.status, {
    code: res.status >= 500 ? 'internal' : 'http',
    message: `${res.status} ${res.statusText || 'error'}`,
  });
}

/** Calls a hub route and returns its JSON body; throws ApiError on any failure. */
export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const headers = authHeaders(opts.headers);
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(apiUrl(path, opts.query), {
      method: opts.method ?? 'GET',
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
      credentials: 'same-origin',
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, { code: 'network', message: `hub is not reachable: ${(err as Error).message}` });
  }
  if (!res.ok) throw await errorOf(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}
