import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildGraphWorkspace, ECOSYSTEM_EDGES } from '../../test/fixtures/graph-workspace.js';
import { createTempDir, removeTempDir } from '../../test/fixtures/index.js';
import { Catalog, checkoutsOf } from '../catalog/index.js';
import { readManifestFile } from '../model/index.js';
import type { ExternalRepo, WorkspaceGraph } from './graph-types.js';
import { findNode, neighbors } from './neighbors.js';
import { buildWorkspaceGraph, type GraphOptions } from './workspace-graph.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) removeTempDir(d);
});

function graphOf(manifestPath: string, opts: Partial<GraphOptions> = {}): WorkspaceGraph {
  const catalog = new Catalog(readManifestFile(manifestPath));
  return buildWorkspaceGraph(catalog, checkoutsOf(catalog), {
    includeInferred: true,
    includeStructure: true,
    ...opts,
  });
}

const inferred = (g: WorkspaceGraph) => g.edges.filter((e) => e.source === 'inferred');

describe('workspace graph over real repositories of every ecosystem', () => {
  const ws = buildGraphWorkspace();
  dirs.push(ws.root);
  const g = graphOf(ws.manifestPath);

  it('has project and repo nodes; curated external nodes have no local path', () => {
    expect(g.ok).toBe(true);
    expect(g.nodes.filter((n) => n.kind === 'project').map((n) => n.id)).toEqual([
      'project:front',
      'project:back',
      'project:data',
      'project:core',
      'project:jvm',
      'project:ops',
    ]);
    expect(findNode(g, 'front/ui')).toMatchObject({
      id: 'repo:front/ui',
      kind: 'repo',
      identity: 'front/ui',
      provider: 'github',
      path: 'front/ui',
    });
    expect(findNode(g, 'back/api').provider).toBe('local');
    const sdk = findNode(g, 'repo:ext/sdk');
    expect(sdk).toMatchObject({
      presence: 'known',
      identity: 'github://acme-partner/sdk',
      provider: 'github',
    });
    expect(sdk.path).toBeUndefined();
  });

  it('infers one edge per ecosystem with the file and line that prove it', () => {
    const got = inferred(g).map((e) => ({
      from: e.from_id.slice(5),
      to: e.to_id.slice(5),
      ecosystem: e.evidence![0]!.ecosystem,
      file: e.evidence![0]!.file,
      line: e.evidence![0]!.line,
    }));
    expect(new Set(got.map((x) => JSON.stringify(x)))).toEqual(
      new Set(ECOSYSTEM_EDGES.map((x) => JSON.stringify(x))),
    );
    expect(g.inferred_edge_count).toBe(ECOSYSTEM_EDGES.length);
    const web = inferred(g).find((e) => e.from_id === 'repo:front/web' && e.to_id === 'repo:front/ui')!;
    expect(web).toMatchObject({ type: 'depends_on', label: 'npm @acme/ui' });
    expect(web.evidence![0]!.provided_by).toEqual({ file: 'package.json', line: 2 });
    const tokens = inferred(g).find((e) => e.to_id === 'repo:front/design-tokens')!;
    expect(tokens.evidence![0]!.provided_by.file).toBe('packages/tokens/package.json');
    const sub = inferred(g).find((e) => e.to_id === 'repo:ext/sdk')!;
    expect(sub).toMatchObject({ type: 'submodule', label: 'submodule vendor/sdk' });
    expect(sub.evidence![0]!.provided_by.file).toBe('.hub.yml');
  });

  it('has one structure edge per repository and reports what it read', () => {
    expect(g.structure_edge_count).toBe(17);
    expect(g.edges.find((e) => e.id === 'structure:back/api')).toMatchObject({
      from_id: 'project:back',
      to_id: 'repo:back/api',
      type: 'contains',
      source: 'structure',
    });
    expect(g.inference).toMatchObject({
      repos_scanned: 17,
      repos_missing: 0,
      repos_outside: [],
      skipped_count: 0,
    });
    expect(g.manual_edge_count).toBe(0);
  });

  it('leaves out inferred or structure edges when asked, and reads no file without inference', () => {
    const bare = graphOf(ws.manifestPath, { includeInferred: false, includeStructure: false });
    expect(bare.edges).toEqual([]);
    expect(bare.inference).toBeUndefined();
    expect(bare.nodes.length).toBe(g.nodes.length);
  });

  it('walks neighbours by depth and direction', () => {
    const one = neighbors(g, { node: 'front/ui', direction: 'in' });
    expect(one.origin).toBe('repo:front/ui');
    expect(one.nodes.map((n) => [n.id, n.distance]).sort()).toEqual(
      [
        ['project:front', 1],
        ['repo:front/app', 1],
        ['repo:front/ui', 0],
        ['repo:front/web', 1],
      ].sort(),
    );
    const two = neighbors(g, { node: 'repo:jvm/inventory', direction: 'in', depth: '2' });
    expect(two.nodes.find((n) => n.id === 'repo:jvm/payments')?.distance).toBe(2);
    const out = neighbors(g, { node: 'jvm/payments', direction: 'out', depth: 9 });
    expect(out.depth).toBe(5);
    expect(out.nodes.map((n) => n.id)).toEqual([
      'repo:jvm/payments',
      'repo:jvm/orders',
      'repo:jvm/inventory',
    ]);
    expect(() => neighbors(g, { node: 'front/uii' })).toThrow(/not in the workspace graph; did you mean/);
    expect(() => neighbors(g, { node: 'ui', depth: -1 })).toThrow(/depth must be an integer/);
  });
});

