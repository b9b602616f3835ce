import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
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
    expect(r.stdout).toContain('## Workspace instructions (workspace)');
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
