import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { Catalog, checkoutsOf } from '../catalog/index.js';
import { buildWorkspaceGraph, type WorkspaceGraph } from '../graph/index.js';
import { readManifestFile } from '../model/index.js';
import { buildRepoCard, buildRepoCards } from './card.js';
import { CARD_EDGES, EdgeIndex } from './card-edges.js';

let tmp: string;
let catalog: Catalog;
let graph: WorkspaceGraph;
const now = new Date();
const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const CONSUMERS = CARD_EDGES + 2;

beforeAll(() => {
  tmp = createTempDir('hub-card-edges-');
  const ws = buildWorkspace({
    root: join(tmp, 'ws'),
    projects: [
      {
        name: 'p',
        repos: [
          {
            name: 'sdk',
            files: {
              'package.json': json({ name: '@acme/sdk', scripts: { build: 'tsc', test: 'vitest run' } }),
              'services/api/go.mod': 'module example.com/acme/api\n\ngo 1.22\n',
            },
            components: [
              { name: 'js', path: '.' },
              { name: 'api', path: 'services/api' },
            ],
          },
          {
            name: 'web',
            files: {
              'package.json': json({ name: 'web', dependencies: { '@acme/sdk': '^1.0.0' } }),
            },
          },
          {
            name: 'gateway',
            files: { 'go.mod': 'module example.com/acme/gateway\n\nrequire example.com/acme/api v1.0.0\n' },
          },
          ...Array.from({ length: CONSUMERS }, (_, i) => ({
            name: `app-${i}`,
            files: { 'package.json': json({ name: `app-${i}`, dependencies: { '@acme/sdk': '1' } }) },
          })),
        ],
      },
    ],
    relationships: [
      {
        id: 'web-calls-gateway',
        from: { project: 'p', repo: 'web' },
        to: { project: 'p', repo: 'gateway' },
        type: 'calls',
      },
      {
        id: 'gateway-uses-api',
        from: { project: 'p', repo: 'gateway' },
        to: { project: 'p', repo: 'sdk', component: 'api' },
        type: 'calls',
        status: 'proposed',
      },
    ],
  });
  catalog = new Catalog(readManifestFile(ws.manifestPath));
  graph = buildWorkspaceGraph(catalog, checkoutsOf(catalog), {
    includeInferred: true,
    includeStructure: false,
  });
});
afterAll(() => removeTempDir(tmp));

const repo = (id: string) => catalog.repoById.get(id)!;

describe('card edges from the workspace graph', () => {
  it('lists edges out and in with their evidence; declared ones first', async () => {
    const web = await buildRepoCard(catalog, repo('p/web'), { now, graph });
    expect(web.edges).toEqual({
      out: [
        { repo: 'p/gateway', type: 'calls', source: 'manual', relationship_id: 'web-calls-gateway' },
        {
          repo: 'p/sdk',
          type: 'depends_on',
          source: 'inferred',
          label: 'npm @acme/sdk',
          evidence: 'package.json:4',
        },
      ],
      in: [],
    });
    const gateway = await buildRepoCard(catalog, repo('p/gateway'), { now, graph });
    expect(gateway.edges!.in).toEqual([
      { repo: 'p/web', type: 'calls', source: 'manual', relationship_id: 'web-calls-gateway' },
    ]);
    expect(gateway.edges!.out[0]).toEqual({
      repo: 'p/sdk',
      type: 'calls',
      source: 'manual',
      relationship_id: 'gateway-uses-api',
      status: 'proposed',
      to_component: 'api',
    });
  });

  it('caps each direction and says how many there are', async () => {
    const [sdk] = await buildRepoCards(catalog, [repo('p/sdk')], { now, graph: () => graph });
    expect(sdk!.edges!.in).toHaveLength(CARD_EDGES);
    // web and every app depend on the sdk; the gateway's go module and its relationship too.
    expect(sdk!.edges!.in_total).toBeGreaterThan(CARD_EDGES);
    expect(sdk!.edges!.out).toEqual([]);
    expect(sdk!.edges!.out_total).toBeUndefined();
    expect(sdk!.commands!.map((c) => c.command)).toEqual([
      'npm run build',
      'npm test',
      'go build ./...',
      'go test ./...',
      'go vet ./...',
    ]);
  });

  it('narrows to a component: the edges its files prove, and declared edges naming it or no component', () => {
    const index = new EdgeIndex(graph);
    const api = catalog.componentsByRepo.get('p/sdk')!.find((c) => c.name === 'api')!;
    const js = catalog.componentsByRepo.get('p/sdk')!.find((c) => c.name === 'js')!;
    const apiEdges = index.ofComponent(catalog, api);
    expect(apiEdges.in.map((e) => `${e.repo} ${e.type} ${e.source}`)).toEqual([
      'p/gateway calls manual',
      'p/gateway depends_on inferred',
    ]);
    expect(apiEdges.in[1]!.evidence).toBe('go.mod:3');
    const jsEdges = index.ofComponent(catalog, js);
    expect(jsEdges.in.every((e) => e.source === 'inferred' && e.label === 'npm @acme/sdk')).toBe(true);
    expect(jsEdges.in_total).toBe(CONSUMERS + 1);
  });
});
