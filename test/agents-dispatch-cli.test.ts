import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'shell-quote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { connectHub } from './mcp-client.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;
let manifest: string;
let env: Record<string, string>;

/** The demo manifest with more layers: a component that stops inheritance, an agent_tier tag, a legacy prompt. */
function layerDemo(text: string): string {
  return text
    .replace(
      '              agent_profile:\n                skills: [threat-modeling]',
      '              agent_profile:\n                skills: [threat-modeling]\n                inherit: false',
    )
    .replace('          tags: [python, search]', '          tags: { lang: python, agent_tier: 2 }')
    .replace(
      '      description: The shop customers see.',
      '      description: The shop customers see.\n      agent_prompt: Storefront copy is reviewed by marketing.',
    );
}

beforeAll(() => {
  dir = createTempDir('hub-agents-dispatch-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
  writeFileSync(manifest, layerDemo(readFileSync(manifest, 'utf8')));
  // Every spawned hub gets a temporary home: nothing here may read or write the real one.
  env = { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg') };
  mkdirSync(env.HOME!, { recursive: true });
});
afterAll(() => removeTempDir(dir));

const hub = (args: string[]) => runHub(['-c', manifest, ...args], { env, cwd: root });
const json = (args: string[]) => {
  const r = hub([...args, '--json']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json();
};

describe('agent profile show (built CLI)', () => {
  it('merges workspace -> project -> repo and layers the instructions', () => {
    const p = json(['agent', 'profile', 'show', '-p', 'platform', '-n', 'identity']);
    expect(p).toMatchObject({
      project_name: 'platform',
      repo_name: 'identity',
      has_profile: true,
      skills: ['code-review', 'terraform-review'],
      mcp: ['github', 'postgres'],
      rules: ['security/no-secrets', 'platform/change-control', 'security/auth-review'],
      vendors: ['claude_code', 'codex'],
      tier: 1,
      tier_source: 'profile',
    });
    expect(p.layers.map((l: { id: string }) => l.id)).toEqual(['workspace', 'platform', 'platform/identity']);
    expect(p.effective_instructions.layers.map((l: { scope: string }) => l.scope)).toEqual([
      'workspace',
      'repo',
    ]);
  });

  it('a component with inherit: false keeps only its own profile; instructions still layer', () => {
    const p = json([
      'agent',
      'profile',
      'show',
      '-p',
      'platform',
      '-n',
      'identity',
      '--component',
      'auth-plugin',
    ]);
    expect(p).toMatchObject({ skills: ['threat-modeling'], mcp: [], vendors: null, tier: null });
    expect(p.inherit_stopped_at).toBe('platform/identity/auth-plugin');
    expect(p.effective_instructions.layers.map((l: { text: string }) => l.text)).toEqual([
      "Keep changes small and run each component's test command before handing off.",
      'Never log tokens or session ids.',
      'Changes here need a security review.',
    ]);
  });

  it('reads a legacy agent_prompt as project instructions and an agent_tier tag as the tier', () => {
    const p = json(['agent', 'profile', 'show', '--project', 'storefront', '--repo', 'catalog']);
    // The workspace tier (1) is a profile tier: the tag only fills in where no profile sets one.
    expect(p).toMatchObject({ tier: 1, tier_source: 'profile', tags: { lang: 'python', agent_tier: 2 } });
    expect(p.effective_instructions.layers.map((l: { scope: string }) => l.scope)).toEqual([
      'workspace',
      'project',
      'repo',
    ]);
    expect(p.effective_instructions.text).toContain('Storefront copy is reviewed by marketing.');
  });

  it('prints a readable profile without --json', () => {
    const r = hub(['agent', 'profile', 'show', '-p', 'storefront', '-n', 'web']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('skills: code-review, frontend-testing');
    expect(r.stdout).toContain('vendors: cursor, github_copilot, windsurf');
    expect(r.stdout).toContain('### Workspace instructions (workspace)');
  });

  it('names an unknown repository or component with close names (exit 1, JSON error)', () => {
    const r = hub(['agent', 'profile', 'show', '-p', 'platform', '-n', 'identiy', '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({
      code: 'not_found',
      details: { field: 'repo', value: 'identiy', suggestions: ['identity'] },
    });
    const c = hub([
      'agent',
      'profile',
      'show',
      '-p',
      'platform',
      '-n',
      'identity',
      '--component',
      'ap',
      '--json',
    ]);
    expect(c.json().error).toMatchObject({ details: { field: 'component', suggestions: ['api'] } });
  });
});

describe('agent dispatch-plan (built CLI)', () => {
  const plan = (args: string[]) => json(['agent', 'dispatch-plan', ...args]);

  it('reports missing agent and profile skills, then finds them once installed in either scope', () => {
    const before = plan([
      'repo-implementer',
      '--vendor',
      'claude_code',
      '-p',
      'platform',
      '-n',
      'identity',
      '--task',
      'Rotate keys',
    ]);
    expect(before.install).toMatchObject({
      installed: false,
      needed: true,
      cwd: join(root, 'platform/identity'),
      command: 'hub agent create repo-implementer --vendor claude_code --scope project --install-skills',
    });
    expect(before.required_profile_skills).toEqual(['code-review', 'terraform-review']);
    expect(before.missing_profile_skills).toEqual(['code-review', 'terraform-review']);
    expect(before.profile_apply_command).toBe(
      'hub agent apply --vendor claude_code --project platform --repo identity',
    );

    // The agent in the repository (project scope), one skill in the temporary home (user scope).
    mkdirSync(join(root, 'platform/identity/.claude/agents'), { recursive: true });
    writeFileSync(
      join(root, 'platform/identity/.claude/agents/repo-implementer.md'),
      '---\nname: repo-implementer\n---\n',
    );
    mkdirSync(join(env.HOME!, '.claude/skills/terraform-review'), { recursive: true });
    writeFileSync(
      join(env.HOME!, '.claude/skills/terraform-review/SKILL.md'),
      '---\nname: terraform-review\n---\n',
    );
    const after = plan(['repo-implementer', '--vendor', 'claude_code', '-p', 'platform', '-n', 'identity']);
    expect(after.install).toMatchObject({
      installed: true,
      installed_in: 'project',
      needed: false,
      project_scope: { state: 'none' },
    });
    expect(after.missing_profile_skills).toEqual(['code-review']);
    expect(after.task).toBe('Repo implementer');
  });

  it('the suggested create command, run where the plan says, installs what the next plan finds', () => {
    const args = ['repo-implementer', '--vendor', 'github_copilot', '-p', 'storefront', '-n', 'catalog'];
    const before = plan(args);
    expect(before.install.installed).toBe(false);
    const words = parse(before.install.command) as string[];
    expect(words.slice(0, 3)).toEqual(['hub', 'agent', 'create']);
    const r = runHub([...words.slice(1), '--json'], { env, cwd: before.install.cwd });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const after = plan(args);
    expect(after.install).toMatchObject({
      installed: true,
      installed_in: 'project',
      project_scope: {
        path: join(root, 'storefront/catalog/.github/agents/repo-implementer.agent.md'),
        state: 'intact',
      },
    });
  });

  it('puts live claims of other agents out of scope, but not the dispatched agent own', () => {
    const claim = (agent: string, pattern: string) =>
      json(['claim', 'declare', '--repository', 'storefront/web', '--agent-id', agent, '--pattern', pattern]);
    claim('other-agent', 'apps/storefront/**');
    claim('me', 'packages/ui/**');
    const p = plan([
      'repo-implementer',
      '--vendor',
      'cursor',
      '-p',
      'storefront',
      '-n',
      'web',
      '--agent-id',
      'me',
    ]);
    expect(
      p.out_of_scope.claims.map((c: { agent_id: string; patterns: string[] }) => [c.agent_id, c.patterns]),
    ).toEqual([['other-agent', ['apps/storefront/**']]]);
    expect(p.handoff.prompt).toContain('apps/storefront/**: claimed by other-agent');
    expect(p.handoff.prompt).not.toContain('packages/ui/**');
    // No agent_profile here is "none": the storefront profile applies, and cursor is one of its vendors.
    expect(p.warnings).toEqual([]);
    expect(p.launch.cursor.command).toMatch(/^agent 'Use the repo-implementer subagent\. /);
  });

  it('the hand-off prompt is the one prompt show repo-handoff prints', () => {
    const p = plan([
      'repo-implementer',
      '--vendor',
      'codex',
      '-p',
      'platform',
      '-n',
      'gateway',
      '--task',
      'Add rate limits',
      '--agent-id',
      'a1',
    ]);
    const shown = json([
      'prompt',
      'show',
      'repo-handoff',
      '-p',
      'platform',
      '-n',
      'gateway',
      '--template',
      'repo-implementer',
      '--task',
      'Add rate limits',
      '--agent-id',
      'a1',
    ]);
    expect(shown.text).toBe(p.handoff.prompt);
    // The printed command, parsed as a shell would, prints the same text.
    const r = hub((parse(p.handoff.prompt_command) as string[]).slice(1));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trimEnd()).toBe(p.handoff.prompt.trimEnd());
  });

  it('refuses bad input with the field named', () => {
    const err = (args: string[]) => {
      const r = hub(['agent', 'dispatch-plan', ...args, '--json']);
      expect(r.code).toBe(1);
      return r.json().error;
    };
    expect(err(['../x', '--vendor', 'codex'])).toMatchObject({
      code: 'validation',
      details: { field: 'id' },
    });
    expect(err(['repo-implementer', '--vendor', 'vscode'])).toMatchObject({
      details: { field: 'vendor', rule: 'known_vendor' },
    });
    expect(err(['repo-implementer', '--vendor', 'codex', '-p', 'platform'])).toMatchObject({
      details: { field: 'repo' },
    });
    expect(
      err([
        'repo-implementer',
        '--vendor',
        'codex',
        '-p',
        'platform',
        '-n',
        'identity',
        '--task',
        'x'.repeat(5000),
      ]),
    ).toMatchObject({
      details: { field: 'task' },
    });
    expect(err(['repo-implementer', '--vendor', 'codex', '--root', '/'])).toMatchObject({
      details: { field: 'root' },
    });
    expect(
      hub(['agent', 'dispatch-plan', 'orchestration-overseer', '--vendor', 'codex', '--root', '.', '--json'])
        .code,
    ).toBe(0);
  });
});

describe('prompt list and show (built CLI)', () => {
  it('lists the prompts with what each needs', () => {
    const r = json(['prompt', 'list']);
    expect(r.prompts.map((p: { name: string }) => p.name)).toEqual([
      'session-start',
      'repo-handoff',
      'task-dispatch',
      'context-switch',
    ]);
  });

  it('prints the MCP session-start prompt, the context-switch prompt and a task node prompt', async () => {
    const start = hub(['prompt', 'show', 'session-start']);
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toContain('# Start of a work session in demo');
    const mcp = await connectHub(root, [], env);
    try {
      const got = await mcp.getPrompt({ name: 'hub_session_start' });
      expect((got.messages[0]!.content as { text: string }).text.trimEnd()).toBe(start.stdout.trimEnd());
    } finally {
      await mcp.close();
    }
    expect(hub(['prompt', 'show', 'context-switch', '-p', 'storefront', '-n', 'web']).stdout).toContain(
      'You are now working in repository storefront/web',
    );
    json([
      'task',
      'create',
      '--title',
      'Keys',
      '--graph-id',
      'keys',
      '--repository',
      'platform/identity',
      '--outline',
      'Rotate keys',
    ]);
    const node = hub(['prompt', 'show', 'task-dispatch', '--task-id', 'rotate-keys', '--agent-id', 'a1']);
    expect(node.code, node.stderr).toBe(0);
    expect(node.stdout).toContain('hub task start --graph-id keys --node-id rotate-keys --agent-id a1');
    expect(node.stdout).toContain('Never log tokens or session ids.');
  });

  it('refuses an unknown prompt and inputs a prompt does not take', () => {
    const r = hub(['prompt', 'show', 'repo-handof', '--json']);
    expect(r.json().error.message).toContain("did you mean 'repo-handoff'");
    expect(hub(['prompt', 'show', 'session-start', '-p', 'platform', '--json']).json().error).toMatchObject({
      details: { field: 'project', rule: 'not_taken' },
    });
    expect(hub(['prompt', 'show', 'repo-handoff', '-p', 'platform', '--json']).json().error).toMatchObject({
      details: { field: 'repo', rule: 'required' },
    });
  });
});
