import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../examples/demo-workspace.mjs';
import {
  createTempDir,
  makeGitRepo,
  removeTempDir,
  thrown,
  writeManifest,
} from '../../test/fixtures/index.js';
import { AmbiguousError, errorMapping, NotFoundError, ValidationError } from '../infra/index.js';
import { parseManifestText, readManifestFile } from '../model/manifest-file.js';
import { Catalog } from './catalog.js';
import {
  allEdges,
  componentGraph,
  GRAPH_DEFAULT_DEPTH,
  GRAPH_DEFAULT_DIRECTION,
  GRAPH_MAX_DEPTH,
  type GraphResult,
  parseDepth,
  parseDirection,
} from './graph.js';

const nodeIds = (g: GraphResult) => g.nodes.map((n) => n.id).sort();
const distances = (g: GraphResult) => Object.fromEntries(g.nodes.map((n) => [n.id, n.distance]));
const edgeKeys = (g: GraphResult) => g.edges.map((e) => `${e.from} -${e.type}/${e.origin}-> ${e.to}`).sort();

// chain: c1 -> c2 -> ... -> c8 (each depends on the next), all in p/chain.
const CHAIN = Array.from({ length: 8 }, (_, i) => i + 1);

const MANIFEST = `# Graph test workspace.
workspace:
  name: graph-test
  projects:
    - name: p
      repos:
        - name: chain
          path: ./p/chain
          components:
${CHAIN.map(
  (i) =>
    `            - name: c${i}\n              path: mods/c${i}\n` +
    (i < 8 ? `              depends_on: [c${i + 1}]\n` : ''),
).join('')}
        - name: svc
          path: ./p/svc
          components:
            - name: api
              path: services/api
            - name: auth
              path: services/api/plugins/auth
              depends_on: [api]
            - name: worker
              path: services/worker
              depends_on: [api]
        - name: infra
          path: ./p/infra
        - name: remote
          url: https://example.com/remote.git
          components:
            - name: dup
              path: dup
    - name: q
      repos:
        - name: other
          path: ./q/other
          components:
            - name: dup
              path: dup
graph:
  nodes:
    - { project: ext, repo: billing, url: https://example.com/billing.git }
  relationships:
    # Same from/to/type as the depends_on edge auth -> api: the declared edge must win.
    - id: auth-needs-api
      from: { project: p, repo: svc, component: auth }
      to: { project: p, repo: svc, component: api }
      type: depends_on
      status: proposed
    # Path-only endpoint resolved through the resolver (to the nested auth component).
    - id: plugin-calls-c1
      from: { project: p, repo: svc, path: services/api/plugins/auth/src/oauth }
      to: { project: p, repo: chain, component: c1 }
      type: calls
    # Repo-level endpoint.
    - id: infra-deploys-api
      from: { project: p, repo: infra }
      to: { project: p, repo: svc, component: api }
      type: deploys
    # External repo from graph.nodes.
    - id: worker-calls-billing
      from: { project: p, repo: svc, component: worker }
      to: { project: ext, repo: billing }
      type: calls
      status: deprecated
    # Unresolved endpoints are skipped by the graph.
    - id: broken
      from: { project: p, repo: svc, component: ghost }
      to: { project: p, repo: svc, component: api }
      type: calls
    - id: broken-path
      from: { project: p, repo: svc, path: nowhere/at/all }
      to: { project: p, repo: svc, component: api }
      type: calls
`;

