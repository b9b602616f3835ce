import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, makeGitRepo, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';

/** atlas query on every surface, the atlas on a repository card and in a compiled component pack. */
let dir: string;
let root: string;
let identity: string;
let server: RunningServer;
let mcp: Client;

const CONCEPTS = `apiVersion: atlas.hub.dev/v1alpha1
entities:
  - apiVersion: atlas.hub.dev/v1alpha1
    kind: Concept
    metadata: { id: concept:sign_in, name: Sign-in, provenance: { source: curated } }
  - apiVersion: atlas.hub.dev/v1alpha1
    kind: Concept
    metadata: { id: concept:keys, name: Signing keys, classification: restricted, provenance: { source: curated } }
`;
const MAPPINGS = `apiVersion: atlas.hub.dev/v1alpha1
mappings:
  - { from: concept:sign_in, relation: implements, to: symbol:services.api.plugins.auth.oauth.go.Provider }
  - { from: concept:keys, relation: maps_to, to: symbol:packages.sdk.src.index.ts.whoami }
`;

beforeAll(async () => {
  dir = createTempDir('hub-atlas-surfaces-');
  root = createDemo(join(dir, 'demo')).root;
  identity = join(root, 'platform/identity');
  const init = runHub(['atlas', 'init', '--path', 'platform/identity', '--json'], { cwd: root });
  expect(init.code, init.stderr).toBe(0);
  writeFileSync(join(identity, '.atlas/ontology/concepts.yaml'), CONCEPTS);
  writeFileSync(join(identity, '.atlas/mappings/semantic-to-evidence.yaml'), MAPPINGS);
  const gen = runHub(['atlas', 'generate', '--json'], { cwd: identity });
  expect(gen.code, gen.stderr).toBe(0);
  const env = { ...process.env, HUB_CACHE_DIR: 'off' } as Record<string, string>;
  server = await startTestServer({ root, env });
  mcp = await connectHub(root);
});

afterAll(async () => {
  await mcp?.close();
  await server?.close();
  removeTempDir(dir);
});

const CASES: Array<{ expr: string; extra?: Record<string, string> }> = [
  { expr: 'concept:sign_in' },
  { expr: 'Symbol[file="services/api/plugins/auth"]' },
  { expr: 'Concept[id="symbol:services.api.plugins.auth.oauth.go.Provider"]' },
  { expr: 'Symbol[file="services"]', extra: { limit: '2' } },
];

