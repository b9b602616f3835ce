import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../examples/demo-workspace.mjs';
import { createTempDir, git, removeTempDir } from '../../test/fixtures/index.js';
import { Catalog } from '../catalog/index.js';
import { readManifestFile } from '../model/index.js';
import { workspaceHealth } from './health.js';
import { workspaceList } from './list.js';
import { gradeOf, inactiveSummary, readinessSummary } from './summary.js';

let tmp: string;
let root: string;
let catalog: Catalog;

beforeAll(() => {
  tmp = createTempDir('hub-summary-');
  const demo = createDemo(join(tmp, 'demo'));
  root = demo.root;
  catalog = new Catalog(readManifestFile(demo.manifestPath));
});
afterAll(() => removeTempDir(tmp));

describe('workspace health', () => {
  it('reports checkouts, git state and ranks findings', async () => {
    const clean = await workspaceHealth(catalog, { repos: catalog.repos, git: true });
    expect(clean.status).toBe('healthy');
    expect(clean.findings).toEqual([
      expect.objectContaining({
        severity: 'info',
        code: 'not_cloned',
        repository: 'platform/legacy-billing',
      }),
    ]);
    const web = join(root, 'storefront/web');
    writeFileSync(join(web, 'wip.txt'), 'x\n');
    git(web, ['checkout', '-q', '--detach', 'HEAD~1']);
    mkdirSync(join(root, 'platform/legacy-billing'));
    const h = await workspaceHealth(catalog, { repos: catalog.repos, git: true });
    expect(h.status).toBe('unhealthy');
    expect(h.findings.map((f) => `${f.severity} ${f.code} ${f.repository}`)).toEqual([
      'critical not_a_git_repo platform/legacy-billing',
      'warning detached_head storefront/web',
      'info uncommitted_changes storefront/web',
    ]);
    expect((await workspaceHealth(catalog, { repos: catalog.repos, git: false })).counts).toEqual({
      critical: 1,
      warning: 0,
      info: 0,
    });
    git(web, ['checkout', '-q', 'main']);
  });
});

describe('readiness summary', () => {
  it('scores four dimensions of 25 and grades the total', async () => {
    const health = await workspaceHealth(catalog, { repos: catalog.repos, git: false });
    const s = readinessSummary(catalog, health);
    expect(s.dimensions.map((d) => d.name)).toEqual([
      'tool_gate',
      'repos_present',
      'maintenance',
      'agent_surfaces',
    ]);
    expect(s.dimensions.every((d) => d.max === 25)).toBe(true);
    // legacy-billing is a plain folder now: on disk (6 of 6) but a critical finding (25 - 5).
    expect(s.dimensions[1]!.score).toBe(25);
    expect(s.dimensions[2]!.score).toBe(20);
    expect(s.score).toBe(Math.round(s.dimensions.reduce((n, d) => n + d.score, 0)));
    expect(s.grade).toBe(gradeOf(s.score));
    expect(s.blockers.some((b) => b.includes('not a git repository'))).toBe(true);
    writeFileSync(join(root, 'platform/identity/AGENTS.md'), '# agents\n');
    writeFileSync(join(root, 'platform/identity/llms.txt'), 'x\n');
    const more = readinessSummary(catalog, health);
    expect(more.dimensions[3]!.score).toBeGreaterThan(s.dimensions[3]!.score);
  });

  it('grades at 90, 75 and 50', () => {
    expect([100, 90, 89, 75, 74, 50, 49, 0].map(gradeOf)).toEqual([
      'excellent',
      'excellent',
      'good',
      'good',
      'fair',
      'fair',
      'poor',
      'poor',
    ]);
    expect(inactiveSummary('inactive_missing_config', 'no .hub.yml')).toMatchObject({
      score: 0,
      grade: 'poor',
      gate: 'inactive_missing_config',
      suggested_commands: ['hub init'],
    });
  });
});

describe('workspace list', () => {
  it('pages, and adds the workspace object only on request', () => {
    const page = workspaceList(catalog, { limit: 4 });
    expect(page).toMatchObject({ total: 6, offset: 0, limit: 4, truncated: true, next_offset: 4 });
    expect(page.workspace).toBeUndefined();
    expect(page.repos[0]).toMatchObject({
      id: 'platform/identity',
      path: 'platform/identity',
      components: 4,
    });
    const rest = workspaceList(catalog, { offset: 4, includeWorkspace: true });
    expect(rest.repos.map((r) => r.id)).toEqual(['storefront/web', 'storefront/catalog']);
    expect(rest.next_offset).toBeNull();
    expect(rest.workspace).toMatchObject({ name: 'demo', kind: 'workspace' });
    expect(workspaceList(catalog, { project: 'storefront' }).projects).toEqual([
      { name: 'storefront', description: 'The shop customers see.', repo_count: 2, tags: {} },
    ]);
    // Project tags ride along, so a reader can merge them under the repo's own (the UI's `tag:` filter does).
    expect(page.projects.find((p) => p.name === 'platform')?.tags).toEqual({ team: 'platform' });
  });
});
