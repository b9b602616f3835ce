import * as z from 'zod';
import {
  COLLECTION_NAME_RE,
  DOCUMENT_NAME_RE,
  HUB_VERSION,
  SHARED_DOCUMENTS,
  STATE_ROUTE,
} from '../../ops/index.js';
import type { BoundRoute } from './routes-from-registry.js';

type Json = Record<string, unknown>;

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ERROR_REF } },
});

/** A field's JSON Schema (input side), without the `$schema` key that OpenAPI 3.1 takes from its dialect. */
function schemaOf(schema: z.ZodType): Json {
  const { $schema: _s, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    target: 'draft-2020-12',
  }) as Json;
  return rest;
}

const pathParams = (route: string) => [...route.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]!);

function operationObject(r: BoundRoute, operationId: string): Json {
  const { op, binding } = r;
  const shape = op.input.shape as Record<string, z.ZodType>;
  const inPath = pathParams(binding.route);
  const fixed = Object.keys(binding.fixed ?? {});
  const parameters: Json[] = inPath.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: shape[name] ? schemaOf(shape[name]) : { type: 'string' },
  }));
  const out: Json = {
    operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.id.split('.')[0]],
    'x-hub-operation': op.id,
    'x-hub-attributes': op.attributes,
  };
  if (binding.input === 'query') {
    const whole = schemaOf(op.input);
    const required = new Set((whole.required as string[] | undefined) ?? []);
    for (const [name, field] of Object.entries(shape)) {
      if (inPath.includes(name) || fixed.includes(name)) continue;
      const s = schemaOf(field);
      parameters.push({
        name,
        in: 'query',
        required: required.has(name),
        ...(typeof s.description === 'string' ? { description: s.description } : {}),
        schema: s,
      });
    }
  } else if (binding.input === 'body') {
    const body = schemaOf(op.input);
    const props = { ...((body.properties as Json | undefined) ?? {}) };
    for (const p of [...inPath, ...fixed]) delete props[p];
    const required = ((body.required as string[] | undefined) ?? []).filter(
      (x) => !inPath.includes(x) && !fixed.includes(x),
    );
    out.requestBody = {
      required: required.length > 0,
      content: {
        'application/json': {
          schema: { ...body, properties: props, required: required.length ? required : undefined },
        },
      },
    };
  }
  if (binding.stream === 'sse') {
    parameters.push({
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      description:
        "The id of the last event received (what EventSource sends on reconnect): same as 'after'.",
      schema: { type: 'string' },
    });
  }
  if (parameters.length) out.parameters = parameters;
  out.responses = {
    '200':
      binding.stream === 'sse'
        ? {
            description:
              'Server-Sent Events until the client goes away: each message has `id:` (the cursor, to resume ' +
              'with Last-Event-ID) and `data:` (one JSON item); `: heartbeat` comments when idle; 503 when too ' +
              'many streams are open.',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          }
        : { description: 'The operation result.', content: { 'application/json': { schema: {} } } },
    default: errorResponse('Error: `{"error": {"code", "message", "details"}}` with the mapped status.'),
  };
  return JSON.parse(JSON.stringify(out)) as Json;
}

const ETAG_HEADER = {
  ETag: {
    description: 'SHA-256 hex of the canonical JSON document, in double quotes.',
    schema: { type: 'string' },
  },
};