describe('componentGraph', () => {
  let root: string;
  let catalog: Catalog;
  const graph = (component: string, extra: Record<string, unknown> = {}) =>
    componentGraph(catalog, { component, ...extra } as Parameters<typeof componentGraph>[1]);

  beforeAll(() => {
    root = createTempDir('hub-graph-');
    makeGitRepo(
      join(root, 'p/chain'),
      Object.fromEntries(CHAIN.map((i) => [`mods/c${i}/README.md`, `c${i}\n`])),
    );
    makeGitRepo(join(root, 'p/svc'), {
      'services/api/go.mod': 'module api\n',
      'services/api/plugins/auth/go.mod': 'module auth\n',
      'services/worker/pyproject.toml': '[project]\nname = "worker"\n',
    });
    makeGitRepo(join(root, 'p/infra'), { 'main.tf': '\n' });
    makeGitRepo(join(root, 'q/other'), { 'dup/x': '\n' });
    const path = writeManifest(root, MANIFEST);
    catalog = new Catalog(readManifestFile(path));
  });
  afterAll(() => removeTempDir(root));

  describe('depth', () => {
    it('defaults to 1', () => {
      expect(GRAPH_DEFAULT_DEPTH).toBe(1);
      const g = graph('c3');
      expect(g.depth).toBe(1);
      expect(g.origin).toBe('component:p/chain/c3');
      expect(nodeIds(g)).toEqual(['component:p/chain/c2', 'component:p/chain/c3', 'component:p/chain/c4']);
      expect(distances(g)).toEqual({
        'component:p/chain/c3': 0,
        'component:p/chain/c2': 1,
        'component:p/chain/c4': 1,
      });
    });

    it('walks breadth-first to depth 2', () => {
      const g = graph('c4', { depth: 2, direction: 'out' });
      expect(g.depth).toBe(2);
      expect(distances(g)).toEqual({
        'component:p/chain/c4': 0,
        'component:p/chain/c5': 1,
        'component:p/chain/c6': 2,
      });
      expect(edgeKeys(g)).toEqual([
        'component:p/chain/c4 -depends_on/depends_on-> component:p/chain/c5',
        'component:p/chain/c5 -depends_on/depends_on-> component:p/chain/c6',
      ]);
    });

    it('accepts a numeric string', () => {
      expect(graph('c4', { depth: '2', direction: 'out' }).nodes).toHaveLength(3);
    });

    it('depth 0 returns only the origin', () => {
      const g = graph('c4', { depth: 0 });
      expect(nodeIds(g)).toEqual(['component:p/chain/c4']);
      expect(g.edges).toEqual([]);
    });

    it('caps at 5 (depth 9 => 5)', () => {
      expect(GRAPH_MAX_DEPTH).toBe(5);
      const g = graph('c2', { depth: 9, direction: 'out' });
      expect(g.depth).toBe(5);
      expect(nodeIds(g)).toEqual([2, 3, 4, 5, 6, 7].map((i) => `component:p/chain/c${i}`));
      expect(distances(g)['component:p/chain/c7']).toBe(5);
      expect(nodeIds(g)).not.toContain('component:p/chain/c8');
      expect(graph('c2', { depth: 5, direction: 'out' }).nodes).toHaveLength(6);
    });

    it.each([-1, '-1', 'x', 1.5, '1.5', '2x', '0x3', '1e0', Number.NaN, Number.POSITIVE_INFINITY, true, [2]])(
      'rejects depth %s with a ValidationError',
      (depth) => {
        const err = thrown(() => graph('c1', { depth }));
        expect(err).toBeInstanceOf(ValidationError);
        expect(err.details?.field).toBe('depth');
        expect(errorMapping(err).http).toBe(400);
      },
    );

    it('parseDepth falls back on absent values and clamps', () => {
      expect(parseDepth(undefined, 1, 5)).toBe(1);
      expect(parseDepth('', 1, 5)).toBe(1);
      expect(parseDepth(null, 3, 5)).toBe(3);
      expect(parseDepth(7, 1, 5)).toBe(5);
      expect(parseDepth('4', 1, 5)).toBe(4);
    });
  });

  describe('direction', () => {
    it('out follows edges from the node', () => {
      const g = graph('c3', { direction: 'out' });
      expect(g.direction).toBe('out');
      expect(nodeIds(g)).toEqual(['component:p/chain/c3', 'component:p/chain/c4']);
    });

    it('in follows edges into the node', () => {
      const g = graph('c3', { direction: 'in' });
      expect(nodeIds(g)).toEqual(['component:p/chain/c2', 'component:p/chain/c3']);
      expect(g.edges).toEqual([
        {
          from: 'component:p/chain/c2',
          to: 'component:p/chain/c3',
          type: 'depends_on',
          origin: 'depends_on',
        },
      ]);
    });

    it('both follows both ways and is the default', () => {
      expect(GRAPH_DEFAULT_DIRECTION).toBe('both');
      const g = graph('c3');
      expect(g.direction).toBe('both');
      expect(nodeIds(g)).toEqual(nodeIds(graph('c3', { direction: 'both' })));
      expect(g.edges).toHaveLength(2);
    });

    it('in at depth 2 reaches across relationship types', () => {
      // c1 <- auth (declared, path-only endpoint); nothing points at auth, so depth 2 adds no more.
      const g = graph('c1', { direction: 'in', depth: 2 });
      expect(nodeIds(g)).toEqual(['component:p/chain/c1', 'component:p/svc/auth']);
    });

    it.each(['sideways', 'OUT', 'In ', 3])('rejects direction %s with a ValidationError', (direction) => {
      const err = thrown(() => graph('c1', { direction }));
      expect(err).toBeInstanceOf(ValidationError);
      expect(err.details?.field).toBe('direction');
      expect(err.details?.allowed).toEqual(['out', 'in', 'both']);
    });

    it('parseDirection defaults empty values to both', () => {
      expect(parseDirection(undefined)).toBe('both');
      expect(parseDirection('')).toBe('both');
      expect(parseDirection('in')).toBe('in');
    });
  });

  describe('edges', () => {
    it('the declared edge wins over a duplicate depends_on from/to/type', () => {
      const edges = allEdges(catalog).filter(
        (e) => e.from === 'component:p/svc/auth' && e.to === 'component:p/svc/api',
      );
      expect(edges).toEqual([
        {
          from: 'component:p/svc/auth',
          to: 'component:p/svc/api',
          type: 'depends_on',
          origin: 'declared',
          relationship_id: 'auth-needs-api',
          status: 'proposed',
        },
      ]);
      const g = graph('auth', { direction: 'out' });
      const toApi = g.edges.filter((e) => e.to === 'component:p/svc/api');
      expect(toApi).toHaveLength(1);
      expect(toApi[0]!.origin).toBe('declared');
    });

    it('keeps a depends_on edge that has no declared duplicate', () => {
      const e = allEdges(catalog).find((x) => x.from === 'component:p/svc/worker' && x.type === 'depends_on');
      expect(e).toEqual({
        from: 'component:p/svc/worker',
        to: 'component:p/svc/api',
        type: 'depends_on',
        origin: 'depends_on',
      });
    });

    it('resolves a path-only endpoint through the resolver (most specific component)', () => {
      const e = allEdges(catalog).find((x) => x.relationship_id === 'plugin-calls-c1');
      expect(e).toMatchObject({
        from: 'component:p/svc/auth',
        to: 'component:p/chain/c1',
        type: 'calls',
        origin: 'declared',
        status: 'active',
      });
      const g = graph('c1', { direction: 'in' });
      expect(nodeIds(g)).toContain('component:p/svc/auth');
    });

    it('maps repo-level endpoints to repo: nodes', () => {
      const g = graph('api', { project: 'p', repo: 'svc', direction: 'in' });
      const infra = g.nodes.find((n) => n.id === 'repo:p/infra');
      expect(infra).toEqual({
        id: 'repo:p/infra',
        kind: 'repo',
        identity: 'p/infra',
        project: 'p',
        repo: 'infra',
        distance: 1,
      });
      expect(g.edges.find((e) => e.relationship_id === 'infra-deploys-api')).toMatchObject({
        from: 'repo:p/infra',
        to: 'component:p/svc/api',
        type: 'deploys',
      });
    });

    it('maps graph.nodes endpoints (outside the catalog) to repo: nodes', () => {
      const g = graph('worker', { direction: 'out' });
      expect(nodeIds(g)).toEqual(['component:p/svc/api', 'component:p/svc/worker', 'repo:ext/billing']);
      expect(g.edges.find((e) => e.to === 'repo:ext/billing')).toMatchObject({
        origin: 'declared',
        status: 'deprecated',
        relationship_id: 'worker-calls-billing',
      });
    });

    it('component nodes carry identity, project, repo, name and path', () => {
      const g = graph('auth', { direction: 'out', depth: 1 });
      expect(g.nodes.find((n) => n.id === 'component:p/svc/auth')).toEqual({
        id: 'component:p/svc/auth',
        kind: 'component',
        identity: 'p/svc/auth',
        project: 'p',
        repo: 'svc',
        component: 'auth',
        path: 'services/api/plugins/auth',
        distance: 0,
      });
    });

    it('skips relationships with unresolved endpoints', () => {
      const ids = allEdges(catalog).map((e) => e.relationship_id);
      expect(ids).not.toContain('broken');
      expect(ids).not.toContain('broken-path');
    });

    it('every edge carries an origin', () => {
      const all = allEdges(catalog);
      expect(all.length).toBeGreaterThan(8);
      for (const e of all) expect(['declared', 'depends_on']).toContain(e.origin);
      const g = graph('api', { project: 'p', repo: 'svc', depth: 5 });
      expect(g.edges.length).toBeGreaterThan(0);
      for (const e of g.edges) expect(['declared', 'depends_on']).toContain(e.origin);
    });

    it('lists only edges walked from the origin', () => {
      const g = graph('c8', { direction: 'out' });
      expect(g.edges).toEqual([]);
      expect(nodeIds(g)).toEqual(['component:p/chain/c8']);
    });
  });

  describe('identity', () => {
    it('accepts a name, a full id and a component: resolver id', () => {
      expect(graph('worker').origin).toBe('component:p/svc/worker');
      expect(graph('p/svc/worker').origin).toBe('component:p/svc/worker');
      expect(graph('component:p/svc/worker').origin).toBe('component:p/svc/worker');
    });

    it('unknown identity => NotFoundError with httpStatus 404', () => {
      for (const ref of ['ghost', 'p/svc/ghost', 'component:x/y/z']) {
        const err = thrown(() => graph(ref));
        expect(err).toBeInstanceOf(NotFoundError);
        expect(err.httpStatus).toBe(404);
        expect(errorMapping(err).http).toBe(404);
      }
    });

    it('an ambiguous name is an AmbiguousError; project/repo settle it', () => {
      const err = thrown(() => graph('dup'));
      expect(err).toBeInstanceOf(AmbiguousError);
      expect(err.details?.candidates).toEqual(['p/remote/dup', 'q/other/dup']);
      expect(graph('dup', { project: 'q', repo: 'other' }).origin).toBe('component:q/other/dup');
    });

    it('a missing identity is a ValidationError', () => {
      expect(thrown(() => graph(''))).toBeInstanceOf(ValidationError);
    });
  });
});

