import { describe, expect, it } from 'vitest';
import { Catalog } from '../catalog/index.js';
import { parseManifestText } from '../model/index.js';
import { effectiveProfile, mergeProfiles, profileLayers } from './effective-profile.js';

const MANIFEST = `workspace:
  name: w
  agent_profile: { skills: [code-review], mcp: [github], rules: [base], vendors: [claude_code, cursor], tier: 1 }
  projects:
    - name: p
      agent_profile: { skills: [terraform-review, code-review], rules: [p-rule], vendors: [codex] }
      repos:
        - name: r
          path: ./p/r
          agent_profile: { mcp: [postgres], tier: 2 }
          components:
            - name: c
              path: c
              agent_profile: { skills: [threat-modeling], rules: [base] }
            - name: isolated
              path: isolated
              agent_profile: { inherit: false, skills: [only-this] }
            - name: plain
              path: plain
        - name: bare
          path: ./p/bare
`;

const catalog = new Catalog(parseManifestText(MANIFEST, '/ws/.hub.yml'));

describe('effective agent profile', () => {
  it('merges workspace -> project -> repo -> component: lists as ordered unions, vendors and tier replaced', () => {
    const p = effectiveProfile(catalog, { project: 'p', repo: 'r', component: 'c' })!;
    expect(p.skills).toEqual(['code-review', 'terraform-review', 'threat-modeling']);
    expect(p.mcp).toEqual(['github', 'postgres']);
    expect(p.rules).toEqual(['base', 'p-rule']);
    expect(p.vendors).toEqual(['codex']);
    expect(p.tier).toBe(2);
    expect(p.layers.map((l) => l.scope)).toEqual(['workspace', 'project', 'repo', 'component']);
    expect(p.inherit_stopped_at).toBeNull();
  });

  it('inherit: false discards the enclosing scopes', () => {
    const p = effectiveProfile(catalog, { project: 'p', repo: 'r', component: 'isolated' })!;
    expect(p).toMatchObject({ skills: ['only-this'], mcp: [], rules: [], vendors: null, tier: null });
    expect(p.inherit_stopped_at).toBe('p/r/isolated');
    expect(p.layers).toEqual([{ scope: 'component', id: 'p/r/isolated' }]);
  });

  it('a component without a profile inherits the repository merge unchanged', () => {
    const c = effectiveProfile(catalog, { project: 'p', repo: 'r', component: 'plain' })!;
    const r = effectiveProfile(catalog, { project: 'p', repo: 'r' })!;
    expect({ ...c, layers: [] }).toEqual({ ...r, layers: [] });
  });

  it('an unknown component yields no profile, never the repository one', () => {
    expect(effectiveProfile(catalog, { project: 'p', repo: 'r', component: 'nope' })).toBeNull();
    expect(profileLayers(catalog, { project: 'p', repo: 'r', component: 'nope' })).toBeUndefined();
    expect(effectiveProfile(catalog, { project: 'p', repo: 'missing' })).toBeNull();
    expect(effectiveProfile(catalog, { project: 'nope' })).toBeNull();
  });

  it('scopes without profiles add nothing; project and workspace targets work', () => {
    expect(effectiveProfile(catalog, { project: 'p', repo: 'bare' })!.vendors).toEqual(['codex']);
    expect(effectiveProfile(catalog, { project: 'p' })!.tier).toBe(1);
    expect(mergeProfiles([])).toMatchObject({ skills: [], vendors: null, tier: null, layers: [] });
  });

  it('uses the top-level agent_profile of an application manifest as the workspace scope', () => {
    const app = new Catalog(
      parseManifestText(
        'name: shop\nagent_profile: { skills: [a] }\npaths:\n  - path: api\n    agent_profile: { skills: [b] }\n',
        '/app/.hub.yml',
      ),
    );
    expect(effectiveProfile(app, { project: 'shop', repo: 'shop', component: 'api' })!.skills).toEqual([
      'a',
      'b',
    ]);
  });
});
