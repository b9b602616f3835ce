import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGraphWorkspace, ECOSYSTEM_EDGES } from './fixtures/graph-workspace.js';
import { removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the command printed.
type Json = any;

describe('the workspace graph on the CLI, HTTP and MCP', () => {
  const ws = buildGraphWorkspace([
    {
      id: 'api-auth',
      from: { project: 'back', repo: 'auth' },
      to: { project: 'back', repo: 'api' },
      type: 'depends_on',
    },
  ]);
  const hub = (args: string[]) => runHub(['-c', ws.manifestPath, ...args]);
  let server: RunningServer;
  let mcp: Client;
  beforeAll(async () => {
    server = await startTestServer({ root: ws.root });
    mcp = await connectHub(ws.root);
  });
  afterAll(async () => {
    await mcp?.close();
    await server?.close();
    removeTempDir(ws.root);
  });

  it('GET /v3/ops/graph answers the spec shape, include_* default true', async () => {
    const before = readFileSync(ws.manifestPath, 'utf8');
    const r = await call(server.base, 'GET', '/v3/ops/graph');
    expect(r.status).toBe(200);
    const g: Json = r.json;
    expect(Object.keys(g)).toEqual(
      expect.arrayContaining([
        'ok',
        'nodes',
        'edges',
        'manual_edge_count',
        'inferred_edge_count',
        'structure_edge_count',
      ]),
    );
    expect(g).toMatchObject({
      ok: true,
      manual_edge_count: 1,
      inferred_edge_count: ECOSYSTEM_EDGES.length,
      structure_edge_count: 17,
    });
    for (const n of g.nodes) {
      expect(['project', 'repo']).toContain(n.kind);
      expect(typeof n.identity).toBe('string');
      expect(typeof n.provider).toBe('string');
    }
    for (const e of g.edges) expect(['manual', 'inferred', 'structure']).toContain(e.source);
    expect(g.stale_manual.map((s: Json) => s.relationship_id)).toEqual(['api-auth']);
    const off = await call(
      server.base,
      'GET',
      '/v3/ops/graph?include_inferred=false&include_structure=false',
    );
    expect(off.json).toMatchObject({ inferred_edge_count: 0, structure_edge_count: 0, manual_edge_count: 1 });
    expect(off.json.edges).toHaveLength(1);
    expect(readFileSync(ws.manifestPath, 'utf8')).toBe(before);
  });

  it('the CLI prints the same graph and negates the defaults with --no-include-*', () => {
    const r = hub(['graph', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().inferred_edge_count).toBe(ECOSYSTEM_EDGES.length);
    const off = hub(['graph', '--no-include-inferred', '--no-include-structure', '--json']);
    expect(off.json()).toMatchObject({ inferred_edge_count: 0, structure_edge_count: 0 });
    const human = hub(['graph']);
    expect(human.stdout).toContain(
      'repo:front/web -[depends_on, inferred]-> repo:front/ui  (package.json:5)',
    );
    expect(human.stdout).toContain(
      "api-auth: relationship 'api-auth' says repo:back/auth depends on repo:back/api",
    );
  });

  it('hub_graph_neighbors, the CLI and HTTP agree; unknown nodes and bad depths are refused alike', async () => {
    const args = { node: 'back/auth', direction: 'in', depth: 2 };
    const viaMcp = await callJson(mcp, 'hub_graph_neighbors', args);
    expect(viaMcp.origin).toBe('repo:back/auth');
    expect(viaMcp.nodes.map((n: Json) => n.id)).toEqual(
      expect.arrayContaining(['repo:back/api', 'repo:back/worker', 'project:back']),
    );
    const viaCli = hub(['graph', 'neighbors', 'back/auth', '--direction', 'in', '--depth', '2', '--json']);
    expect(viaCli.json()).toEqual(viaMcp);
    const viaHttp = await call(
      server.base,
      'GET',
      '/v3/ops/graph/neighbors?node=back/auth&direction=in&depth=2',
    );
    expect(viaHttp.json).toEqual(viaMcp);
    const missing = await call(server.base, 'GET', '/v3/ops/graph/neighbors?node=nope');
    expect(missing.status).toBe(404);
    expect(missing.json.error.details).toMatchObject({ field: 'node', value: 'nope', rule: 'known_node' });
    expect((await call(server.base, 'GET', '/v3/ops/graph/neighbors?node=api&depth=x')).status).toBe(400);
    await rpcError(mcp.callTool({ name: 'hub_graph_neighbors', arguments: { node: 'nope' } }), -32602);
    expect(hub(['graph', 'neighbors', 'nope']).code).toBe(1);
  });

  it('graph neighbors takes its own --[no-]include-structure, not the one of `hub graph` above it', async () => {
    const args = ['graph', 'neighbors', 'back/auth', '--direction', 'in', '--depth', '2'];
    const without = hub([...args, '--no-include-structure', '--json']).json();
    expect(without).toEqual(
      await callJson(mcp, 'hub_graph_neighbors', {
        node: 'back/auth',
        direction: 'in',
        depth: 2,
        include_structure: false,
      }),
    );
    expect(without.nodes.map((n: Json) => n.id)).not.toContain('project:back');
    const withIt = hub([...args, '--include-structure', '--json']).json();
    expect(withIt.nodes.map((n: Json) => n.id)).toContain('project:back');
  });

  it('GET suggest never writes; apply over GET is refused', async () => {
    const before = readFileSync(ws.manifestPath, 'utf8');
    const r = await call(server.base, 'GET', '/v3/ops/graph/suggest');
    expect(r.status).toBe(200);
    expect(r.json.suggestions.length).toBe(ECOSYSTEM_EDGES.length);
    expect((await call(server.base, 'GET', '/v3/ops/graph/suggest?apply=true')).status).toBe(400);
    expect(readFileSync(ws.manifestPath, 'utf8')).toBe(before);
  });
});

describe('config graph suggest --apply', () => {
  it('appends the proposals, every other line byte-identical; a second run proposes nothing', () => {
    const ws = buildGraphWorkspace();
    const original = `# The workspace's manifest, written by hand.\n${readFileSync(ws.manifestPath, 'utf8').replace('workspace:\n', 'workspace:   # keep this comment\n')}`;
    writeFileSync(ws.manifestPath, original);
    const hub = (args: string[]) => runHub(['-c', ws.manifestPath, ...args]);
    const preview = hub(['config', 'graph', 'suggest', '--json']);
    expect(preview.code, preview.stderr).toBe(0);
    const s = preview.json().suggestions;
    expect(s).toHaveLength(ECOSYSTEM_EDGES.length);
    expect(s[0].relationship).toMatchObject({
      id: 'web-depends-on-ui',
      from: { project: 'front', repo: 'web' },
      to: { project: 'front', repo: 'ui' },
      type: 'depends_on',
      status: 'proposed',
      provenance: 'promoted',
    });
    expect(s[0].evidence).toHaveLength(1);
    expect(readFileSync(ws.manifestPath, 'utf8')).toBe(original);

    const applied = hub(['config', 'graph', 'suggest', '--apply', '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.json()).toMatchObject({ applied: true, validation_errors: [] });
    expect(applied.json().written).toHaveLength(ECOSYSTEM_EDGES.length);
    const after = readFileSync(ws.manifestPath, 'utf8');
    const kept = original.split('\n').filter((l) => l !== '');
    const now = after.split('\n');
    // Every line of the original is still there, in order, unchanged.
    let k = 0;
    for (const line of now) if (line === kept[k]) k++;
    expect(k).toBe(kept.length);
    expect(after).toContain('  relationships:\n    - id: web-depends-on-ui\n');
    expect(hub(['config', 'validate']).code).toBe(0);
    const again = hub(['config', 'graph', 'suggest', '--json']).json();
    expect(again.suggestions).toEqual([]);
    expect(again.already_declared).toBe(ECOSYSTEM_EDGES.length);
    removeTempDir(ws.root);
  });

  it('writes nothing and reports validation_errors when the patched manifest is invalid (exit 1)', () => {
    const ws = buildGraphWorkspace();
    // A catalogued component whose folder does not exist in the checkout: `config validate` fails on it.
    const text = readFileSync(ws.manifestPath, 'utf8').replace(
      '        - name: auth\n          path: ./back/auth\n',
      '        - name: auth\n          path: ./back/auth\n          components:\n            - { name: gone, path: services/gone }\n',
    );
    writeFileSync(ws.manifestPath, text);
    const r = runHub(['-c', ws.manifestPath, 'config', 'graph', 'suggest', '--apply', '--json']);
    expect(r.code).toBe(1);
    expect(r.json()).toMatchObject({ applied: false, written: [] });
    expect(r.json().validation_errors).toContainEqual(
      expect.objectContaining({ rule: expect.any(String), path: expect.stringContaining('components[0]') }),
    );
    expect(readFileSync(ws.manifestPath, 'utf8')).toBe(text);
    const human = runHub(['-c', ws.manifestPath, 'config', 'graph', 'suggest', '--apply']);
    expect(human.stdout).toContain('nothing written: the patched manifest is invalid');
    removeTempDir(ws.root);
  });
});

describe('config graph export', () => {
  const ws = buildGraphWorkspace();
  // A hostile label: tries to close the Mermaid label, add a click handler, and break the DOT string.
  writeFileSync(
    ws.manifestPath,
    readFileSync(ws.manifestPath, 'utf8').replace(
      'label: Partner SDK',
      `label: "x\\"]\\n  click n0 \\"javascript:alert(1)\\"\\n  n9[\\"y"`,
    ),
  );
  afterAll(() => removeTempDir(ws.root));
  const hub = (args: string[]) => runHub(['-c', ws.manifestPath, 'config', 'graph', 'export', ...args]);

  it('renders Mermaid with projects as subgraphs and labels that cannot escape', () => {
    const r = hub(['--format', 'mermaid']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe('flowchart LR');
    expect(lines).toContain('  subgraph n0["front"]');
    expect(lines.some((l) => /^\s*click\b/.test(l))).toBe(false);
    const sdk = lines.find((l) => l.includes('javascript'))!;
    expect(sdk.match(/"/g)).toHaveLength(2);
    expect(lines.filter((l) => l.includes('-.->'))).toHaveLength(ECOSYSTEM_EDGES.length);
  });

  it('renders DOT with clusters, dashed inferred edges and escaped labels; JSON by default', () => {
    const r = hub(['--format', 'dot']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^digraph workspace \{/);
    expect(r.stdout).toContain('"repo:front/web" -> "repo:front/ui" [label="npm @acme/ui", style=dashed];');
    const sdk = r.stdout.split('\n').find((l) => l.includes('javascript'))!;
    expect(sdk.replace(/\\"/g, '').match(/"/g)).toHaveLength(4);
    const json = hub(['--json']).json();
    expect(json).toMatchObject({ format: 'json', node_count: 24 });
    expect(json.graph.ok).toBe(true);
    expect(hub(['--format', 'svg']).code).toBe(2);
  });

  it('GET /v3/ops/graph/export serves the same text', async () => {
    const server = await startTestServer({ root: ws.root });
    try {
      const r = await call(server.base, 'GET', '/v3/ops/graph/export?format=mermaid&include_inferred=false');
      expect(r.status).toBe(200);
      expect(r.json.text).toBe(`${hub(['--format', 'mermaid', '--no-include-inferred']).stdout}`);
    } finally {
      await server.close();
    }
  });
});

describe('a workspace without checkouts', () => {
  it('draws manifest edges and reads nothing', () => {
    const ws = buildGraphWorkspace();
    for (const p of ['front', 'back', 'data', 'core', 'jvm', 'ops'])
      rmSync(join(ws.root, p), { recursive: true, force: true });
    const g = runHub(['-c', ws.manifestPath, 'graph', '--json']).json();
    expect(g.inferred_edge_count).toBe(0);
    expect(g.inference).toMatchObject({ repos_scanned: 0, repos_missing: 17, files_read: 0 });
    removeTempDir(ws.root);
  });
});
