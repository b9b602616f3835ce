import { resolve } from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import {
  errorMapping,
  HubError,
  NotFoundError,
  RefusedError,
  scrubSecrets,
  toHubError,
  ValidationError,
} from '../../infra/index.js';
import { definitionAt } from '../../model/index.js';
import { type AnyOperation, createContext, loadOperations, workspaceMemo } from '../../ops/index.js';
import type { DocumentStore } from '../../state/index.js';
import { registerCompression } from './compression.js';
import { documentRouteKeys, registerDocumentRoutes } from './document-routes.js';
import {
  answerClientError,
  HTTP_TIMEOUTS,
  type HttpTimeouts,
  MAX_CONNECTIONS,
  MAX_HEADER_BYTES,
} from './limits.js';
import { createLoginCodes, isLoginRequest, registerLoginRoute } from './login-codes.js';
import { buildOpenApi } from './openapi.js';
import {
  boundRoutes,
  type ContextFactory,
  operationHandler,
  registerOperationRoutes,
  routeKey,
} from './routes-from-registry.js';
import { isLoopbackHost, isPublicBind, isUiFileRequest, securityHook } from './security.js';
import { SSE_DEFAULTS, type SseOptions } from './sse.js';
import { locateUiDir, registerStaticUi } from './static-ui.js';

/** `web`: /v2, /v3 and the browser UI (`hub web serve`); `api`: /v1 and /v2 (`hub api serve`). */
export type ServeMode = 'web' | 'api';

export const ROUTE_FAMILIES: Record<ServeMode, readonly string[]> = { web: ['v2', 'v3'], api: ['v1', 'v2'] };
export const OPENAPI_PATH: Record<ServeMode, string> = { web: '/v3/openapi.json', api: '/v1/openapi.json' };

/** Default body limit of operation routes (1 MiB) and of whole-document and append routes (8 MiB). */
export const BODY_LIMIT = 1024 * 1024;
export const DOCUMENT_BODY_LIMIT = 8 * 1024 * 1024;

type Env = Readonly<Record<string, string | undefined>>;

export interface HubServerOptions {
  mode: ServeMode;
  /** The definition directory (or the manifest file itself); default the working directory. */
  root?: string;
  /** hub.config.yaml to use instead of the lookup chain. */
  appconfig?: string;
  env?: Env;
  /** Working directory `root` is relative to. */
  cwd?: string;
  /** The bind address: a non-loopback one needs a server token, and an explicit one is an allowed Host. */
  host?: string;
  operations?: readonly AnyOperation[];
  /** Store shared by every request; default the one the application config names (opened once). */
  store?: DocumentStore;
  /** Folder of the built UI; `null` serves the placeholder page; default dist/web when built. */
  uiDir?: string | null;
  bodyLimit?: number;
  documentBodyLimit?: number;
  /** Client timeouts (default HTTP_TIMEOUTS); tests pass small ones. */
  timeouts?: Partial<HttpTimeouts>;
  /** Most connections open at once (default MAX_CONNECTIONS). */
  maxConnections?: number;
  /** Diagnostics (stderr in the CLI). */
  log?: (line: string) => void;
  /** Server-Sent Events heartbeat and open-stream bound (default SSE_DEFAULTS); tests pass small ones. */
  sse?: Partial<SseOptions>;
}

export interface HubServer {
  app: FastifyInstance;
  mode: ServeMode;
  store: DocumentStore;
  /** Directory served (the manifest's directory). */
  root: string;
  definition: string;
  tokenRequired: boolean;
  /**
   * The address to print for a person to open: `url` with `#token=<token>` when the server has a token. A fragment
   * is never sent to a server; the UI moves it to sessionStorage and strips it from the address bar.
   */
  browserUrl(url: string): string;
  /**
   * The address to hand to another program (`--open`): `url` with `#login=<one-time code>` when the server has a
   * token (web mode), which the UI trades for the token once; argv is readable by every local user, the code is
   * useless once used or after LOGIN_CODE_TTL_MS.
   */
  signInUrl(url: string): string;
  openapi: Record<string, unknown>;
  close(): Promise<void>;
}

/** `--root`: a directory (its `.hub.yml` is the manifest) or the manifest file. */
function servedRoot(root: string, cwd: string): { dir: string; definition: string } {
  const found = definitionAt(root, cwd);
  if (!found) {
    throw new ValidationError(`root: '${root}' does not exist`, {
      field: 'root',
      value: resolve(cwd, root),
      rule: 'exists',
    });
  }
  return { dir: found.dir, definition: found.manifest };
}

