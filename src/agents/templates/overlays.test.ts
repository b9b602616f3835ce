import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from '../../../test/fixtures/index.js';
import { HubError } from '../../infra/index.js';
import { VENDORS } from '../vendors.js';
import {
  bundledTemplatesDir,
  renderTemplate,
  resolveTemplate,
  type TemplateRoots,
  templateCatalog,
  validateTemplates,
} from './index.js';

let ws: string;
let roots: TemplateRoots;
const bundled = resolveTemplate('repo-implementer', { bundledDir: bundledTemplatesDir() }).manifest;

function put(rel: string, text: string): void {
  mkdirSync(dirname(join(ws, rel)), { recursive: true });
  writeFileSync(join(ws, rel), text);
}
const team = (id: string, file: string, text: string) => put(`.hub-agents/${id}/${file}`, text);
const mine = (id: string, file: string, text: string) => put(`.hub/.agent-templates/${id}/${file}`, text);

/** The error a call throws (the test fails when it throws none). */
function errorOf(fn: () => unknown): HubError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(HubError);
    return err as HubError;
  }
  throw new Error('expected an error');
}

beforeEach(() => {
  ws = createTempDir('hub-agent-overlay-');
  roots = { bundledDir: bundledTemplatesDir(), workspaceRoot: ws };
});
afterEach(() => removeTempDir(ws));

describe('overlay merge rules', () => {
  it('merges maps key by key: only the keys an overlay sets change, source merged', () => {
    team(
      'repo-implementer',
      'template.yaml',
      'ui:\n  sort_order: 5\ninputs:\n  merge_target:\n    default: develop\n',
    );
    const t = resolveTemplate('repo-implementer', roots);
    expect(t.source).toBe('merged');
    expect(t.manifest.ui).toEqual({ ...bundled.ui, sort_order: 5 });
    expect(t.manifest.inputs.merge_target).toEqual({ ...bundled.inputs.merge_target, default: 'develop' });
    expect(t.manifest.inputs.agent_id).toEqual(bundled.inputs.agent_id);
    expect(t.manifest.description).toBe(bundled.description);
    expect(renderTemplate(t, {}).body).toContain('--into develop');
  });

  it('replaces a list whole, appends with key+, removes with key-, and removes a key with null', () => {
    team(
      'repo-implementer',
      'template.yaml',
      [
        'recommended_skills: [team-review]',
        'recommended_skills+: [team-review, release-notes]',
        'mcp_tools-: [hub_run_open, hub_run_close]',
        'mcp_tools+: [hub_aos_next]',
        'delegates_to: null',
        'vendors:',
        '  claude_code:',
        '    tools: null',
        '  opencode: null',
        '',
      ].join('\n'),
    );
    const m = resolveTemplate('repo-implementer', roots).manifest;
    expect(m.recommended_skills).toEqual(['team-review', 'release-notes']);
    expect(m.mcp_tools).toEqual([
      ...bundled.mcp_tools.filter((x) => x !== 'hub_run_open' && x !== 'hub_run_close'),
      'hub_aos_next',
    ]);
    expect(m.delegates_to).toEqual([]); // removed, so the schema default
    expect(m.vendors.claude_code).toEqual({ model: 'inherit' });
    expect(m.vendors.opencode).toBeUndefined();
  });

  it('lets the personal overlay win over the team overlay, field by field and file by file', () => {
    team('repo-implementer', 'template.yaml', 'name: Team implementer\nui:\n  sort_order: 7\n');
    team('repo-implementer', 'body.md.tpl', 'team body {{agent_id}}\n');
    mine('repo-implementer', 'template.yaml', 'name: My implementer\n');
    mine('repo-implementer', 'AGENTS.md.fragment.tpl', 'mine {{name}}\n');
    const t = resolveTemplate('repo-implementer', roots);
    expect(t.manifest.name).toBe('My implementer');
    expect(t.manifest.ui.sort_order).toBe(7);
    expect(t.files.get('body.md.tpl')?.origin).toBe('committed');
    expect(t.files.get('AGENTS.md.fragment.tpl')?.origin).toBe('local');
    expect(t.files.get('hub-orient.md.tpl')?.origin).toBe('shared');
    const r = renderTemplate(t, { agent_id: 'x1' });
    expect(r.body).toBe('team body x1\n');
    expect(r.fragment).toBe('mine My implementer\n');
  });

  it('lists an overlay-only template with source overlay, and its overlay paths in the catalog', () => {
    team(
      'docs-writer',
      'template.yaml',
      'schema_version: 1\nname: Docs writer\ndescription: Writes docs.\nscope: repo\nui:\n  category: Docs\n',
    );
    team('docs-writer', 'body.md.tpl', '# {{name}}\n');
    team('repo-implementer', 'template.yaml', 'ui:\n  sort_order: 21\n');
    const cat = templateCatalog(roots);
    const byId = new Map(cat.templates.map((e) => [e.id, e]));
    expect(byId.get('docs-writer')).toMatchObject({
      source: 'overlay',
      overlay_paths: ['.hub-agents/docs-writer'],
    });
    expect(byId.get('repo-implementer')).toMatchObject({
      source: 'merged',
      overlay_paths: ['.hub-agents/repo-implementer'],
    });
    expect(byId.get('graph-curator')?.source).toBe('bundled');
    expect(byId.get('agent-access-optimizer')?.delegated_by).toEqual(['repo-implementer']);
    expect(cat.taxonomy.sources.find((s) => s.name === 'overlay')?.templates).toEqual(['docs-writer']);
    expect(cat.taxonomy.categories.map((c) => c.name)).toContain('Docs');
    expect(cat.problems).toEqual([]);
  });
});