describe('componentGraph on the demo workspace', () => {
  let tmp: string;
  let catalog: Catalog;
  beforeAll(() => {
    tmp = createTempDir('hub-graph-demo-');
    const demo = createDemo(join(tmp, 'demo'));
    catalog = new Catalog(readManifestFile(demo.manifestPath));
  });
  afterAll(() => removeTempDir(tmp));

  it('resolves the path-only checkout endpoint and the url-only billing repo', () => {
    const e = allEdges(catalog).find((x) => x.relationship_id === 'checkout-calls-billing');
    expect(e).toMatchObject({
      from: 'component:storefront/web/storefront',
      to: 'repo:platform/legacy-billing',
      origin: 'declared',
      status: 'deprecated',
    });
  });

  it('walks from the storefront across repos', () => {
    const g = componentGraph(catalog, { component: 'storefront', direction: 'out', depth: 2 });
    expect(nodeIds(g)).toEqual([
      'component:platform/gateway/gateway',
      'component:platform/identity/api',
      'component:storefront/web/storefront',
      'component:storefront/web/ui',
      'repo:platform/legacy-billing',
    ]);
  });

  it('a name ambiguous across repos needs project and repo', () => {
    // "gateway" is both a repo and a component name, but only one component.
    expect(componentGraph(catalog, { component: 'gateway' }).origin).toBe(
      'component:platform/gateway/gateway',
    );
    expect(thrown(() => componentGraph(catalog, { component: 'nope' }))).toBeInstanceOf(NotFoundError);
  });
});

describe('componentGraph on a manifest without relationships', () => {
  it('still returns same-repo depends_on edges', () => {
    const root = createTempDir('hub-graph-bare-');
    try {
      makeGitRepo(join(root, 'r'), { 'a/x': '\n', 'b/x': '\n' });
      const text = `workspace:
  projects:
    - name: p
      repos:
        - name: r
          path: ./r
          components:
            - { name: a, path: a, depends_on: [b, missing] }
            - { name: b, path: b }
`;
      const catalog = new Catalog(parseManifestText(text, writeManifest(root, text)));
      const g = componentGraph(catalog, { component: 'b' });
      expect(g.edges).toEqual([
        { from: 'component:p/r/a', to: 'component:p/r/b', type: 'depends_on', origin: 'depends_on' },
      ]);
      expect(nodeIds(g)).toEqual(['component:p/r/a', 'component:p/r/b']);
    } finally {
      removeTempDir(root);
    }
  });
});
