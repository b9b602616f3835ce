/** The one error taxonomy of hub. Every surface maps these through `errorMapping`, nowhere else. */
import { scrubSecrets, scrubSecretsDeep } from './known-secrets.js';

export type ErrorCode =
  | 'validation'
  | 'not_found'
  | 'ambiguous'
  | 'conflict'
  | 'precondition_required'
  | 'refused'
  | 'unauthorized'
  | 'internal';

export type ErrorDetails = Record<string, unknown>;

/** Base of every error a user may see; `details` is JSON-safe and printed as-is. */
export class HubError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetails | undefined;
  /** HTTP status override where the spec names a different one (for example 400 for a not-found). */
  readonly httpStatus: number | undefined;
  constructor(code: ErrorCode, message: string, details?: ErrorDetails, httpStatus?: number) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
    this.httpStatus = httpStatus;
  }
}

export class ValidationError extends HubError {
  constructor(message: string, details?: ErrorDetails) {
    super('validation', message, details);
  }
}

export class NotFoundError extends HubError {
  constructor(message: string, details?: ErrorDetails, httpStatus?: number) {
    super('not_found', message, details, httpStatus);
  }
}

export class AmbiguousError extends HubError {
  constructor(message: string, details?: ErrorDetails) {
    super('ambiguous', message, details);
  }
}

export class StateConflictError extends HubError {
  constructor(message: string, details?: ErrorDetails) {
    super('conflict', message, details);
  }
}

export class PreconditionRequiredError extends HubError {
  constructor(message: string, details?: ErrorDetails) {
    super('precondition_required', message, details);
  }
}

/** A request understood but not allowed; 403 by default, 409 when it clashes with existing state. */
export class RefusedError extends HubError {
  constructor(message: string, details?: ErrorDetails, httpStatus: 403 | 409 = 403) {
    super('refused', message, details, httpStatus);
  }
}

export class UnauthorizedError extends HubError {
  constructor(message: string, details?: ErrorDetails) {
    super('unauthorized', message, details);
  }
}

/** Bad command-line usage (unknown flag, missing argument): exit code 2 on the CLI. */
export class UsageError extends HubError {
  constructor(message: string, details?: ErrorDetails) {
    super('validation', message, details);
  }
}

interface Mapping {
  http: number;
  jsonRpc: number;
  exit: number;
}

const MAPPING: Record<ErrorCode, Mapping> = {
  validation: { http: 400, jsonRpc: -32602, exit: 1 },
  not_found: { http: 404, jsonRpc: -32602, exit: 1 },
  ambiguous: { http: 400, jsonRpc: -32602, exit: 1 },
  conflict: { http: 412, jsonRpc: -32000, exit: 1 },
  precondition_required: { http: 428, jsonRpc: -32602, exit: 1 },
  refused: { http: 403, jsonRpc: -32000, exit: 1 },
  unauthorized: { http: 401, jsonRpc: -32000, exit: 1 },
  internal: { http: 500, jsonRpc: -32603, exit: 1 },
};

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetails };
}

/** Wraps anything thrown into a HubError; unknown errors become `internal` without leaking a stack. */
export function toHubError(err: unknown): HubError {
  if (err instanceof HubError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const wrapped = new HubError('internal', message || 'internal error');
  if (err instanceof Error && err.stack) wrapped.stack = err.stack;
  return wrapped;
}

/**
 * The single mapping from an error to every surface's representation. Message and details are scrubbed of every
 * secret this process knows (known-secrets), whatever put it there: a remote server's echo, a quoted URL.
 */
export function errorMapping(err: unknown): { body: ErrorBody; http: number; jsonRpc: number; exit: number } {
  const e = toHubError(err);
  const m = MAPPING[e.code];
  const body: ErrorBody = { error: { code: e.code, message: scrubSecrets(e.message) } };
  if (e.details !== undefined) body.error.details = scrubSecretsDeep(e.details);
  const exit = e instanceof UsageError ? 2 : m.exit;
  return { body, http: e.httpStatus ?? m.http, jsonRpc: m.jsonRpc, exit };
}