describe('manual edges and stale manual relationships', () => {
  const ws = buildGraphWorkspace([
    // Confirmed by inference: carries its evidence, no second edge.
    {
      id: 'web-ui',
      from: { project: 'front', repo: 'web' },
      to: { project: 'front', repo: 'ui' },
      type: 'depends-on',
    },
    // Reversed: the package files say auth <- api.
    {
      id: 'auth-api',
      from: { project: 'back', repo: 'auth' },
      to: { project: 'back', repo: 'api' },
      type: 'depends_on',
    },
    // Unsupported: reports has Python package files, billing publishes acme-billing, reports never names it.
    {
      id: 'reports-billing',
      from: { project: 'data', repo: 'reports' },
      to: { project: 'data', repo: 'billing' },
      type: 'depends_on',
    },
    // Reversed too (billing depends on ledger)...
    {
      id: 'ledger-billing',
      from: { project: 'data', repo: 'ledger' },
      to: { project: 'data', repo: 'billing' },
      type: 'requires',
    },
    // ...but a deprecated one is never reported.
    {
      id: 'old',
      from: { project: 'data', repo: 'ledger' },
      to: { project: 'data', repo: 'billing' },
      type: 'requires',
      status: 'deprecated',
    },
    // A runtime call says nothing package files could check.
    {
      id: 'calls',
      from: { project: 'back', repo: 'auth' },
      to: { project: 'back', repo: 'api' },
      type: 'calls',
    },
    // Component endpoints are drawn on their repository.
    {
      id: 'worker-auth',
      from: { project: 'back', repo: 'worker', component: 'worker' },
      to: { project: 'back', repo: 'auth' },
      type: 'uses',
      label: 'tokens',
    },
  ]);
  dirs.push(ws.root);

  it('merges a manual edge inference confirms and lists contradictions; deprecated never', () => {
    const g = graphOf(ws.manifestPath);
    const webUi = g.edges.filter((e) => e.from_id === 'repo:front/web' && e.to_id === 'repo:front/ui');
    expect(webUi).toHaveLength(1);
    expect(webUi[0]).toMatchObject({ source: 'manual', relationship_id: 'web-ui', status: 'active' });
    expect(webUi[0]!.evidence![0]).toMatchObject({ file: 'package.json', line: 5 });
    expect(g.manual_edge_count).toBe(7);
    expect(g.inferred_edge_count).toBe(ECOSYSTEM_EDGES.length - 1);
    expect(g.edges.find((e) => e.id === 'manual:worker-auth')).toMatchObject({
      from_id: 'repo:back/worker',
      from_component: 'worker',
      label: 'tokens',
    });
    expect(g.stale_manual.map((s) => [s.relationship_id, s.reason])).toEqual([
      ['auth-api', 'contradicted'],
      ['reports-billing', 'contradicted'],
      ['ledger-billing', 'contradicted'],
    ]);
    expect(g.stale_manual[0]!.message).toMatch(/repo:back\/api depends on repo:back\/auth/);
    expect(g.stale_manual[1]!.message).toMatch(
      /repo:data\/reports's python package files never name acme-billing/,
    );
    expect(g.stale_manual[2]!.message).toMatch(/say repo:data\/billing depends on repo:data\/ledger/);
  });

  it('reports an endpoint whose folder is gone, and contradictions only with inference', () => {
    rmSync(join(ws.root, 'front', 'web'), { recursive: true, force: true });
    const g = graphOf(ws.manifestPath, { includeInferred: false });
    expect(g.stale_manual).toEqual([
      {
        relationship_id: 'web-ui',
        reason: 'endpoint_missing',
        endpoint: 'from',
        message: expect.stringMatching(/front\/web.*gone from disk/),
      },
    ]);
  });
});

