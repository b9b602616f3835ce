import {
  type HubError,
  NotFoundError,
  RefusedError,
  readBoundedBody,
  rememberSecret,
  UnauthorizedError,
  ValidationError,
} from '../infra/index.js';
import { isLoopbackUrl, providerConfig, scrub } from '../org/index.js';
import type { BoardProviderName } from './schema.js';

/** Where a board's API is, and the token hub sends it (from the environment only, never from a file). */
export interface BoardConnection {
  provider: BoardProviderName;
  /** The endpoint requests go to: GitHub's GraphQL URL, or Azure DevOps' root (`https://dev.azure.com`). */
  endpoint: string;
  token?: string;
  /** The variable the token came from, for messages. */
  tokenVariable?: string;
  /** Variables that may hold a token, for the message when none does. */
  tokenVariables: readonly string[];
  /** HUB_OFFLINE=1: only loopback is reached. */
  offline: boolean;
}

export const BOARD_REQUEST_TIMEOUT_MS = 30_000;
/** Largest answer read from a board (a page of 100 items is far below it). */
export const BOARD_MAX_BYTES = 8 * 1024 * 1024;

/** Token variables per board, in the order they are tried. */
export const BOARD_TOKEN_VARIABLES: Record<BoardProviderName, readonly string[]> = {
  github: ['HUB_GITHUB_TOKEN', 'GITHUB_TOKEN', 'GH_TOKEN'],
  azure: ['HUB_AZURE_DEVOPS_TOKEN', 'AZURE_DEVOPS_TOKEN', 'AZURE_DEVOPS_EXT_PAT'],
};

/** The rule a board URL breaks when it is not https (plain http only to this machine) or carries credentials. */
export const BOARD_URL_RULE = 'board_api_url';

function checkUrl(variable: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ValidationError(`${variable} '${raw}' is not a URL (rule ${BOARD_URL_RULE})`, {
      field: variable,
      value: raw,
      rule: BOARD_URL_RULE,
    });
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrl(url)))
    throw new ValidationError(
      `${variable} '${raw}': boards are reached over https only (plain http only on loopback) (rule ${BOARD_URL_RULE})`,
      { field: variable, value: raw, rule: BOARD_URL_RULE },
    );
  if (url.username || url.password)
    throw new ValidationError(`${variable}: put the token in its variable, not in the URL`, {
      field: variable,
      rule: BOARD_URL_RULE,
    });
  return raw.replace(/\/+$/, '');
}

/**
 * The connection to a board, from the environment only: a workspace's hub.config.yaml names the organization and
 * project, but never where the user's token is sent. GitHub: GraphQL at HUB_GITHUB_GRAPHQL_URL, else derived
 * from HUB_GITHUB_API_URL (`https://api.github.com` -> `/graphql`; an Enterprise `.../api/v3` -> `.../api/graphql`).
 * Azure: HUB_AZURE_DEVOPS_URL, default `https://dev.azure.com`. The token is remembered as a secret, so no error
 * ever prints it.
 */
export function boardConnection(
  provider: BoardProviderName,
  env: Readonly<Record<string, string | undefined>>,
): BoardConnection {
  const tokenVariables = BOARD_TOKEN_VARIABLES[provider];
  let endpoint: string;
  if (provider === 'github') {
    const explicit = env.HUB_GITHUB_GRAPHQL_URL?.trim();
    if (explicit) endpoint = checkUrl('HUB_GITHUB_GRAPHQL_URL', explicit);
    else endpoint = `${providerConfig('github', env).baseUrl.replace(/\/v3$/, '')}/graphql`;
  } else {
    endpoint = checkUrl('HUB_AZURE_DEVOPS_URL', env.HUB_AZURE_DEVOPS_URL?.trim() || 'https://dev.azure.com');
  }
  const tokenVariable = tokenVariables.find((v) => env[v]?.trim());
  const token = tokenVariable ? env[tokenVariable]!.trim() : undefined;
  rememberSecret(token);
  return {
    provider,
    endpoint,
    ...(token ? { token, tokenVariable } : {}),
    tokenVariables,
    offline: env.HUB_OFFLINE === '1' || env.HUB_OFFLINE === 'true',
  };
}