describe('malformed overlays', () => {
  it('names the file, line and field of a schema error', () => {
    team('repo-implementer', 'template.yaml', '# team\nname: Implementer\nscope: galaxy\n');
    const err = errorOf(() => resolveTemplate('repo-implementer', roots));
    expect(err.code).toBe('validation');
    expect(err.message).toContain('.hub-agents/repo-implementer/template.yaml line 3: scope:');
    expect(err.details).toMatchObject({
      file: '.hub-agents/repo-implementer/template.yaml',
      line: 3,
      field: 'scope',
    });
  });

  it('names an unknown key at its own line', () => {
    team('repo-implementer', 'template.yaml', 'ui:\n  sort_order: 3\n  colour: red\n');
    const err = errorOf(() => resolveTemplate('repo-implementer', roots));
    expect(err.details).toMatchObject({ line: 3, field: 'ui.colour' });
    expect(err.message).toContain("unknown key(s) 'colour'");
  });

  it('names the line of a YAML syntax error', () => {
    mine('repo-implementer', 'template.yaml', 'name: ok\nui:\n  sort_order: [1,\n');
    const err = errorOf(() => resolveTemplate('repo-implementer', roots));
    expect(err.message).toMatch(/\.hub\/\.agent-templates\/repo-implementer\/template\.yaml line \d+/);
    expect((err.details as { file: string }).file).toBe(
      '.hub/.agent-templates/repo-implementer/template.yaml',
    );
  });

  it('refuses a list operator on a non-list, an id that is not its folder, and a built-in input name', () => {
    team('repo-implementer', 'template.yaml', 'name: x\nname+: [y]\n');
    expect(errorOf(() => resolveTemplate('repo-implementer', roots)).details).toMatchObject({
      line: 2,
      field: 'name+',
      rule: 'list_operator_target',
    });
    team('repo-implementer', 'template.yaml', 'id: other-id\n');
    expect(errorOf(() => resolveTemplate('repo-implementer', roots)).details).toMatchObject({
      line: 1,
      field: 'id',
      rule: 'id_matches_folder',
    });
    team('repo-implementer', 'template.yaml', 'inputs:\n  vendor:\n    question: q\n');
    expect(errorOf(() => resolveTemplate('repo-implementer', roots)).details).toMatchObject({
      line: 2,
      field: 'inputs.vendor',
      rule: 'builtin_variable',
    });
  });

  it('keeps the rest of the catalog when one overlay is broken, and reports it', () => {
    team('repo-implementer', 'template.yaml', 'scope: galaxy\n');
    const cat = templateCatalog(roots);
    expect(cat.templates.map((e) => e.id)).not.toContain('repo-implementer');
    expect(cat.templates).toHaveLength(9);
    expect(cat.problems).toEqual([
      expect.objectContaining({
        id: 'repo-implementer',
        file: '.hub-agents/repo-implementer/template.yaml',
        line: 1,
      }),
    ]);
  });
});

