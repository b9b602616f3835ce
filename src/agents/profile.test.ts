import { describe, expect, it } from 'vitest';
import { Catalog } from '../catalog/index.js';
import { parseManifestText } from '../model/index.js';
import { agentProfileOf, parseTagFilters, selectProfileRepos } from './profile.js';

const MANIFEST = `workspace:
  name: w
  agent_instructions: Workspace rule.
  agent_profile: { skills: [code-review], mcp: [github], vendors: [claude_code, cursor] }
  projects:
    - name: p
      tags: { team: core, agent_tier: 2 }
      agent_instructions: "  "
      agent_profile: { skills: [terraform-review, code-review], rules: [p-rule] }
      repos:
        - name: r
          path: ./p/r
          tags: { team: api }
          agent_prompt: Legacy repo rule.
          agent_profile: { mcp: [postgres], tier: 0 }
          components:
            - name: c
              path: c
              agent_instructions: Component rule.
              agent_profile: { skills: [threat-modeling] }
        - name: tagged
          path: ./p/tagged
        - name: cursor-only
          path: ./p/cursor-only
          agent_profile: { vendors: [cursor] }
    - name: bare
      repos:
        - name: b
          path: ./bare/b
`;

const catalog = new Catalog(parseManifestText(MANIFEST, '/ws/.hub.yml'));
const bare = new Catalog(
  parseManifestText(
    'workspace:\n  projects:\n    - name: q\n      repos:\n        - { name: s, path: s }\n',
    '/x/.hub.yml',
  ),
);

describe('agentProfileOf', () => {
  it('layers workspace -> project -> repo, with each declared layer and the merged lists', () => {
    const p = agentProfileOf(catalog, { project: 'p', repo: 'r' });
    expect(p).toMatchObject({
      has_profile: true,
      skills: ['code-review', 'terraform-review'],
      mcp: ['github', 'postgres'],
      rules: ['p-rule'],
      vendors: ['claude_code', 'cursor'],
      tier: 0,
      tier_source: 'profile',
      tags: { team: 'api', agent_tier: 2 },
    });
    expect(p.layers.map((l) => l.id)).toEqual(['workspace', 'p', 'p/r']);
    expect(p.layers[2]!.profile).toEqual({ mcp: ['postgres'], tier: 0 });
  });

  it('falls back to the agent_tier tag when no profile sets a tier', () => {
    expect(agentProfileOf(catalog, { project: 'p', repo: 'tagged' })).toMatchObject({
      tier: 2,
      tier_source: 'tag',
    });
    expect(agentProfileOf(bare, { project: 'q', repo: 's' })).toMatchObject({
      has_profile: false,
      tier: null,
      tier_source: null,
      skills: [],
      layers: [],
    });
  });

  it('layers agent_instructions workspace -> repo -> component, legacy agent_prompt included, blanks skipped', () => {
    const p = agentProfileOf(catalog, { project: 'p', repo: 'r', component: 'c' });
    expect(p.skills).toEqual(['code-review', 'terraform-review', 'threat-modeling']);
    expect(p.effective_instructions.layers).toEqual([
      { scope: 'workspace', id: 'workspace', text: 'Workspace rule.' },
      { scope: 'repo', id: 'p/r', text: 'Legacy repo rule.' },
      { scope: 'component', id: 'p/r/c', text: 'Component rule.' },
    ]);
    const text = p.effective_instructions.text;
    expect(text.indexOf('Workspace rule.')).toBeLessThan(text.indexOf('Legacy repo rule.'));
    expect(text).toContain('### Component instructions (p/r/c)');
  });

  it('names an unknown project, repository or component with close names', () => {
    expect(() => agentProfileOf(catalog, { project: 'pp', repo: 'r' })).toThrow(
      /no project 'pp'.*did you mean 'p'/,
    );
    expect(() => agentProfileOf(catalog, { project: 'p', repo: 'rr' })).toThrow(/no repository 'rr'.*'r'/);
    expect(() => agentProfileOf(catalog, { project: 'p', repo: 'r', component: 'cc' })).toThrow(
      /component: no component 'cc' in p\/r; did you mean 'c'/,
    );
  });
});

describe('tag filters and the apply selection', () => {
  it('parses k=v and refuses anything else', () => {
    expect(parseTagFilters(['team=core', ' a = b '])).toEqual([
      { key: 'team', value: 'core' },
      { key: 'a', value: 'b' },
    ]);
    for (const bad of ['team', '=x', 'team=']) expect(() => parseTagFilters([bad])).toThrow(/not key=value/);
  });

  it('selects by merged project+repo tags and by the profile vendors', () => {
    const sel = selectProfileRepos(catalog, {
      project: 'p',
      tags: parseTagFilters(['team=core']),
      vendor: 'claude_code',
    });
    expect(sel.repos.map((r) => r.repo.id)).toEqual(['p/tagged']);
    expect(sel.skipped).toEqual([
      { repository: 'p/r', reason: 'tags', detail: 'tags do not match every --tag' },
      { repository: 'p/cursor-only', reason: 'vendor', detail: 'profile vendors are cursor' },
    ]);
    // Project tags reach every repository of the project; the workspace-wide selection leaves out other projects.
    expect(
      selectProfileRepos(catalog, { tags: parseTagFilters(['agent_tier=2']) }).repos.map((r) => r.repo.id),
    ).toEqual(['p/r', 'p/tagged', 'p/cursor-only']);
  });

  it('refuses a repo without a project and unknown names', () => {
    expect(() => selectProfileRepos(catalog, { repo: 'r' })).toThrow(/repo: needs project/);
    expect(() => selectProfileRepos(catalog, { project: 'nope' })).toThrow(/no project 'nope'/);
  });
});