/** Fastify's own errors (bad JSON, body too large, unsupported media type) in hub's taxonomy. */
function hubErrorOf(err: unknown, bodyLimit: number): HubError {
  if (err instanceof HubError) return err;
  const f = err as Partial<FastifyError>;
  const status = typeof f.statusCode === 'number' ? f.statusCode : undefined;
  if (status === undefined || status >= 500) return toHubError(err);
  const details = { rule: f.code ?? 'request' };
  if (status === 413)
    return new HubError(
      'validation',
      `request body is larger than the limit (${bodyLimit} bytes here)`,
      {
        ...details,
        rule: 'body_limit',
      },
      413,
    );
  if (status === 415)
    return new HubError(
      'validation',
      'request bodies must be JSON: send Content-Type: application/json',
      {
        header: 'Content-Type',
        rule: 'json_only',
      },
      415,
    );
  if (status === 404) return new NotFoundError(f.message ?? 'not found', details);
  return new HubError('validation', `request: ${f.message ?? 'bad request'}`, details, status);
}

/** The shortest server token accepted for a bind beyond loopback: 32 characters (`openssl rand -hex 32` gives 64). */
export const MIN_PUBLIC_TOKEN_LENGTH = 32;

/**
 * A bind beyond loopback needs a token, and one long enough that guessing it over the network is hopeless. The
 * refusal names where the token came from and its length, never its value.
 */
function refuseUnguardedBind(
  host: string,
  token: string | undefined,
  source: { fromEnv: boolean; file?: string },
): void {
  if (!isPublicBind(host)) return;
  const make = 'make one with `openssl rand -hex 32`';
  if (!token) {
    throw new RefusedError(
      `refusing to listen on ${host} without a server token: anyone who can reach it could call every route; set HUB_SERVER_TOKEN (or server.token in your user config or --appconfig file; ${make}), or bind 127.0.0.1`,
      { host, rule: 'token_for_public_bind', variable: 'HUB_SERVER_TOKEN' },
    );
  }
  if (token.length >= MIN_PUBLIC_TOKEN_LENGTH) return;
  const where = source.fromEnv
    ? { variable: 'HUB_SERVER_TOKEN' }
    : { variable: 'HUB_SERVER_TOKEN', key: 'server.token', ...(source.file ? { file: source.file } : {}) };
  const named = source.fromEnv
    ? 'HUB_SERVER_TOKEN'
    : `server.token${source.file ? ` in ${source.file}` : ''}`;
  throw new RefusedError(
    `refusing to listen on ${host} with a ${token.length}-character server token (${named}): a token that guards a bind beyond loopback must have at least ${MIN_PUBLIC_TOKEN_LENGTH} characters; ${make}, or bind 127.0.0.1`,
    {
      host,
      rule: 'token_min_length',
      min_length: MIN_PUBLIC_TOKEN_LENGTH,
      length: token.length,
      ...where,
    },
  );
}

/**
 * Builds the HTTP server of hub (not yet listening): routes from the registry's HTTP bindings for the mode's
 * route families, the whole-document state routes, the OpenAPI document, the UI (web mode), and the security
 * hook. Throws before building anything when a non-loopback bind has no server token, or the config is invalid.
 */