describe('variables and partials', () => {
  it('refuses an unknown variable at validate time with file, line and variable, and never renders it blank', () => {
    team('repo-implementer', 'body.md.tpl', '# {{name}}\n\nline two\nUse {{ agnet_id }} here.\n');
    const report = validateTemplates(roots, { id: 'repo-implementer' });
    expect(report.ok).toBe(false);
    expect(report.templates[0]!.issues).toEqual([
      expect.objectContaining({
        file: '.hub-agents/repo-implementer/body.md.tpl',
        line: 4,
        variable: 'agnet_id',
        rule: 'unknown_variable',
      }),
    ]);
    const err = errorOf(() => renderTemplate(resolveTemplate('repo-implementer', roots), {}));
    expect(err.message).toContain("body.md.tpl line 4: variable 'agnet_id'");
  });

  it('refuses dotted names, unknown partials, cycles and nesting deeper than three', () => {
    team('repo-implementer', 'body.md.tpl', '{{a.b}}\n{{> nope}}\n{{> loop}}\n{{> d1}}\n');
    team('repo-implementer', 'loop.md.tpl', 'x {{> loop}}\n');
    team('repo-implementer', 'd1.md.tpl', '{{> d2}}');
    team('repo-implementer', 'd2.md.tpl', '{{> d3}}');
    team('repo-implementer', 'd3.md.tpl', '{{> d4}}');
    team('repo-implementer', 'd4.md.tpl', 'deep');
    const issues = validateTemplates(roots, { id: 'repo-implementer' }).templates[0]!.issues;
    const rules = issues.filter((i) => i.file.endsWith('body.md.tpl')).map((i) => [i.line, i.rule]);
    expect(rules).toEqual(
      expect.arrayContaining([
        [1, 'unknown_variable'],
        [2, 'unknown_partial'],
      ]),
    );
    expect(issues.map((i) => i.rule)).toEqual(expect.arrayContaining(['partial_cycle', 'partial_depth']));
  });

  it('reports a syntax error with its line', () => {
    team('repo-implementer', 'body.md.tpl', 'one\ntwo {{#vendor_is_skill}}\nthree\n');
    const issues = validateTemplates(roots, { id: 'repo-implementer' }).templates[0]!.issues;
    expect(issues[0]).toMatchObject({
      file: '.hub-agents/repo-implementer/body.md.tpl',
      rule: 'template_syntax',
    });
    expect(issues[0]!.message).toContain('Unclosed section');
  });

  it('renders sections on the vendor kind', () => {
    team(
      'repo-implementer',
      'body.md.tpl',
      '{{#vendor_is_skill}}skill {{vendor}}{{/vendor_is_skill}}{{^vendor_is_skill}}agent{{/vendor_is_skill}}\n',
    );
    const t = resolveTemplate('repo-implementer', roots);
    expect(renderTemplate(t, {}, { vendor: VENDORS.codex }).body).toBe('skill codex\n');
    expect(renderTemplate(t, {}, { vendor: VENDORS.cursor }).body).toBe('agent\n');
  });
});

describe('answers', () => {
  it('names unknown answers and required answers without a default', () => {
    const t = resolveTemplate('repo-implementer', roots);
    expect(errorOf(() => renderTemplate(t, { agent_id: 'a', colour: 'red', size: 1 })).details).toMatchObject(
      {
        rule: 'known_input',
        unknown: ['colour', 'size'],
      },
    );
    team('repo-implementer', 'template.yaml', 'inputs:\n  ticket:\n    question: Ticket id\n');
    const t2 = resolveTemplate('repo-implementer', roots);
    const err = errorOf(() => renderTemplate(t2, {}));
    expect(err.details).toMatchObject({ rule: 'required_answer', missing: ['ticket'] });
    expect(renderTemplate(t2, { ticket: 'T-1' }).answers.ticket).toBe('T-1');
    expect(errorOf(() => renderTemplate(t2, { ticket: ['a'] })).details).toMatchObject({
      field: 'answers.ticket',
    });
  });

  it('takes default_from from the workspace, else the default', () => {
    const t = resolveTemplate('orchestration-overseer', roots);
    expect(renderTemplate(t, {}, { facts: { workspace_name: 'acme' } }).answers.workspace_name).toBe('acme');
    expect(renderTemplate(t, {}).answers.workspace_name).toBe('this workspace');
    expect(
      renderTemplate(t, { workspace_name: 'given' }, { facts: { workspace_name: 'acme' } }).answers
        .workspace_name,
    ).toBe('given');
  });
});

describe('paths', () => {
  it('refuses template ids that are not folder names', () => {
    for (const id of ['../x', 'a/b', '.hidden', 'UPPER', '', 'x'.repeat(65)])
      expect(errorOf(() => resolveTemplate(id, roots)).details).toMatchObject({
        field: 'id',
        rule: 'template_id',
      });
  });

  it('refuses a .tpl symlinked out of the workspace and an overlay folder that is a symlink out of it', () => {
    const outside = createTempDir('hub-agent-outside-');
    try {
      writeFileSync(join(outside, 'secret.md.tpl'), 'stolen\n');
      mkdirSync(join(ws, '.hub-agents', 'repo-implementer'), { recursive: true });
      symlinkSync(join(outside, 'secret.md.tpl'), join(ws, '.hub-agents', 'repo-implementer', 'body.md.tpl'));
      const err = errorOf(() => renderTemplate(resolveTemplate('repo-implementer', roots), {}));
      expect(err.details).toMatchObject({
        file: '.hub-agents/repo-implementer/body.md.tpl',
        rule: 'inside_workspace',
      });
      mkdirSync(join(outside, 'graph-curator'));
      symlinkSync(join(outside, 'graph-curator'), join(ws, '.hub-agents', 'graph-curator'));
      expect(errorOf(() => resolveTemplate('graph-curator', roots)).details).toMatchObject({
        rule: 'inside_workspace',
      });
    } finally {
      removeTempDir(outside);
    }
  });

  it('names an unknown template with did-you-mean', () => {
    const err = errorOf(() => resolveTemplate('repo-implementor', roots));
    expect(err.code).toBe('not_found');
    expect(err.message).toContain("did you mean 'repo-implementer'");
  });
});
