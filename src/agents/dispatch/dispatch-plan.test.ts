import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../../../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from '../../../test/fixtures/index.js';
import { Catalog } from '../../catalog/index.js';
import { parseManifestText } from '../../model/index.js';
import { VENDORS } from '../vendors.js';
import { type DispatchInput, TASK_MAX_CHARS } from './dispatch-input.js';
import { dispatchPlan } from './dispatch-plan.js';

let dir: string;
let root: string;
let home: string;
let catalog: Catalog;

const TEMPLATE = {
  id: 'repo-implementer',
  label: 'Repo implementer',
  scope: 'repo' as const,
  category: 'Execution',
  source: 'bundled',
  recommended_skills: ['hub-workspace'],
  delegates_to: ['agent-access-optimizer'],
  vendors: null,
  limits: ['Never run terraform apply.'],
};

beforeAll(() => {
  dir = createTempDir('hub-dispatch-plan-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  home = join(dir, 'home');
  mkdirSync(home);
  catalog = new Catalog(parseManifestText(readFileSync(demo.manifestPath, 'utf8'), demo.manifestPath));
});
afterAll(() => removeTempDir(dir));

const input = (over: Partial<DispatchInput> = {}): DispatchInput => ({
  template: TEMPLATE,
  vendor: VENDORS.claude_code,
  project: 'platform',
  repo: 'identity',
  task: 'Rotate signing keys',
  scopes: { project: { base: join(root, 'platform/identity') }, user: { base: home } },
  claims: [],
  definitionArgs: [],
  ...over,
});

describe('dispatchPlan', () => {
  it('reports a missing agent with the create command to run in the repository', () => {
    const p = dispatchPlan(catalog, input());
    expect(p.install).toMatchObject({
      kind: 'agent',
      exists: false,
      path: join(root, 'platform/identity/.claude/agents/repo-implementer.md'),
      installed: false,
      needed: true,
      installed_in: null,
      command: 'hub agent create repo-implementer --vendor claude_code --scope project --install-skills',
      cwd: join(root, 'platform/identity'),
      project_scope: {
        path: join(root, 'platform/identity/.claude/agents/repo-implementer.md'),
        exists: false,
      },
      user_scope: { path: join(home, '.claude/agents/repo-implementer.md'), exists: false },
    });
  });

  it('finds the agent in the user scope, and a skill vendor artifact as <name>/SKILL.md', () => {
    mkdirSync(join(home, '.claude/agents'), { recursive: true });
    writeFileSync(join(home, '.claude/agents/repo-implementer.md'), '---\nname: repo-implementer\n---\n');
    expect(dispatchPlan(catalog, input()).install).toMatchObject({
      installed: true,
      installed_in: 'user',
      needed: false,
    });
    const codexDir = join(root, 'platform/identity/.agents/skills/repo-implementer');
    mkdirSync(codexDir, { recursive: true });
    writeFileSync(join(codexDir, 'SKILL.md'), '---\nname: repo-implementer\n---\n');
    expect(dispatchPlan(catalog, input({ vendor: VENDORS.codex })).install).toMatchObject({
      kind: 'skill',
      installed_in: 'project',
      project_scope: { path: join(codexDir, 'SKILL.md'), exists: true },
    });
  });

  it('does not count a symlink leading out of the scope as an installed agent', () => {
    const outside = join(dir, 'outside.md');
    writeFileSync(outside, 'x');
    mkdirSync(join(root, 'platform/gateway/.github/agents'), { recursive: true });
    symlinkSync(outside, join(root, 'platform/gateway/.github/agents/repo-implementer.agent.md'));
    const p = dispatchPlan(
      catalog,
      input({
        vendor: VENDORS.github_copilot,
        repo: 'gateway',
        scopes: {
          project: { base: join(root, 'platform/gateway') },
          user: { unavailable: 'no home folder' },
        },
      }),
    );
    expect(p.install.project_scope).toMatchObject({ exists: false, state: 'unreadable' });
    expect(p.install.user_scope).toMatchObject({ path: null, exists: false, problem: 'no home folder' });
    expect(p.install.installed).toBe(false);
  });

  it('lists required and missing profile skills for the vendor, and the apply command', () => {
    mkdirSync(join(home, '.claude/skills/code-review'), { recursive: true });
    writeFileSync(join(home, '.claude/skills/code-review/SKILL.md'), '---\nname: code-review\n---\n');
    const p = dispatchPlan(catalog, input());
    expect(p.required_profile_skills).toEqual(['code-review', 'terraform-review']);
    expect(p.missing_profile_skills).toEqual(['terraform-review']);
    expect(p.profile_apply_command).toBe(
      'hub agent apply --vendor claude_code --project platform --repo identity',
    );
  });

  it('hands off with the tiered pack, compile, the layered instructions and the prompt', () => {
    const p = dispatchPlan(catalog, input({ component: 'api', agentId: 'agent-7' }));
    expect(p.handoff).toMatchObject({
      tier: 1,
      context_pack_command: 'hub context pack --tier 1 --project platform --repo identity --json',
      context_compile_command:
        'hub context compile --project platform --repo identity --component api --json',
    });
    expect(p.handoff.effective_instructions.layers.map((l) => l.scope)).toEqual(['workspace', 'repo']);
    expect(p.handoff.prompt).toContain('Task: Rotate signing keys');
    expect(p.handoff.prompt).toContain(
      'hub claim declare --repository platform/identity --agent-id agent-7 --component api',
    );
    expect(p.handoff.prompt).toContain('Never log tokens or session ids.');
    expect(p.handoff.prompt_command).toBe(
      "hub prompt show repo-handoff --project platform --repo identity --component api --template repo-implementer --task 'Rotate signing keys' --agent-id agent-7",
    );
  });

  it('puts other repositories, foreign claims and the template limits out of scope', () => {
    const claim = {
      claim_id: 'c1',
      agent_id: 'other',
      patterns: ['services/api/**'],
      expires_at: '2030-01-01T00:00:00.000Z',
    };
    const p = dispatchPlan(catalog, input({ claims: [claim] }));
    expect(p.out_of_scope.repositories.count).toBe(catalog.repos.length - 1);
    expect(p.out_of_scope.repositories.ids).not.toContain('platform/identity');
    expect(p.out_of_scope.claims).toEqual([claim]);
    expect(p.out_of_scope.limits).toContain('Never run terraform apply.');
    expect(p.handoff.prompt).toContain('services/api/**: claimed by other until 2030-01-01T00:00:00.000Z');
  });

  it('launches the requested vendor first with a quoted prompt, cites every hint', () => {
    const p = dispatchPlan(catalog, input({ task: "Fix the user's login" }));
    const vendors = Object.keys(p.launch);
    expect(vendors[0]).toBe('claude_code');
    expect(vendors).toHaveLength(8);
    expect(p.launch.claude_code!.command).toMatch(
      /^claude --agent repo-implementer 'Fix the user'\\''s login \(repository/,
    );
    expect(p.launch.windsurf).toMatchObject({ kind: 'ide' });
    for (const h of Object.values(p.launch)) expect(h!.source).toMatch(/documentation|Docs/);
  });

  it('warns when the profile names other vendors', () => {
    expect(dispatchPlan(catalog, input({ vendor: VENDORS.cursor })).warnings).toEqual([
      'the agent_profile of platform/identity names vendors claude_code, codex, not cursor',
    ]);
  });

  it('refuses a target that does not fit the template, bad tasks and unknown names', () => {
    expect(() => dispatchPlan(catalog, input({ repo: undefined }))).toThrow(
      /repo: required: template repo-implementer is repo-scoped/,
    );
    expect(() => dispatchPlan(catalog, input({ project: undefined }))).toThrow(/repo: needs project/);
    expect(() => dispatchPlan(catalog, input({ task: 'x'.repeat(TASK_MAX_CHARS + 1) }))).toThrow(
      /task: 2001 characters/,
    );
    expect(() => dispatchPlan(catalog, input({ task: 'a\nb' }))).toThrow(/task: one line/);
    expect(() => dispatchPlan(catalog, input({ project: 'platfrom' }))).toThrow(/did you mean 'platform'/);
    expect(() => dispatchPlan(catalog, input({ component: 'apii' }))).toThrow(/did you mean 'api'/);
  });

  it('plans a workspace-scoped template without a repository', () => {
    const p = dispatchPlan(
      catalog,
      input({
        template: { ...TEMPLATE, scope: 'workspace' },
        project: undefined,
        repo: undefined,
        task: undefined,
      }),
    );
    expect(p).toMatchObject({ task: 'Repo implementer', project: null, repo: null });
    expect(p.handoff).toMatchObject({
      tier: 0,
      prompt: null,
      prompt_command: 'hub prompt show session-start',
    });
    expect(p.required_profile_skills).toBeUndefined();
    expect(p.out_of_scope.repositories.count).toBe(0);
  });
});
