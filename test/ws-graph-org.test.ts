// The org index in the workspace graph: indexed repositories are repo nodes without a local path, a materialized
// one is its workspace repository under the same identity, and graph.relationships may name an indexed repository
// as {project: <organization>, repo: <name>}. The index is written as `org index` stores it (test/fixtures/
// org-index.ts); the providers that fill it are tested against recorded responses in test/ws-org.test.ts.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, makeGitRepo, removeTempDir, writeOrgIndex } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub } from './mcp-client.js';
import { runHub } from './run-hub.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the command printed.
type Json = any;

const MANIFEST = `# platform
workspace:
  projects:
    - name: acme
      repos:
        - name: api
          url: https://example.invalid/acme/api.git   # materialized from the index
        - name: tools
          path: ./acme/tools
`;
const relationships = (to: { project: string; repo: string }) =>
  `${MANIFEST}graph:\n  relationships:\n    - id: api-uses-billing\n      from: {project: acme, repo: api}\n      to: {project: ${to.project}, repo: ${to.repo}}\n      type: depends_on\n`;

let dir: string;
let root: string;
const hub = (args: string[]) => runHub([...args, '--json'], { cwd: root });
const node = (g: Json, id: string) => g.nodes.find((n: Json) => n.id === id);

beforeAll(() => {
  dir = createTempDir('hub-graph-org-');
  root = join(dir, 'ws');
  makeGitRepo(root);
  makeGitRepo(join(root, 'acme', 'tools'));
  writeFileSync(join(root, '.hub.yml'), MANIFEST);
});
afterAll(() => removeTempDir(dir));

describe('the workspace graph with an org index', () => {
  it('has no external nodes while nothing is indexed', () => {
    const g = hub(['graph', '--no-include-inferred']).json();
    expect(g.nodes.filter((n: Json) => n.presence)).toEqual([]);
  });

  it('shows indexed repositories as repo nodes without a local path, and the materialized one as the workspace repo', async () => {
    writeOrgIndex(root, 'github', 'acme', [
      { name: 'api', description: 'Public API' },
      { name: 'billing', description: 'Invoices' },
    ]);
    writeOrgIndex(root, 'gitlab', 'acme/platform', [{ name: 'ledger' }]);
    const r = hub(['graph', '--no-include-inferred']);
    expect(r.code, r.stderr).toBe(0);
    const g = r.json();
    expect(node(g, 'repo:github://acme/billing')).toEqual({
      id: 'repo:github://acme/billing',
      label: 'billing',
      kind: 'repo',
      presence: 'indexed',
      identity: 'github://acme/billing',
      provider: 'github',
      url: 'https://example.invalid/acme/billing.git',
      description: 'Invoices',
    });
    expect(node(g, 'repo:gitlab://acme/platform/ledger')).toMatchObject({
      presence: 'indexed',
      identity: 'gitlab://acme/platform/ledger',
      provider: 'gitlab',
    });
    expect(node(g, 'repo:gitlab://acme/platform/ledger').path).toBeUndefined();
    // Materialized: one node, the workspace repository, with the identity it had while indexed.
    expect(node(g, 'repo:github://acme/api')).toBeUndefined();
    expect(node(g, 'repo:acme/api')).toMatchObject({
      presence: 'materialized',
      identity: 'github://acme/api',
      path: 'acme/api',
    });
    expect(node(g, 'repo:acme/tools').presence).toBeUndefined();
    let server: RunningServer | undefined;
    const mcp = await connectHub(root);
    try {
      server = await startTestServer({ root });
      const viaHttp = await call(server.base, 'GET', '/v3/ops/graph?include_inferred=false');
      expect(viaHttp.status, viaHttp.text).toBe(200);
      expect(viaHttp.json.nodes).toEqual(g.nodes);
      const near = await callJson(mcp, 'hub_graph_neighbors', {
        node: 'github://acme/billing',
        include_inferred: false,
      });
      expect(near.nodes.map((n: Json) => n.id)).toContain('repo:github://acme/billing');
    } finally {
      await mcp.close();
      await server?.close();
    }
  });

  it('accepts a relationship endpoint that names an indexed repository, and draws the edge to it', () => {
    writeFileSync(join(root, '.hub.yml'), relationships({ project: 'acme', repo: 'billing' }));
    const v = hub(['config', 'validate']);
    expect(v.code, v.stdout).toBe(0);
    const r = hub(['graph', '--no-include-inferred']);
    expect(r.code, r.stderr).toBe(0);
    const g = r.json();
    expect(g.manual_edge_count).toBe(1);
    expect(g.edges.find((e: Json) => e.source === 'manual')).toMatchObject({
      from_id: 'repo:acme/api',
      to_id: 'repo:github://acme/billing',
      type: 'depends_on',
    });
    expect(g.stale_manual).toEqual([]);
  });

  it('does not cache a manifest that only the index makes valid: without the index it is refused again', () => {
    writeFileSync(join(root, '.hub.yml'), relationships({ project: 'acme', repo: 'billing' }));
    const env = { HUB_CACHE_DIR: join(dir, 'cache') };
    expect(runHub(['graph', '--json'], { cwd: root, env }).code).toBe(0);
    expect(runHub(['graph', '--json'], { cwd: root, env }).code).toBe(0);
    const saved = readFileSync(join(root, '.hub', 'org', 'github', 'acme.json'));
    rmSync(join(root, '.hub', 'org', 'github', 'acme.json'));
    try {
      const r = runHub(['graph', '--json'], { cwd: root, env });
      expect(r.code).toBe(1);
      expect(r.json().error.details.issues[0]).toMatchObject({ rule: 'relationship_endpoint' });
    } finally {
      writeFileSync(join(root, '.hub', 'org', 'github', 'acme.json'), saved);
    }
  });

  it('still refuses an endpoint that names nothing, in the catalog or any index', () => {
    writeFileSync(join(root, '.hub.yml'), relationships({ project: 'acme', repo: 'nowhere' }));
    const v = hub(['config', 'validate']);
    expect(v.code).toBe(1);
    expect(JSON.stringify(v.json())).toMatch(/relationship_endpoint/);
    const g = hub(['graph']);
    expect(g.code).toBe(1);
    expect(g.json().error.details.issues[0]).toMatchObject({ rule: 'relationship_endpoint' });
    expect(readFileSync(join(root, '.hub.yml'), 'utf8')).toContain('nowhere');
  });
});
