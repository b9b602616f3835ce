// The OpenAPI 3.1 documents of both servers: generated from the registry, every HTTP binding present, every
// embedded schema a valid JSON Schema 2020-12 (checked by Ajv, which fastify already brings).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOperations } from '../src/ops/index.js';
import { buildWorkspace, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';

const OPERATIONS = await loadOperations();

// biome-ignore lint/suspicious/noExplicitAny: walking a JSON document.
type Json = Record<string, any>;

let root: string;
let web: RunningServer;
let api: RunningServer;
let webDoc: Json;
let apiDoc: Json;

beforeAll(async () => {
  root = buildWorkspace({
    projects: [{ name: 'p', repos: [{ name: 'r', files: { 'a.txt': 'a\n' } }] }],
  }).root;
  web = await startTestServer({ root });
  api = await startTestServer({ root, mode: 'api' });
  webDoc = (await call(web.base, 'GET', '/v3/openapi.json')).json;
  apiDoc = (await call(api.base, 'GET', '/v1/openapi.json')).json;
});
afterAll(async () => {
  await web?.close();
  await api?.close();
  removeTempDir(root);
});

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

function operations(doc: Json): Array<{ path: string; method: string; op: Json }> {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
  );
}

/** Every value under a `schema` key (parameters, bodies, responses) plus the component schemas. */
function schemas(doc: Json): Json[] {
  const out: Json[] = Object.values(doc.components.schemas);
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'schema' && x && typeof x === 'object') out.push(x as Json);
        else walk(x);
      }
    }
  };
  walk(doc.paths);
  return out;
}

describe.each([
  ['web serve', () => webDoc, ['v2', 'v3']],
  ['api serve', () => apiDoc, ['v1', 'v2']],
] as const)('OpenAPI of %s', (_name, doc, families) => {
  it('is an OpenAPI 3.1 document with info, paths and the error schema', () => {
    expect(doc().openapi).toBe('3.1.0');
    expect(doc().info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc().components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
    expect(doc().components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
  });

  it('has every HTTP binding of its route families, and no other family', () => {
    for (const op of OPERATIONS) {
      for (const b of op.http ?? []) {
        const family = b.route.split('/')[1]!;
        const item = doc().paths[b.route];
        if ((families as readonly string[]).includes(family)) {
          expect(item?.[b.method.toLowerCase()], `${b.method} ${b.route}`).toBeDefined();
          expect(item[b.method.toLowerCase()]['x-hub-operation']).toBe(op.id);
        } else expect(item, `${b.method} ${b.route}`).toBeUndefined();
      }
    }
    for (const p of Object.keys(doc().paths))
      expect(
        families.some((f) => p.startsWith(`/${f}/`)),
        p,
      ).toBe(true);
  });

  it('gives each operation a unique operationId, responses, and its path parameters', () => {
    const ops = operations(doc());
    expect(ops.length).toBeGreaterThan(5);
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of ops) {
      expect(op.responses?.default ?? op.responses?.['200'], `${method} ${path}`).toBeDefined();
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (op.parameters ?? []).filter((p: Json) => p.in === 'path').map((p: Json) => p.name);
      expect(declared.sort(), `${method} ${path}`).toEqual(inPath.sort());
      for (const p of op.parameters ?? []) expect(['path', 'query', 'header']).toContain(p.in);
    }
  });

  it('embeds only schemas that compile as JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    for (const s of schemas(doc())) {
      if (s.$ref) continue;
      expect(() => ajv.compile(s), JSON.stringify(s).slice(0, 200)).not.toThrow();
    }
  });
});

describe('OpenAPI specifics', () => {
  it('describes query parameters from the input schema, with required ones marked', () => {
    const graph = webDoc.paths['/v3/ops/components/graph'].get;
    const byName = Object.fromEntries(graph.parameters.map((p: Json) => [p.name, p]));
    expect(byName.component).toMatchObject({ in: 'query', required: true });
    expect(byName.direction.schema.enum).toEqual(['out', 'in', 'both']);
    expect(byName.depth.required).toBe(false);
    // GET detect never writes: its fixed `apply` is not offered.
    expect(webDoc.paths['/v3/ops/components/detect'].get.parameters.map((p: Json) => p.name)).not.toContain(
      'apply',
    );
  });

  it('describes bodies, with path parameters taken out of them', () => {
    const patch = webDoc.paths['/v3/ops/objectives/{id}'].patch;
    const body = patch.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toContain('title');
    expect(Object.keys(body.properties)).not.toContain('id');
    expect(patch.parameters).toContainEqual(
      expect.objectContaining({ name: 'id', in: 'path', required: true }),
    );
  });

  it('has the whole-document PUT routes with a required If-Match, and the state routes', () => {
    for (const p of ['/v3/ops/objectives', '/v3/ops/approvals', '/v3/ops/handoffs', '/v3/ops/state/{name}']) {
      const put = webDoc.paths[p].put;
      expect(put, p).toBeDefined();
      expect(put.parameters).toContainEqual(
        expect.objectContaining({ name: 'If-Match', in: 'header', required: true }),
      );
      expect(Object.keys(put.responses)).toEqual(expect.arrayContaining(['200', '412', '428']));
    }
    expect(webDoc.paths['/v3/ops/objectives'].get.responses['200'].headers.ETag).toBeDefined();
    expect(webDoc.paths['/v3/ops/state/{name}/{key}'].post).toBeDefined();
    expect(apiDoc.paths['/v3/ops/objectives']).toBeUndefined();
  });

  it('asks for the bearer token when the server has one', async () => {
    expect(webDoc.security).toBeUndefined();
    const tok = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', HUB_SERVER_TOKEN: 'abcdef' } });
    try {
      const doc = (
        await call(tok.base, 'GET', '/v3/openapi.json', { headers: { authorization: 'Bearer abcdef' } })
      ).json;
      expect(doc.security).toEqual([{ bearerAuth: [] }]);
    } finally {
      await tok.close();
    }
  });
});
