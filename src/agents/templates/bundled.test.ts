import { describe, expect, it } from 'vitest';
import { yaml } from '../../model/index.js';
import { VENDOR_IDS, VENDORS } from '../vendors.js';
import {
  bundledTemplatesDir,
  frontMatterProblems,
  listTemplates,
  renderTemplate,
  resolveTemplate,
  TEMPLATE_ID_RE,
} from './index.js';

const roots = { bundledDir: bundledTemplatesDir() };

/** The spec's archetype table (id, scope, category), in the catalog's order. */
const SPEC_TABLE = [
  ['orchestration-overseer', 'workspace', 'Control plane'],
  ['iac-coordinator', 'workspace', 'Control plane'],
  ['repo-implementer', 'repo', 'Execution'],
  ['graph-curator', 'workspace', 'Graph'],
  ['catalog-bootstrapper', 'workspace', 'Workspace ops'],
  ['upstream-triage', 'workspace', 'Workspace ops'],
  ['repo-enricher', 'repo', 'Catalog'],
  ['release-auditor', 'workspace', 'Quality'],
  ['secret-bootstrapper', 'workspace', 'Security'],
  ['agent-access-optimizer', 'repo', 'Catalog'],
];

/** Splits a rendered artifact into its front-matter (parsed) and body. */
function split(content: string): { fm: Record<string, unknown>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(content);
  expect(m, content.slice(0, 200)).not.toBeNull();
  return { fm: yaml().parse(m![1]!) as Record<string, unknown>, body: m![2]! };
}

describe('bundled agent templates', () => {
  it('are the ten archetypes of the spec table, bundled, in catalog order', () => {
    const { templates, problems } = listTemplates(roots);
    expect(problems).toEqual([]);
    expect(templates.map((t) => [t.id, t.manifest.scope, t.manifest.ui.category])).toEqual(SPEC_TABLE);
    for (const t of templates) {
      expect(t.source).toBe('bundled');
      expect(t.manifest.recommended_skills.length + t.manifest.external_skills.length).toBeGreaterThan(0);
      expect(Object.keys(t.manifest.inputs)).toContain('agent_id');
      for (const d of t.manifest.delegates_to) expect(SPEC_TABLE.map((r) => r[0])).toContain(d);
    }
  });

  it.each(SPEC_TABLE.map((r) => r[0]!))(
    '%s renders for every vendor with the front-matter it requires',
    (id) => {
      const t = resolveTemplate(id, roots);
      for (const v of VENDOR_IDS) {
        const vendor = VENDORS[v];
        const r = renderTemplate(t, {}, { vendor });
        const { fm, body } = split(r.content);
        expect(fm, `${id} ${v}`).toEqual(r.frontMatter);
        expect(frontMatterProblems(fm, vendor, id), `${id} ${v}`).toEqual([]);
        if (vendor.kind === 'skill') {
          expect(r.filename).toBe(`${id}/SKILL.md`);
          expect(fm.name).toBe(id);
          expect(TEMPLATE_ID_RE.test(String(fm.name))).toBe(true);
          expect(String(fm.description).length).toBeLessThanOrEqual(1024);
        } else {
          expect(r.filename).toBe(`${id}${vendor.agentSuffix}`);
          for (const k of vendor.frontMatter!.required) expect(fm[k], `${id} ${v} ${k}`).toBeDefined();
        }
        // Real guidance: hub commands, the MCP tools, no placeholder left unrendered.
        expect(body).toMatch(/`hub session begin`/);
        expect(body).toMatch(/hub_[a-z_]+/);
        expect(body).not.toMatch(/\{\{|\}\}/);
        expect(body.length).toBeGreaterThan(1500);
        expect(r.fragment).toMatch(new RegExp(`\\(\`${id}\`\\)`));
      }
    },
  );

  it('puts vendor hints in the front-matter in each vendor spelling', () => {
    const t = resolveTemplate('repo-implementer', roots);
    const fm = (v: (typeof VENDOR_IDS)[number]) => renderTemplate(t, {}, { vendor: VENDORS[v] }).frontMatter;
    // The template's own tools first, then the hub MCP tools it uses (and the toolset pair) in each vendor's naming.
    const hub = [...t.manifest.mcp_tools, 'hub_toolsets_list', 'hub_toolsets_enable'];
    expect(fm('claude_code')).toMatchObject({
      name: 'repo-implementer',
      model: 'inherit',
      tools: ['Read, Write, Edit, Bash, Grep, Glob', ...hub.map((n) => `mcp__hub__${n}`)].join(', '),
    });
    expect(fm('github_copilot')).toMatchObject({
      tools: ['read', 'edit', 'search', 'execute', ...hub.map((n) => `hub/${n}`)],
    });
    expect(fm('opencode')).toEqual({ description: t.manifest.description, mode: 'subagent' });
    expect(fm('cursor')).not.toHaveProperty('tools');
    expect(fm('codex')).toEqual({
      name: 'repo-implementer',
      description: t.manifest.description,
      compatibility: expect.stringContaining('hub CLI'),
    });
    const triage = resolveTemplate('upstream-triage', roots);
    expect(triage.manifest.vendors.opencode?.tools).toEqual({ write: false, edit: false });
    // OpenCode's tools map turns tools off; its hub tools (`<server>_<tool>`) are named on beside them.
    const map = renderTemplate(triage, {}, { vendor: VENDORS.opencode }).frontMatter.tools;
    expect(map).toEqual({
      write: false,
      edit: false,
      ...Object.fromEntries(
        [...triage.manifest.mcp_tools, 'hub_toolsets_list', 'hub_toolsets_enable'].map((n) => [
          `hub_${n}`,
          true,
        ]),
      ),
    });
  });

  it('renders answers into the body and the fragment', () => {
    const t = resolveTemplate('repo-implementer', roots);
    const r = renderTemplate(t, { agent_id: 'impl-7', merge_target: 'develop' }, { vendor: VENDORS.cursor });
    expect(r.body).toContain('--agent-id impl-7');
    expect(r.body).toContain('--into develop');
    expect(r.fragment).toContain('`develop`');
    expect(r.defaulted).toEqual(['lease_ttl']);
  });
});