describe('external repositories from the organization index', () => {
  it('shows indexed repositories without a local path and merges a materialized one', () => {
    const ws = buildGraphWorkspace();
    dirs.push(ws.root);
    const external: ExternalRepo[] = [
      {
        identity: 'github://acme/ui',
        provider: 'github',
        organization: 'acme',
        name: 'ui',
        url: 'https://github.com/acme/ui',
        presence: 'indexed',
      },
      {
        identity: 'github://acme/radar',
        provider: 'github',
        organization: 'acme',
        name: 'radar',
        presence: 'indexed',
      },
    ];
    const g = graphOf(ws.manifestPath, { external });
    expect(findNode(g, 'repo:front/ui')).toMatchObject({
      identity: 'github://acme/ui',
      presence: 'materialized',
      path: 'front/ui',
    });
    const radar = findNode(g, 'github://acme/radar');
    expect(radar).toMatchObject({ id: 'repo:github://acme/radar', presence: 'indexed', kind: 'repo' });
    expect(radar.path).toBeUndefined();
  });
});

describe('reading package files safely', () => {
  it('skips symlinks out of the repository, FIFOs, oversized and broken files, and repos outside', () => {
    const outside = createTempDir('hub-graph-outside-');
    dirs.push(outside);
    writeFileSync(
      join(outside, 'package.json'),
      JSON.stringify({ name: 'secret', dependencies: { '@acme/ui': '1' } }),
    );
    const ws = buildGraphWorkspace();
    dirs.push(ws.root);
    const web = join(ws.root, 'front', 'web');
    rmSync(join(web, 'package.json'));
    symlinkSync(join(outside, 'package.json'), join(web, 'package.json'));
    writeFileSync(join(ws.root, 'back', 'auth', 'go.mod'), `module x\n${'// pad\n'.repeat(200_000)}`);
    writeFileSync(join(ws.root, 'data', 'ledger', 'pyproject.toml'), '[project\nname = ');
    rmSync(join(ws.root, 'core', 'mathlib', 'Cargo.toml'));
    execFileSync('mkfifo', [join(ws.root, 'core', 'mathlib', 'Cargo.toml')]);
    // A repository whose checkout is a symlink out of the workspace is not read at all.
    rmSync(join(ws.root, 'ops', 'charts'), { recursive: true });
    mkdirSync(join(outside, 'charts', 'charts', 'acme-common'), { recursive: true });
    writeFileSync(join(outside, 'charts', 'charts', 'acme-common', 'Chart.yaml'), 'name: acme-common\n');
    symlinkSync(join(outside, 'charts'), join(ws.root, 'ops', 'charts'));

    const g = graphOf(ws.manifestPath);
    const rules = g.inference!.skipped.map((s) => [s.repo, s.file, s.rule]);
    expect(rules).toEqual(
      expect.arrayContaining([
        ['front/web', 'package.json', 'inside_root'],
        ['back/auth', 'go.mod', 'max_size'],
        ['data/ledger', 'pyproject.toml', 'parse'],
        ['core/mathlib', 'Cargo.toml', 'regular_file'],
      ]),
    );
    expect(g.inference!.repos_outside).toEqual(['ops/charts']);
    const targets = inferred(g).map((e) => `${e.from_id}->${e.to_id}`);
    expect(targets).not.toContain('repo:front/web->repo:front/ui');
    expect(targets).not.toContain('repo:back/api->repo:back/auth');
    expect(targets).not.toContain('repo:ops/deploy->repo:ops/charts');
    expect(JSON.stringify(g)).not.toContain('secret');
  });

  it('skips package files nested 100,000 deep with the limit named, never parsing them (issue 25)', () => {
    const ws = buildGraphWorkspace();
    dirs.push(ws.root);
    const n = 100_000;
    const deep = (open: string, close: string) => `${open.repeat(n)}${close.repeat(n)}`;
    writeFileSync(
      join(ws.root, 'core', 'mathlib', 'Cargo.toml'),
      `[package]\nname = "m"\nx = ${deep('[', ']')}\n`,
    );
    writeFileSync(
      join(ws.root, 'data', 'ledger', 'pyproject.toml'),
      `[project]\nx = ${deep('{a = ', '}')}\n`,
    );
    mkdirSync(join(ws.root, 'jvm', 'orders', 'gradle'), { recursive: true });
    writeFileSync(
      join(ws.root, 'jvm', 'orders', 'gradle', 'libs.versions.toml'),
      `[libraries]\nx = ${deep('[', ']')}\n`,
    );
    writeFileSync(join(ws.root, 'ops', 'charts', 'Chart.yaml'), `name: c\nx: ${deep('[', ']')}\n`);
    const g = graphOf(ws.manifestPath);
    const skips = g.inference!.skipped.filter((s) => s.rule === 'max_depth').map((s) => [s.repo, s.file]);
    expect(skips).toEqual(
      expect.arrayContaining([
        ['core/mathlib', 'Cargo.toml'],
        ['data/ledger', 'pyproject.toml'],
        ['jvm/orders', 'gradle/libs.versions.toml'],
        ['ops/charts', 'Chart.yaml'],
      ]),
    );
    for (const s of g.inference!.skipped) expect(s.reason).not.toMatch(/Maximum call stack/);
    expect(g.inference!.skipped.find((s) => s.file === 'Cargo.toml')?.reason).toMatch(
      /^nests deeper than the limit of 128 levels at line 3, column \d+ \(max_depth\)$/,
    );
  });

  it('reads a manifest of workspace members without following them out of the repository', () => {
    const ws = buildGraphWorkspace();
    dirs.push(ws.root);
    const tokens = join(ws.root, 'front', 'design-tokens');
    writeFileSync(
      join(tokens, 'package.json'),
      JSON.stringify({ name: 'm', workspaces: ['../../back/*', 'packages/*'] }),
    );
    const g = graphOf(ws.manifestPath);
    expect(g.inference!.skipped).toContainEqual(
      expect.objectContaining({ repo: 'front/design-tokens', rule: 'inside_root', file: '../../back/*' }),
    );
    expect(readFileSync(join(tokens, 'package.json'), 'utf8')).toContain('"m"');
  });
});