export async function createHubServer(opts: HubServerOptions): Promise<HubServer> {
  const env = opts.env ?? {};
  const log = opts.log ?? (() => {});
  const debug = env.HUB_DEBUG === '1';
  const { dir, definition } = servedRoot(opts.root ?? '.', opts.cwd ?? process.cwd());
  const init = { cwd: dir, env, definition, appconfig: opts.appconfig, log };
  const base = createContext(init);
  const loaded = base.appConfig();
  const config = loaded.config;
  const token = config.server.token || undefined;
  const host = opts.host ?? '127.0.0.1';
  refuseUnguardedBind(host, token, {
    fromEnv: loaded.overrides.includes('HUB_SERVER_TOKEN'),
    file: loaded.trustedKeysFrom ?? loaded.path,
  });
  const explicitHost = host !== '0.0.0.0' && host !== '::' && !isLoopbackHost(host) ? [host] : [];
  const ownStore = opts.store === undefined;
  const store = opts.store ?? base.store().store;
  // A context per request, sharing the loaded workspace while the manifest file is unchanged.
  const makeContext: ContextFactory = workspaceMemo(
    () => createContext({ ...init, store, surface: 'http' }),
    definition,
  );
  const bodyLimit = opts.bodyLimit ?? BODY_LIMIT;
  const documentBodyLimit = opts.documentBodyLimit ?? DOCUMENT_BODY_LIMIT;

  const t = { ...HTTP_TIMEOUTS, ...opts.timeouts };
  const app = Fastify({
    logger: false,
    bodyLimit,
    forceCloseConnections: true,
    return503OnClosing: true,
    requestTimeout: t.requestMs,
    connectionTimeout: t.idleMs,
    keepAliveTimeout: t.keepAliveMs,
    http: {
      headersTimeout: t.headersMs,
      requestTimeout: t.requestMs,
      connectionsCheckingInterval: t.checkIntervalMs,
      maxHeaderSize: MAX_HEADER_BYTES,
    },
    clientErrorHandler: answerClientError,
    // A URL the router cannot decode (bad percent-encoding, an over-long parameter) in the documented error body.
    frameworkErrors: (err, req, reply: FastifyReply) => {
      const m = errorMapping(
        err.code === 'FST_ERR_BAD_URL'
          ? new ValidationError(`URL path is not valid percent-encoded UTF-8: ${req.url.split('?')[0]}`, {
              field: 'url',
              rule: 'url_encoding',
            })
          : hubErrorOf(err, bodyLimit),
      );
      reply.code(m.http).type('application/json').send(JSON.stringify(m.body));
    },
  });
  app.server.maxConnections = opts.maxConnections ?? MAX_CONNECTIONS;
  // JSON is the only body format: a form or text body (what a cross-site form can send) is 415.
  app.removeContentTypeParser(['text/plain']);
  app.setErrorHandler((err, req, reply) => {
    const limit = req.routeOptions?.bodyLimit ?? bodyLimit;
    const m = errorMapping(hubErrorOf(err, limit));
    if (m.http >= 500) {
      log(`hub http: ${req.method} ${req.url}: ${m.body.error.message}`);
      if (debug && err instanceof Error && err.stack) log(scrubSecrets(err.stack));
    }
    reply.code(m.http).type('application/json').send(JSON.stringify(m.body));
  });
  // Before any route: the plugin's hooks apply to the routes registered after it.
  await registerCompression(app);
  // Sign-in codes for `--open`: only where there is a UI to sign in to and a token to hand over.
  const loginCodes = opts.mode === 'web' && token !== undefined ? createLoginCodes() : undefined;
  app.addHook(
    'onRequest',
    securityHook({
      token,
      allowedHosts: [...config.server.allowed_hosts, ...explicitHost],
      // The UI's files (web mode) load without the token, and so does the sign-in exchange, whose code is its
      // credential; every other /v2 and /v3 call still needs it (docs/http.md).
      publicRequest:
        opts.mode === 'web'
          ? (req) => isUiFileRequest(req) || (loginCodes !== undefined && isLoginRequest(req))
          : undefined,
    }),
  );
  if (loginCodes) registerLoginRoute(app, { codes: loginCodes, token: token!, log });

  const families = ROUTE_FAMILIES[opts.mode];
  const routes = boundRoutes(opts.operations ?? (await loadOperations()), families);
  const documents = families.includes('v3');
  const skip = documents ? documentRouteKeys() : new Set<string>();
  registerOperationRoutes(app, routes, makeContext, skip, { ...SSE_DEFAULTS, ...opts.sse });
  if (documents) {
    registerDocumentRoutes(app, {
      store,
      bodyLimit: documentBodyLimit,
      fallback: (key) => {
        const r = routes.find((x) => routeKey(x.binding.method, x.binding.route) === key);
        return r ? operationHandler(r, makeContext) : undefined;
      },
    });
  }
  const openapi = buildOpenApi(routes, {
    title: opts.mode === 'web' ? 'hub web serve' : 'hub api serve',
    documents,
    bearer: token !== undefined,
  });
  const openapiText = JSON.stringify(openapi);
  app.get(OPENAPI_PATH[opts.mode], async (_req, reply) => {
    return reply.type('application/json').send(openapiText);
  });

  let uiFallback:
    | ((req: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => boolean)
    | undefined;
  if (opts.mode === 'web') {
    const uiDir = opts.uiDir === undefined ? locateUiDir() : (opts.uiDir ?? undefined);
    uiFallback = await registerStaticUi(app, uiDir);
  }
  app.setNotFoundHandler((req, reply) => {
    if (uiFallback?.(req, reply)) return;
    const path = req.url.split('?')[0] ?? req.url;
    const m = errorMapping(new NotFoundError(`no route ${req.method} ${path}`, { method: req.method, path }));
    reply.code(404).type('application/json').send(JSON.stringify(m.body));
  });
  await app.ready();

  return {
    app,
    mode: opts.mode,
    store,
    root: dir,
    definition,
    tokenRequired: token !== undefined,
    browserUrl: (url) => (token === undefined ? url : `${url}#token=${encodeURIComponent(token)}`),
    signInUrl: (url) => (loginCodes === undefined ? url : `${url}#login=${loginCodes.issue()}`),
    openapi,
    async close() {
      await app.close();
      if (ownStore) await store.close?.();
    },
  };
}
