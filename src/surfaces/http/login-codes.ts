import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UnauthorizedError, ValidationError } from '../../infra/index.js';

/** The route a browser exchanges a sign-in code at (web serve with a token only). */
export const LOGIN_PATH = '/v3/ui/login';
/** How long a sign-in code can be exchanged: long enough for a browser to start. */
export const LOGIN_CODE_TTL_MS = 120_000;
/** Codes kept at once (unused and recently used); the oldest is forgotten first. */
const MAX_CODES = 64;
/** 32 random bytes, base64url: 43 characters. */
const CODE_RE = /^[A-Za-z0-9_-]{43}$/;

export type RedeemOutcome = 'ok' | 'used' | 'expired' | 'unknown';

/**
 * One-time sign-in codes: what `web serve --open` puts in the URL it hands to the desktop's opener instead of the
 * token, because a process's argv is readable by every local user (`ps`). A code opens the server once, for a
 * short time; only its hash is kept.
 */
export interface LoginCodes {
  issue(): string;
  redeem(code: string): RedeemOutcome;
}

export function createLoginCodes(opts: { ttlMs?: number; now?: () => number } = {}): LoginCodes {
  const ttl = opts.ttlMs ?? LOGIN_CODE_TTL_MS;
  const now = opts.now ?? Date.now;
  const codes = new Map<string, { expires: number; used: boolean }>();
  const hash = (code: string) => createHash('sha256').update(code, 'utf8').digest('hex');
  return {
    issue() {
      const code = randomBytes(32).toString('base64url');
      codes.set(hash(code), { expires: now() + ttl, used: false });
      while (codes.size > MAX_CODES) codes.delete(codes.keys().next().value!);
      return code;
    },
    redeem(code) {
      const entry = codes.get(hash(code));
      if (!entry) return 'unknown';
      if (entry.used) return 'used';
      if (now() > entry.expires) return 'expired';
      entry.used = true;
      return 'ok';
    },
  };
}

/** Whether a request is the sign-in exchange (served without the token: the code is its credential). */
export function isLoginRequest(req: FastifyRequest): boolean {
  return req.method === 'POST' && req.routeOptions?.url === LOGIN_PATH;
}

const REASONS: Record<Exclude<RedeemOutcome, 'ok'>, string> = {
  used: 'was already used',
  expired: 'has expired',
  unknown: 'is not one this server issued (it restarted, or the link was mistyped)',
};

/**
 * `POST /v3/ui/login` `{code}` -> `{token}`: the browser UI trades the code of its address for the token. The
 * security hook still checks Host and Origin (a page of another origin cannot trade a code), and JSON bodies only.
 * A code presented after it was used is logged: someone else may have read it from the process list first.
 */
export function registerLoginRoute(
  app: FastifyInstance,
  opts: { codes: LoginCodes; token: string; log: (line: string) => void },
): void {
  app.post(LOGIN_PATH, { bodyLimit: 1024 }, async (req, reply) => {
    const code = (req.body as { code?: unknown } | undefined)?.code;
    if (typeof code !== 'string' || !CODE_RE.test(code)) {
      throw new ValidationError('code: a sign-in code is 43 characters of A-Z, a-z, 0-9, - and _', {
        field: 'code',
        rule: 'login_code_format',
      });
    }
    const outcome = opts.codes.redeem(code);
    if (outcome !== 'ok') {
      if (outcome === 'used') {
        opts.log(
          'hub web serve: a sign-in code from --open was presented again after it was used; if the browser you ' +
            'opened did not sign in, another local process may have read the code from the process list: restart ' +
            'the server with a new HUB_SERVER_TOKEN',
        );
      }
      throw new UnauthorizedError(
        `this sign-in link ${REASONS[outcome]}: paste the server token, or run hub web serve --open again`,
        { rule: 'login_code', reason: outcome },
      );
    }
    return reply.header('cache-control', 'no-store').type('application/json').send({ token: opts.token });
  });
}