describe('atlas query on every surface', () => {
  it.each(CASES.map((c) => [c.expr, c]))(
    '%s gives the same result on the CLI, MCP and HTTP',
    async (_n, c) => {
      const args = { expr: c.expr, project: 'platform', repo: 'identity', ...c.extra };
      const flags = Object.entries(c.extra ?? {}).flatMap(([k, v]) => [`--${k}`, v]);
      const cli = runHub([
        '-c',
        join(root, '.hub.yml'),
        'atlas',
        'query',
        c.expr,
        '--project',
        'platform',
        '--repo',
        'identity',
        ...flags,
        '--json',
      ]);
      const viaCli = cli.json();
      const viaMcp = await callJson(
        mcp,
        'hub_atlas_query',
        c.extra?.limit ? { ...args, limit: Number(c.extra.limit) } : args,
      );
      const viaHttp = await call(server.base, 'GET', `/v3/ops/atlas/query?${new URLSearchParams(args)}`);
      expect(viaHttp.status, viaHttp.text).toBe(200);
      expect(viaMcp).toEqual(viaCli);
      expect(viaHttp.json).toEqual(viaCli);
      expect(cli.code).toBe(viaCli.ok ? 0 : 1);
    },
  );

  it('reads a path relative to the served workspace, and refuses one outside it over MCP and HTTP', async () => {
    const inside = await callJson(mcp, 'hub_atlas_query', {
      expr: 'concept:sign_in',
      path: 'platform/identity',
    });
    expect(inside.ok).toBe(true);
    const outside = makeGitRepo(join(dir, 'outside'), { 'a.py': 'def a():\n    pass\n' });
    expect(runHub(['atlas', 'init', '--generate', '--json'], { cwd: outside }).code).toBe(0);
    const http = await call(
      server.base,
      'GET',
      `/v3/ops/atlas/query?${new URLSearchParams({ expr: 'Symbol', path: outside })}`,
    );
    expect(http.status).toBe(403);
    expect(http.json.error.details.rule).toBe('inside_workspace');
    const err = await rpcError(
      mcp.callTool({ name: 'hub_atlas_query', arguments: { expr: 'Symbol', path: outside } }),
      -32000,
    );
    expect(err.message).toContain('outside the served workspace');
    // The user at the CLI may read any folder they name.
    expect(runHub(['atlas', 'query', 'Symbol', '--path', outside, '--json'], { cwd: dir }).json().total).toBe(
      1,
    );
  });

  it('withholds entities above policy/access.yaml over MCP and HTTP, not on the CLI', async () => {
    const cli = runHub(['atlas', 'query', 'Concept', '--json'], { cwd: identity }).json();
    expect(cli.entities.map((e: { id: string }) => e.id)).toEqual(['concept:keys', 'concept:sign_in']);
    const viaMcp = await callJson(mcp, 'hub_atlas_query', {
      expr: 'Concept',
      project: 'platform',
      repo: 'identity',
    });
    expect(viaMcp).toMatchObject({ total: 1, withheld: 1 });
    expect(viaMcp.entities.map((e: { id: string }) => e.id)).toEqual(['concept:sign_in']);
    const sym = await callJson(mcp, 'hub_atlas_query', {
      expr: 'symbol:packages.sdk.src.index.ts.whoami',
      project: 'platform',
      repo: 'identity',
    });
    expect(sym.entities[0].related).toEqual([
      { relation: 'maps_to', direction: 'in', id: 'concept:keys', entity: null },
    ]);
  });

  it('is served to MCP clients and documented in OpenAPI', async () => {
    const tools = (await mcp.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('hub_atlas_query');
    const doc = await call(server.base, 'GET', '/v3/openapi.json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.json.paths)).toContain('/v3/ops/atlas/query');
  });
});

describe('atlas in the rest of hub', () => {
  it("a repository's card mentions its atlas entities", async () => {
    const card = await callJson(mcp, 'hub_repo_card', { project: 'platform', repo: 'identity' });
    expect(card.atlas).toMatchObject({ path: '.', counts: { Symbol: expect.any(Number) } });
    expect(card.atlas.related.map((r: { id: string }) => r.id)).toEqual(['concept:sign_in']);
    const other = await callJson(mcp, 'hub_repo_card', { project: 'platform', repo: 'gateway' });
    expect(other.atlas).toBeUndefined();
  });

  it('context compile --component lists the atlas entities of the component path', () => {
    const r = runHub([
      '-c',
      join(root, '.hub.yml'),
      'context',
      'compile',
      '--project',
      'platform',
      '--repo',
      'identity',
      '--component',
      'auth-plugin',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const text = JSON.stringify(r.json());
    expect(text).toContain('symbol:services.api.plugins.auth.oauth.go.Provider');
    expect(text).not.toContain('symbol:packages.sdk.src.index.ts.whoami');
    const sdk = runHub([
      '-c',
      join(root, '.hub.yml'),
      'context',
      'compile',
      '--project',
      'platform',
      '--repo',
      'identity',
      '--component',
      'sdk',
      '--json',
    ]);
    expect(JSON.stringify(sdk.json())).toContain('symbol:packages.sdk.src.index.ts.whoami');
  });

  it('a broken atlas never breaks the card', async () => {
    mkdirSync(join(identity, '.atlas/intent/risks'), { recursive: true });
    writeFileSync(join(identity, '.atlas/intent/risks/r.yaml'), `a: ${'['.repeat(400)}${']'.repeat(400)}\n`);
    const card = await callJson(mcp, 'hub_repo_card', { project: 'platform', repo: 'identity' });
    expect(card.atlas.error).toContain('max_depth');
  });
});