function documentOperations(paths: Record<string, Json>): void {
  const ifMatch = {
    name: 'If-Match',
    in: 'header',
    required: true,
    description: 'ETag of the document as read, or "" when the document is empty.',
    schema: { type: 'string' },
  };
  const put = (name: string, operationId: string) => ({
    operationId,
    summary: `Replace the ${name} document (compare-and-swap on If-Match).`,
    tags: ['state'],
    parameters: [ifMatch],
    requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
    responses: {
      '200': {
        description: 'Replaced; the new ETag.',
        headers: ETAG_HEADER,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { ok: { type: 'boolean' }, document: { type: 'string' }, etag: { type: 'string' } },
            },
          },
        },
      },
      '412': errorResponse('If-Match is stale: read again and reapply.'),
      '428': errorResponse('If-Match is missing.'),
      default: errorResponse('Error.'),
    },
  });
  for (const d of SHARED_DOCUMENTS) {
    paths[d.path] ??= {};
    const item = paths[d.path]!;
    const get = item.get as Json | undefined;
    const whole = Object.keys(d.wholeQuery).length
      ? `With ${new URLSearchParams(d.wholeQuery).toString()}`
      : 'Without a query';
    if (get) {
      get.description = `${whole} this serves the whole stored \`${d.name}\` document with its ETag (absent for an empty document); any other query runs the operation (no ETag).`;
      (get.responses as Json)['200'] = {
        description: 'The document or the operation result.',
        headers: ETAG_HEADER,
        content: { 'application/json': { schema: {} } },
      };
    }
    item.put = put(d.name, `state.${d.name}.replace`);
  }
  const name = {
    name: 'name',
    in: 'path',
    required: true,
    description: 'A document name, or `<collection>/<key>` (send the slash as %2F).',
    schema: { type: 'string', pattern: DOCUMENT_NAME_RE.source },
  };
  paths[STATE_ROUTE] = {
    get: {
      operationId: 'state.collection.list',
      summary: 'Names of the documents of one collection (`claims/<project>~<repo>`, ...), sorted.',
      tags: ['state'],
      parameters: [
        {
          name: 'collection',
          in: 'query',
          required: true,
          schema: { type: 'string', pattern: COLLECTION_NAME_RE.source },
        },
      ],
      responses: {
        '200': {
          description: 'The document names.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { documents: { type: 'array', items: { type: 'string' } } },
                required: ['documents'],
              },
            },
          },
        },
        default: errorResponse('Error.'),
      },
    },
  };
  paths[`${STATE_ROUTE}/{name}`] = {
    get: {
      operationId: 'state.document.read',
      summary: 'Read one state document with its ETag (none when empty; body null).',
      tags: ['state'],
      parameters: [name],
      responses: {
        '200': {
          description: 'The document.',
          headers: ETAG_HEADER,
          content: { 'application/json': { schema: {} } },
        },
        default: errorResponse('Error.'),
      },
    },
    put: { ...put('named', 'state.document.replace'), parameters: [name, ifMatch] },
  };
  paths[`${STATE_ROUTE}/{name}/{key}`] = {
    get: {
      operationId: 'state.events.log',
      summary:
        'Read the events log by sequence (coord.events/events only): {events, first_seq, last_seq}. Only reads.',
      tags: ['state'],
      parameters: [
        name,
        { name: 'key', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'after', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
        {
          name: 'limit',
          in: 'query',
          required: false,
          schema: { type: 'integer', minimum: 1, maximum: 5000 },
        },
      ],
      responses: {
        '200': { description: 'Events after `after`, oldest first, at most `limit`.' },
        default: errorResponse('Error.'),
      },
    },
    post: {
      operationId: 'state.document.append',
      summary: 'Append the body to the list under key, without compare-and-swap.',
      tags: ['state'],
      parameters: [name, { name: 'key', in: 'path', required: true, schema: { type: 'string' } }],
      requestBody: { required: true, content: { 'application/json': { schema: {} } } },
      responses: {
        '200': {
          description: 'Appended; the new ETag (an event of coord.events/events: its seq and id in the log).',
          headers: ETAG_HEADER,
        },
        '409': errorResponse('The key holds something other than a list.'),
        default: errorResponse('Error.'),
      },
    },
  };
}

/** The OpenAPI 3.1 document of the routes a server serves, generated from the registry's HTTP bindings. */
export function buildOpenApi(
  routes: readonly BoundRoute[],
  opts: { title: string; documents: boolean; bearer: boolean },
): Json {
  const paths: Record<string, Json> = {};
  const seen = new Map<string, number>();
  for (const r of routes) {
    const n = seen.get(r.op.id) ?? 0;
    seen.set(r.op.id, n + 1);
    paths[r.binding.route] ??= {};
    paths[r.binding.route]![r.binding.method.toLowerCase()] = operationObject(
      r,
      n === 0 ? r.op.id : `${r.op.id}.${n + 1}`,
    );
  }
  if (opts.documents) documentOperations(paths);
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  return {
    openapi: '3.1.0',
    info: { title: opts.title, version: HUB_VERSION },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    paths: sorted,
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: {
                  type: 'string',
                  enum: [
                    'validation',
                    'not_found',
                    'ambiguous',
                    'conflict',
                    'precondition_required',
                    'refused',
                    'unauthorized',
                    'internal',
                  ],
                },
                message: { type: 'string' },
                details: { type: 'object' },
              },
            },
          },
        },
      },
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
    },
    ...(opts.bearer ? { security: [{ bearerAuth: [] }] } : {}),
  };
}
