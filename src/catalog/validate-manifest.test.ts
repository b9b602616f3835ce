import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeManifest } from '../../test/fixtures/index.js';
import { lineOf, oneRepo, REPO, useValidateWorkspace } from '../../test/fixtures/validate-workspace.js';
import { parseManifestText } from '../model/manifest-file.js';
import { Catalog } from './catalog.js';
import { validateCatalog } from './validate.js';

describe('validateCatalog: profiles, relationships, locators and names', () => {
  const ws = useValidateWorkspace();
  const { run } = ws;

  it('reports invalid skill, MCP and rule ids inside a component agent_profile', () => {
    const text = oneRepo(`            - name: a
              path: a
              agent_profile:
                skills: [code-review, Bad_Skill, double--hyphen]
                mcp:
                  - github
                  - -leading-dash
                rules: [security/no-secrets, Upper/Case, trailing/]
`);
    const problems = run(text);
    const at = `${REPO}.components[0].agent_profile`;
    const skillsLine = lineOf(text, 'skills: [code-review');
    const rulesLine = lineOf(text, 'rules: [security');
    expect(problems.map((p) => [p.rule, p.path, p.line])).toEqual([
      ['invalid_skills_id', `${at}.skills[1]`, skillsLine],
      ['invalid_skills_id', `${at}.skills[2]`, skillsLine],
      ['invalid_mcp_id', `${at}.mcp[1]`, lineOf(text, '- -leading-dash')],
      ['invalid_rules_id', `${at}.rules[1]`, rulesLine],
      ['invalid_rules_id', `${at}.rules[2]`, rulesLine],
    ]);
    expect(problems[0]!.message).toContain("invalid skill id 'Bad_Skill'");
    expect(problems[2]!.message).toContain("invalid MCP id '-leading-dash'");
    expect(problems[3]!.message).toContain("invalid rule id 'Upper/Case'");
  });

  it('reports an over-long skill id and invalid ids on every scope', () => {
    const long = 'a'.repeat(65);
    const text = `agent_profile:
  skills: [${long}]
workspace:
  agent_profile:
    mcp: ['bad id']
  projects:
    - name: p
      agent_profile:
        rules: [Bad]
      repos:
        - name: r
          path: ./p/r
          agent_profile:
            skills: [UPPER]
`;
    const problems = run(text);
    expect(problems.map((p) => [p.rule, p.path, p.line])).toEqual([
      ['invalid_skills_id', 'agent_profile.skills[0]', 2],
      ['invalid_mcp_id', 'workspace.agent_profile.mcp[0]', 5],
      ['invalid_rules_id', 'workspace.projects[0].agent_profile.rules[0]', 9],
      ['invalid_skills_id', 'workspace.projects[0].repos[0].agent_profile.skills[0]', 14],
    ]);
  });

  it('reports relationships with a blank id, a duplicate id and unresolved endpoints', () => {
    const text = `${oneRepo(`            - name: a
              path: a
            - name: b
              path: b
`)}graph:
  nodes:
    - { project: ext, repo: billing }
  relationships:
    - id: '  '
      from: { project: p, repo: r, component: a }
      to: { project: p, repo: r, component: b }
      type: calls
    - id: ghost-target
      from: { project: p, repo: r, component: a }
      to: { project: p, repo: r, component: ghost }
      type: calls
    - id: ok-external
      from: { project: p, repo: r, path: a/src/x }
      to: { project: ext, repo: billing }
      type: calls
    - id: ok-external
      from: { project: nope, repo: r }
      to: { repo: r }
      type: calls
    - id: bad-path
      from: { project: p, repo: r, path: nowhere }
      to: { project: p, repo: r }
      type: uses
`;
    const problems = run(text);
    expect(problems.map((p) => [p.rule, p.path, p.line])).toEqual([
      ['relationship_id', 'graph.relationships[0].id', lineOf(text, "- id: '  '")],
      ['relationship_endpoint', 'graph.relationships[1].to', lineOf(text, 'component: ghost }')],
      ['relationship_id', 'graph.relationships[3].id', lineOf(text, '- id: ok-external', 2)],
      ['relationship_endpoint', 'graph.relationships[3].from', lineOf(text, 'from: { project: nope')],
      ['relationship_endpoint', 'graph.relationships[3].to', lineOf(text, 'to: { repo: r }')],
      ['relationship_endpoint', 'graph.relationships[4].from', lineOf(text, 'path: nowhere')],
    ]);
    expect(problems[0]!.message).toBe('relationship id must not be blank');
    expect(problems[1]!.message).toContain('component p/r/ghost is not in the catalog or graph.nodes');
    expect(problems[2]!.message).toBe("duplicate relationship id 'ok-external'");
    expect(problems[4]!.message).toContain('project and repo are required');
    expect(problems[5]!.message).toContain("path 'nowhere' in p/r");
  });

  it('reports a repo with both path and url, and with neither', () => {
    const text = `workspace:
  projects:
    - name: p
      repos:
        - name: both
          path: ./p/r
          url: https://example.com/both.git
        - name: neither
          description: no locator
        - name: fine
          url: https://example.com/fine.git
`;
    const problems = run(text);
    expect(problems.map((p) => [p.rule, p.path, p.line])).toEqual([
      ['repo_locator', 'workspace.projects[0].repos[0]', lineOf(text, '- name: both')],
      ['repo_locator', 'workspace.projects[0].repos[1]', lineOf(text, '- name: neither')],
    ]);
    expect(problems[0]!.message).toBe("repo 'p/both' has both path and url; give exactly one");
    expect(problems[1]!.message).toBe("repo 'p/neither' has neither path nor url; give exactly one");
  });

  it('reports a project name equal to a reserved name', () => {
    const text = `workspace:
  projects:
    - name: p
      repos: []
    - name: worktrees
      repos: []
    - name: campaigns
      repos: []
`;
    const problems = run(text, { filesystem: true, reservedNames: ['worktrees', 'campaigns', ''] });
    expect(problems.map((p) => [p.rule, p.path, p.line])).toEqual([
      ['reserved_project_name', 'workspace.projects[1].name', lineOf(text, '- name: worktrees')],
      ['reserved_project_name', 'workspace.projects[2].name', lineOf(text, '- name: campaigns')],
    ]);
    expect(problems[0]!.message).toContain("project name 'worktrees'");
    // Without reserved names the same manifest is valid.
    expect(run(text)).toEqual([]);
  });

  it('reports duplicate project and repo names', () => {
    const text = `workspace:
  projects:
    - name: p
      repos:
        - name: r
          path: ./p/r
        - name: r
          url: https://example.com/r.git
    - name: p
      repos: []
`;
    expect(run(text).map((p) => [p.rule, p.path, p.line])).toEqual([
      ['duplicate_repo', 'workspace.projects[0].repos[1].name', lineOf(text, '- name: r', 2)],
      ['duplicate_project', 'workspace.projects[1].name', lineOf(text, '- name: p', 2)],
    ]);
  });

  it('reports each component problem once even when a repo entry is duplicated', () => {
    const text = `workspace:
  projects:
    - name: p
      repos:
        - name: r
          path: ./p/r
          components:
            - { name: a, path: a, depends_on: [ghost] }
        - name: r
          url: https://example.com/r.git
          components:
            - { name: b, path: not-there }
`;
    expect(run(text).map((p) => [p.rule, p.path, p.line])).toEqual([
      ['duplicate_repo', 'workspace.projects[0].repos[1].name', lineOf(text, '- name: r', 2)],
      ['missing_directory', 'workspace.projects[0].repos[1].components[0].path', lineOf(text, 'not-there')],
      [
        'unknown_dependency',
        'workspace.projects[0].repos[0].components[0].depends_on[0]',
        lineOf(text, 'ghost'),
      ],
    ]);
  });

  it('lists every problem, not only the first', () => {
    mkdirSync(join(ws.outside, 'target'), { recursive: true });
    symlinkSync(join(ws.outside, 'target'), join(ws.root, 'p/r/link'));
    const text = `agent_profile:
  skills: [Nope]
workspace:
  projects:
    - name: worktrees
      repos:
        - name: r
          path: ./p/r
          components:
            - name: a
              path: a
              depends_on: [b, ghost]
              agent_profile:
                mcp: ['-x']
            - name: a
              path: ./a/
            - name: b
              path: b
              depends_on: [a]
            - name: up
              path: ../up
            - name: linked
              path: link
            - name: gone
              path: gone
        - name: both
          path: ./x
          url: https://example.com/x.git
        - name: neither
graph:
  relationships:
    - id: ''
      from: { project: worktrees, repo: r, component: a }
      to: { project: worktrees, repo: r, component: missing }
      type: calls
`;
    const problems = run(text, { filesystem: true, reservedNames: ['worktrees'] });
    expect(problems.map((p) => p.rule).sort()).toEqual(
      [
        'dependency_cycle',
        'duplicate_component',
        'duplicate_path',
        'invalid_mcp_id',
        'invalid_skills_id',
        'missing_directory',
        'path_escapes',
        'path_escapes',
        'relationship_endpoint',
        'relationship_id',
        'repo_locator',
        'repo_locator',
        'reserved_project_name',
        'unknown_dependency',
      ].sort(),
    );
    for (const p of problems) {
      expect(p.line).toBeGreaterThan(0);
      expect(p.message.length).toBeGreaterThan(0);
      const lineText = text.split('\n')[p.line! - 1]!;
      expect(lineText.trim()).not.toBe('');
    }
    const byRule = (rule: string) => problems.filter((p) => p.rule === rule);
    expect(byRule('unknown_dependency')[0]).toMatchObject({
      path: 'workspace.projects[0].repos[0].components[0].depends_on[1]',
      line: lineOf(text, 'depends_on: [b, ghost]'),
    });
    expect(byRule('missing_directory')[0]).toMatchObject({
      path: 'workspace.projects[0].repos[0].components[5].path',
      line: lineOf(text, 'path: gone'),
    });
    expect(byRule('path_escapes').map((p) => p.line)).toEqual([
      lineOf(text, 'path: ../up'),
      lineOf(text, 'path: link'),
    ]);
  });

  it('validates an application manifest (paths[] and local components[])', () => {
    mkdirSync(join(ws.root, 'web'), { recursive: true });
    mkdirSync(join(ws.root, 'api'), { recursive: true });
    const text = `kind: application
name: shop
paths:
  - path: web
  - path: ./web/
    name: web2
components:
  - name: api
    path: api
    depends_on: [nope]
  - name: web
    path: gone
  - name: identity
    ref: platform/identity
`;
    const problems = run(text);
    expect(problems.map((p) => [p.rule, p.path, p.line])).toEqual([
      ['duplicate_path', 'paths[1].path', lineOf(text, 'path: ./web/')],
      ['duplicate_component', 'components[1].name', lineOf(text, '- name: web')],
      ['missing_directory', 'components[1].path', lineOf(text, 'path: gone')],
      ['unknown_dependency', 'components[0].depends_on[0]', lineOf(text, 'depends_on: [nope]')],
    ]);
  });

  it('leaves line numbers out when the source text is not at hand', () => {
    const text = oneRepo(`            - name: a
              path: ../a
`);
    const path = writeManifest(ws.root, text);
    const { source: _source, ...file } = parseManifestText(text, path);
    const problems = validateCatalog(new Catalog(file), { filesystem: false });
    expect(problems).toEqual([
      {
        rule: 'path_escapes',
        path: `${REPO}.components[0].path`,
        line: undefined,
        column: undefined,
        message: expect.any(String),
      },
    ]);
  });
});
