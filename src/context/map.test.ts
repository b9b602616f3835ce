import { describe, expect, it } from 'vitest';
import { Catalog } from '../catalog/index.js';
import { parseManifestText } from '../model/index.js';
import { buildWorkspaceMap, MAP_PAGE_DEFAULT } from './map.js';

function catalogOf(repos: number): Catalog {
  const lines = ['workspace:', '  name: big', '  projects:'];
  for (const p of ['alpha', 'beta']) {
    lines.push(`    - name: ${p}`, `      description: Project ${p}`, '      repos:');
    for (let i = 0; i < repos / 2; i++)
      lines.push(
        `        - name: r${i}`,
        `          path: ./${p}/r${i}`,
        '          tags: [x]',
        '          components:',
        `            - {name: c, path: c}`,
      );
  }
  return new Catalog(parseManifestText(`${lines.join('\n')}\n`, '/nowhere/.hub.yml'));
}

describe('workspace map (tier 0)', () => {
  it('pages by 80 repositories by default, with truncated and next_offset', () => {
    const catalog = catalogOf(200);
    const first = buildWorkspaceMap(catalog);
    expect(first.repos).toHaveLength(MAP_PAGE_DEFAULT);
    expect(first).toMatchObject({ offset: 0, limit: 80, total: 200, truncated: true, next_offset: 80 });
    expect(first.counts).toEqual({ projects: 2, repos: 200, components: 200 });
    const last = buildWorkspaceMap(catalog, { offset: 160 });
    expect(last.repos).toHaveLength(40);
    expect(last).toMatchObject({ truncated: false, next_offset: null });
    expect(last.repos[0]).toEqual({
      project: 'beta',
      repo: 'r60',
      path: 'beta/r60',
      status: 'missing',
      exists: false,
      tags: { x: true },
    });
  });

  it('honours the page size and the project and repo scope', () => {
    const catalog = catalogOf(20);
    expect(buildWorkspaceMap(catalog, { limit: 3 }).repos.map((r) => r.repo)).toEqual(['r0', 'r1', 'r2']);
    const beta = buildWorkspaceMap(catalog, { project: 'beta' });
    expect(beta.projects).toEqual([{ name: 'beta', repo_count: 10, description: 'Project beta' }]);
    expect(beta.active_project).toBe('beta');
    expect(beta.total).toBe(10);
    const one = buildWorkspaceMap(catalog, { project: 'alpha', repo: 'r3' });
    expect(one.repos.map((r) => `${r.project}/${r.repo}`)).toEqual(['alpha/r3']);
    expect(buildWorkspaceMap(catalog, { activeProject: 'alpha' }).active_project).toBe('alpha');
  });
});
