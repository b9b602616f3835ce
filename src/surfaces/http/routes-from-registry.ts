import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkJsonBounds, INPUT_BOUNDS, NotFoundError, ValidationError } from '../../infra/index.js';
import {
  type AnyOperation,
  type HttpBinding,
  invoke,
  type OpContext,
  type OptionKind,
  optionsFromSchema,
} from '../../ops/index.js';
import { createOpenStreams, SSE_DEFAULTS, type SseOptions, sseHandler } from './sse.js';

/** Builds the context of one request (shared store, cwd = the served root). */
export type ContextFactory = () => OpContext;

/** An operation bound to one route. */
export interface BoundRoute {
  op: AnyOperation;
  binding: HttpBinding;
}

export type RouteHandler = (req: FastifyRequest, reply: FastifyReply) => Promise<void>;

export const routeKey = (method: string, route: string) => `${method} ${route}`;

/** `/v3/ops/objectives/{id}` -> `/v3/ops/objectives/:id` (fastify's parameter syntax). */
export const fastifyPath = (route: string) => route.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ':$1');

/** The route family of a route (`v1`, `v2`, `v3`), or undefined for a route outside them. */
export const familyOf = (route: string) => /^\/(v\d+)\//.exec(route)?.[1];

const TRUE = new Set(['true', '1', 'yes', 'on', '']);
const FALSE = new Set(['false', '0', 'no', 'off']);

function coerceOne(kind: OptionKind, value: unknown): unknown {
  if (Array.isArray(value)) return kind === 'list' ? value : value.map((v) => coerceOne(kind, v));
  if (typeof value !== 'string') return value;
  switch (kind) {
    case 'boolean':
      if (TRUE.has(value.toLowerCase())) return true;
      if (FALSE.has(value.toLowerCase())) return false;
      return value;
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
    case 'list':
      return [value];
    case 'json':
      try {
        return JSON.parse(value);
      } catch {
        return value;
      }
    default:
      return value;
  }
}

const kindsCache = new WeakMap<AnyOperation, Map<string, OptionKind>>();

function kindsOf(op: AnyOperation): Map<string, OptionKind> {
  let kinds = kindsCache.get(op);
  if (!kinds) {
    const shape = op.input.shape as Record<string, import('zod').ZodType>;
    kinds = new Map(optionsFromSchema(shape, []).map((s) => [s.field, s.kind]));
    kindsCache.set(op, kinds);
  }
  return kinds;
}

/**
 * Query strings carry only strings: each value is coerced to the type its field has in the operation's schema
 * (`?apply=true` -> true, `?limit=5` -> 5, one `?tag=x` -> ['x']). A value that does not convert is passed on
 * as is, so the schema's own message names it. Unknown fields pass through and are refused by the schema.
 */
export function coerceQuery(op: AnyOperation, query: Record<string, unknown>): Record<string, unknown> {
  const kinds = kindsOf(op);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(query)) {
    const kind = kinds.get(k);
    out[k] = kind ? coerceOne(kind, v) : v;
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The operation's input: query or JSON body, with path parameters merged in (a disagreeing body field is an error). */
export function inputFor(
  op: AnyOperation,
  binding: HttpBinding,
  req: FastifyRequest,
): Record<string, unknown> {
  let input: Record<string, unknown> = {};
  if (binding.input === 'query') input = coerceQuery(op, (req.query ?? {}) as Record<string, unknown>);
  else if (binding.input === 'body') {
    const body = req.body;
    if (body !== undefined && body !== null && !isObject(body))
      throw new ValidationError('request body must be a JSON object', { field: 'body', rule: 'json_object' });
    input = { ...(body ?? {}) };
  }
  for (const [k, v] of Object.entries((req.params ?? {}) as Record<string, string>)) {
    if (input[k] !== undefined && input[k] !== v)
      throw new ValidationError(`${k}: the body says '${String(input[k])}' but the path says '${v}'`, {
        field: k,
        value: input[k],
        rule: 'path_parameter',
      });
    input[k] = v;
  }
  for (const [k, v] of Object.entries(binding.fixed ?? {})) {
    if (input[k] !== undefined && input[k] !== v)
      throw new ValidationError(
        `${k}: ${binding.method} ${binding.route} does not take ${k}=${String(input[k])}`,
        {
          field: k,
          value: input[k],
          rule: 'fixed_by_route',
          fixed: v,
        },
      );
    input[k] = v;
  }
  // invoke checks the bounds too; refuseNul recurses, so it must not see an unbounded body first.
  checkJsonBounds(input, INPUT_BOUNDS, op.id);
  refuseNul(input, '');
  return input;
}

/** A NUL character is never part of a path, name or note: refused here, before it can reach the filesystem. */
function refuseNul(value: unknown, field: string): void {
  if (typeof value === 'string') {
    if (value.includes('\0'))
      throw new ValidationError(`${field || 'input'}: contains a NUL character`, {
        field: field || 'input',
        rule: 'no_nul',
      });
  } else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) refuseNul(v, `${field}[${i}]`);
  } else if (typeof value === 'object' && value !== null)
    for (const [k, v] of Object.entries(value)) refuseNul(v, field ? `${field}.${k}` : k);
}

/** A fastify handler that runs one operation through the invoker and sends its result as JSON. */
export function operationHandler(route: BoundRoute, makeContext: ContextFactory): RouteHandler {
  const { op, binding } = route;
  return async (req, reply) => {
    let result: unknown;
    try {
      result = await invoke(op, makeContext(), inputFor(op, binding, req));
    } catch (err) {
      if (err instanceof NotFoundError && binding.notFoundStatus && err.httpStatus === undefined)
        throw new NotFoundError(err.message, err.details, binding.notFoundStatus);
      throw err;
    }
    // Returned: an async handler that resolves before an asynchronous onSend hook (compression of a large
    // answer) has finished would otherwise end the reply empty.
    return reply.type('application/json').send(JSON.stringify(result ?? null));
  };
}

/** Every HTTP binding of `ops` in the served route families. */
export function boundRoutes(ops: readonly AnyOperation[], families: readonly string[]): BoundRoute[] {
  return ops.flatMap((op) =>
    (op.http ?? [])
      .filter((binding) => families.includes(familyOf(binding.route) ?? ''))
      .map((binding) => ({ op, binding })),
  );
}

/** Registers a route per binding, except those another module serves (`skip`, keyed by `METHOD route`). */
export function registerOperationRoutes(
  app: FastifyInstance,
  routes: readonly BoundRoute[],
  makeContext: ContextFactory,
  skip: ReadonlySet<string>,
  sse: SseOptions = SSE_DEFAULTS,
): void {
  // Streams open on this server, across every streaming route.
  const open = createOpenStreams();
  for (const r of routes) {
    if (skip.has(routeKey(r.binding.method, r.binding.route))) continue;
    app.route({
      method: r.binding.method,
      url: fastifyPath(r.binding.route),
      handler:
        r.binding.stream === 'sse'
          ? sseHandler(r, makeContext, (req) => inputFor(r.op, r.binding, req), sse, open)
          : operationHandler(r, makeContext),
    });
  }
}