function retryAt(res: Response): string {
  const after = res.headers.get('retry-after');
  const reset = res.headers.get('x-ratelimit-reset');
  const ms =
    after && /^\d+$/.test(after)
      ? Number(after) * 1000
      : reset && /^\d+$/.test(reset)
        ? Math.max(0, Number(reset) * 1000 - Date.now())
        : 60_000;
  return new Date(Date.now() + ms).toISOString();
}

function failure(conn: BoardConnection, url: URL, status: number, body: string): HubError {
  let detail = '';
  try {
    const j = JSON.parse(body) as { message?: unknown; error?: unknown };
    detail = String(j.message ?? j.error ?? '');
  } catch {
    detail = body.slice(0, 200);
  }
  detail = scrub(detail, conn.token).replace(/\s+/g, ' ').slice(0, 300);
  const where = `${conn.provider} ${url.pathname}`;
  const details = { provider: conn.provider, status, path: url.pathname };
  if (status === 401 || status === 203)
    return new UnauthorizedError(
      `${where}: ${status} ${detail || 'unauthorized'}; ${conn.token ? `check ${conn.tokenVariable}` : `set a token in ${conn.tokenVariables.join(' or ')}`}`.replace(
        /\s+;/,
        ';',
      ),
      { ...details, rule: 'board_auth' },
    );
  if (status === 404)
    return new NotFoundError(`${where}: 404 ${detail || 'not found'}`, {
      ...details,
      rule: 'board_not_found',
    });
  return new RefusedError(`${where}: ${status} ${detail}`.trim(), { ...details, rule: 'board_error' });
}

/**
 * One JSON request to a board: only to the connection's own origin, never following a redirect (the token stays
 * where it was meant to go), within a timeout and a size bound. A rate limit fails with the time to retry;
 * Azure's 203 (its sign-in page for a bad token) is unauthorized.
 */
export async function boardRequest(
  conn: BoardConnection,
  method: 'GET' | 'POST' | 'PATCH',
  target: string,
  opts: { body?: unknown; contentType?: string; headers?: Record<string, string> } = {},
): Promise<unknown> {
  const url = new URL(target);
  const origin = new URL(conn.endpoint).origin;
  if (url.origin !== origin)
    throw new RefusedError(`${conn.provider}: ${url.origin} is not the board's ${origin}; not sent`, {
      provider: conn.provider,
      rule: 'board_same_origin',
    });
  if (conn.offline && !isLoopbackUrl(url))
    throw new RefusedError(`${conn.provider}: HUB_OFFLINE=1 keeps hub off the network (${url.origin})`, {
      provider: conn.provider,
      rule: 'offline',
    });
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: {
        accept: 'application/json',
        'user-agent': 'hub-workspace',
        ...(opts.body === undefined ? {} : { 'content-type': opts.contentType ?? 'application/json' }),
        ...opts.headers,
      },
      ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(BOARD_REQUEST_TIMEOUT_MS),
    });
  } catch (err) {
    throw new RefusedError(
      `${conn.provider} ${url.pathname}: ${scrub((err as Error).message, conn.token)} (is ${origin} reachable?)`,
      { provider: conn.provider, rule: 'board_unreachable', path: url.pathname },
    );
  }
  if (res.status === 429 || (res.status === 403 && res.headers.get('x-ratelimit-remaining') === '0')) {
    await res.body?.cancel();
    const at = retryAt(res);
    throw new RefusedError(
      `${conn.provider}: rate limited; try again after ${at} (rule board_rate_limited)`,
      {
        provider: conn.provider,
        rule: 'board_rate_limited',
        retry_at: at,
        status: res.status,
      },
    );
  }
  const body = await readBoundedBody(res, BOARD_MAX_BYTES);
  if (body === undefined)
    throw new RefusedError(
      `${conn.provider} ${url.pathname}: the answer is larger than ${BOARD_MAX_BYTES} bytes`,
      {
        provider: conn.provider,
        rule: 'board_too_large',
        limit: BOARD_MAX_BYTES,
      },
    );
  if (res.status < 200 || res.status >= 300 || res.status === 203) throw failure(conn, url, res.status, body);
  try {
    return JSON.parse(body);
  } catch {
    throw new RefusedError(`${conn.provider} ${url.pathname}: the answer is not JSON`, {
      provider: conn.provider,
      rule: 'board_error',
    });
  }
}
