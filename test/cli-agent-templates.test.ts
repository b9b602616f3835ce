// Agent templates through the built CLI (npm run build first): catalog, show, schema, validate, preview, export,
// overlays, answers files, and the bad inputs of issue 14. Every spawned hub gets a temporary HOME.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { yaml } from '../src/model/index.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
let ws: string;
let env: Record<string, string>;

beforeAll(() => {
  dir = createTempDir('hub-cli-agent-tpl-');
  ws = join(dir, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, '.hub.yml'), 'workspace:\n  name: acme\n  projects: []\n');
  env = { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'xdg'), HUB_CONFIG_DIR: join(dir, 'hubcfg') };
});
afterAll(() => removeTempDir(dir));
afterEach(() => {
  rmSync(join(ws, '.hub-agents'), { recursive: true, force: true });
  rmSync(join(ws, '.hub'), { recursive: true, force: true });
});

const hub = (args: string[], opts: { env?: Record<string, string> } = {}) =>
  runHub(args, { cwd: ws, env: { ...env, ...opts.env } });
const ok = (args: string[]) => {
  const r = hub([...args, '--json']);
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return r.json();
};
const fail = (args: string[], code = 1) => {
  const r = hub([...args, '--json']);
  expect(r.code, r.stdout + r.stderr).toBe(code);
  return r.json();
};
function put(rel: string, text: string): string {
  const p = join(ws, rel);
  mkdirSync(dirname(p), { recursive: true });
  writeFileSync(p, text);
  return p;
}
const frontMatter = (content: string) =>
  yaml().parse(/^---\n([\s\S]*?)\n---\n/.exec(content)![1]!) as Record<string, unknown>;

describe('agent list, show, schema, validate', () => {
  it('lists the ten bundled templates with taxonomy and source, from the built CLI', () => {
    const cat = ok(['agent', 'list']);
    expect(cat.templates).toHaveLength(10);
    expect(cat.templates[0]).toMatchObject({
      id: 'orchestration-overseer',
      source: 'bundled',
      scope: 'workspace',
    });
    expect(cat.taxonomy.scopes.map((s: { name: string }) => s.name)).toEqual([
      'workspace',
      'project',
      'repo',
    ]);
    expect(cat.taxonomy.categories.map((c: { name: string }) => c.name)).toEqual([
      'Control plane',
      'Execution',
      'Graph',
      'Workspace ops',
      'Catalog',
      'Quality',
      'Security',
    ]);
    const human = hub(['agent', 'list']);
    expect(human.stdout).toMatch(/repo-implementer\s+Execution\s+repo\s+bundled/);
  });

  it('shows an overlay as merged, and a broken one as a problem with its line (exit 1)', () => {
    put('.hub-agents/repo-implementer/template.yaml', 'ui:\n  sort_order: 1\n');
    const cat = ok(['agent', 'list']);
    expect(cat.templates[0]).toMatchObject({ id: 'repo-implementer', source: 'merged' });
    const shown = ok(['agent', 'show', 'repo-implementer']);
    expect(shown).toMatchObject({ source: 'merged', overlay_paths: ['.hub-agents/repo-implementer'] });
    expect(shown.files).toContainEqual({
      name: 'body.md.tpl',
      origin: 'bundled',
      path: expect.stringMatching(/templates\/agents\/repo-implementer\/body\.md\.tpl$/),
    });
    put('.hub/.agent-templates/repo-implementer/template.yaml', 'name: x\nstatus: maybe\n');
    const broken = fail(['agent', 'list']);
    expect(broken.problems).toEqual([
      expect.objectContaining({
        id: 'repo-implementer',
        file: '.hub/.agent-templates/repo-implementer/template.yaml',
        line: 2,
      }),
    ]);
    const err = fail(['agent', 'show', 'repo-implementer']).error;
    expect(err.message).toContain('.hub/.agent-templates/repo-implementer/template.yaml line 2: status:');
    expect(err.details).toMatchObject({ line: 2, field: 'status' });
  });

  it('prints the JSON Schema that schemas/agent-template.schema.json holds', () => {
    const committed = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', 'schemas', 'agent-template.schema.json'), 'utf8'),
    );
    expect(ok(['agent', 'schema'])).toEqual(committed);
  });

  it('validates every template, and names file, line and variable of an unknown one (exit 1)', () => {
    const good = ok(['agent', 'validate']);
    expect(good.ok).toBe(true);
    expect(good.templates.map((t: { ok: boolean }) => t.ok)).toEqual(Array(10).fill(true));
    put(
      '.hub-agents/release-auditor/body.md.tpl',
      '# {{name}}\n\n{{> hub-orient}}\nPromote into {{releese_branch}}.\n',
    );
    const bad = fail(['agent', 'validate', 'release-auditor']);
    expect(bad.templates[0].issues).toEqual([
      expect.objectContaining({
        file: '.hub-agents/release-auditor/body.md.tpl',
        line: 4,
        variable: 'releese_branch',
        rule: 'unknown_variable',
      }),
    ]);
    const human = hub(['agent', 'validate', 'release-auditor']);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain(
      ".hub-agents/release-auditor/body.md.tpl:4: variable 'releese_branch': unknown variable",
    );
    // Render refuses it too: never an empty string.
    expect(fail(['agent', 'preview', 'release-auditor']).error.details).toMatchObject({
      variable: 'releese_branch',
    });
  });

  it('refuses an mcp_tools entry hub does not serve, and delegates_to a template that does not exist', () => {
    put(
      '.hub-agents/graph-curator/template.yaml',
      'mcp_tools+: [hub_no_such_tool]\ndelegates_to: [ghost-agent]\n',
    );
    const issues = fail(['agent', 'validate', 'graph-curator']).templates[0].issues;
    expect(issues.map((i: { rule: string; line: number }) => [i.rule, i.line])).toEqual([
      ['known_template', 2],
      ['known_mcp_tool', 1],
    ]);
  });
});

describe('agent preview and export', () => {
  it('previews the artifact of each vendor with its file name and front-matter', () => {
    const copilot = ok(['agent', 'preview', 'repo-implementer', '--vendor', 'github_copilot']);
    expect(copilot.filename).toBe('repo-implementer.agent.md');
    expect(frontMatter(copilot.content)).toMatchObject({
      description: expect.any(String),
      tools: ['read', 'edit', 'search', 'execute'],
    });
    const codex = ok(['agent', 'preview', 'repo-implementer', '--vendor', 'codex']);
    expect(codex.filename).toBe('repo-implementer/SKILL.md');
    expect(frontMatter(codex.content).name).toBe('repo-implementer');
    const opencode = ok(['agent', 'preview', 'orchestration-overseer', '--vendor', 'opencode']);
    expect(frontMatter(opencode.content)).toMatchObject({ mode: 'primary' });
    expect(opencode.answers.workspace_name).toBe('acme');
    const human = hub(['agent', 'preview', 'repo-implementer', '--vendor', 'claude_code']);
    expect(human.stdout).toMatch(/^---\nname: repo-implementer\n/);
  });

  it('exports with answers from YAML and JSON files; a second export changes nothing', () => {
    const answers = put('answers.yml', 'agent_id: impl-3\nmerge_target: develop\n');
    const out = join(dir, 'export-1');
    const first = ok([
      'agent',
      'export',
      'repo-implementer',
      '-o',
      out,
      '--answers-file',
      answers,
      '--no-prompt',
    ]);
    expect(first.files.map((f: { name: string; action: string }) => [f.name, f.action])).toEqual([
      ['repo-implementer.md', 'create'],
      ['AGENTS.md.fragment', 'create'],
      ['manifest.json', 'create'],
    ]);
    const md = readFileSync(join(out, 'repo-implementer.md'), 'utf8');
    expect(md).toContain('--agent-id impl-3');
    expect(frontMatter(md)).toEqual({ name: 'repo-implementer', description: expect.any(String) });
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.answers).toEqual({ agent_id: 'impl-3', merge_target: 'develop', lease_ttl: '2h' });
    const json = put('answers.json', '{"agent_id": "impl-3", "merge_target": "develop"}');
    const second = ok(['agent', 'export', 'repo-implementer', '-o', out, '--answers-file', json]);
    expect(second.written).toEqual([]);
  });

  it('refuses to overwrite a file someone changed, unless --force, writing nothing', () => {
    const out = join(dir, 'export-2');
    ok(['agent', 'export', 'upstream-triage', '-o', out]);
    writeFileSync(join(out, 'upstream-triage.md'), 'edited by hand\n');
    const err = fail(['agent', 'export', 'upstream-triage', '-o', out, '--vendor', 'cursor']).error;
    expect(err.code).toBe('refused');
    expect(err.details.conflicts).toEqual([
      expect.objectContaining({ name: 'upstream-triage.md', reason: 'changed since hub wrote it' }),
    ]);
    expect(readFileSync(join(out, 'upstream-triage.md'), 'utf8')).toBe('edited by hand\n');
    ok(['agent', 'export', 'upstream-triage', '-o', out, '--vendor', 'cursor', '--force']);
    expect(frontMatter(readFileSync(join(out, 'upstream-triage.md'), 'utf8'))).toMatchObject({
      model: 'inherit',
    });
  });

  it('names unknown answers, and required answers left without a default', () => {
    const unknown = put('bad.yml', 'agent_id: x\ncolour: red\nsize: 3\n');
    const e1 = fail([
      'agent',
      'export',
      'repo-implementer',
      '-o',
      join(dir, 'x'),
      '--answers-file',
      unknown,
    ]).error;
    expect(e1.message).toContain("unknown answer(s) 'colour', 'size'");
    expect(e1.details).toMatchObject({ rule: 'known_input', unknown: ['colour', 'size'] });
    put(
      '.hub-agents/repo-implementer/template.yaml',
      'inputs:\n  ticket:\n    question: Ticket the work belongs to\n',
    );
    const e2 = fail(['agent', 'export', 'repo-implementer', '-o', join(dir, 'x'), '--no-prompt']).error;
    expect(e2.details).toMatchObject({ rule: 'required_answer', missing: ['ticket'] });
    expect(existsSync(join(dir, 'x'))).toBe(false);
    const notMap = put('list.yml', '- a\n- b\n');
    expect(
      fail(['agent', 'preview', 'repo-implementer', '--answers-file', notMap]).error.details,
    ).toMatchObject({ rule: 'mapping' });
    expect(
      fail(['agent', 'preview', 'repo-implementer', '--answers-file', join(ws, 'none.yml')]).error.details,
    ).toMatchObject({
      field: 'answers_file',
      rule: 'exists',
    });
  });

  it('refuses an unknown template, vendor and a path-like id', () => {
    expect(fail(['agent', 'show', 'repo-implementor']).error.message).toContain(
      "did you mean 'repo-implementer'",
    );
    expect(fail(['agent', 'preview', 'repo-implementer', '--vendor', 'claude']).error.details).toMatchObject({
      rule: 'known_vendor',
    });
    expect(fail(['agent', 'show', '../x']).error.details).toMatchObject({ field: 'id', rule: 'template_id' });
    expect(fail(['agent', 'overlay', 'init', '../../etc']).error.details).toMatchObject({
      rule: 'template_id',
    });
  });
});

describe('agent overlay init and path', () => {
  it('scaffolds the team and personal overlays, refuses a second init without --force', () => {
    const team = ok(['agent', 'overlay', 'init', 'repo-implementer', '--mode', 'minimal']);
    expect(team).toMatchObject({
      scope: 'committed',
      relative: '.hub-agents/repo-implementer',
      written: ['template.yaml', 'body.md.tpl'],
      opened: false,
    });
    expect(fail(['agent', 'overlay', 'init', 'repo-implementer']).error.details).toMatchObject({
      rule: 'overlay_exists',
    });
    expect(ok(['agent', 'overlay', 'init', 'repo-implementer', '--force']).written).toContain(
      'hub-orient.md.tpl',
    );
    const mine = ok(['agent', 'overlay', 'init', 'repo-implementer', '--local']);
    expect(mine.relative).toBe('.hub/.agent-templates/repo-implementer');
    expect(ok(['agent', 'overlay', 'path', 'repo-implementer', '--local'])).toMatchObject({
      exists: true,
      path: join(ws, '.hub/.agent-templates/repo-implementer'),
    });
    expect(hub(['agent', 'overlay', 'path', 'graph-curator']).stdout.trim()).toBe(
      join(ws, '.hub-agents/graph-curator'),
    );
    expect(ok(['agent', 'show', 'repo-implementer']).source).toBe('merged');
    expect(ok(['agent', 'validate']).ok).toBe(true);
  });

  it('--open runs config.editor on the folder without a shell, and only prints the path in agent mode', async () => {
    const marker = join(dir, 'editor-args');
    const editor = join(dir, 'fake-editor');
    writeFileSync(editor, `#!/bin/sh\nprintf '%s\\n' "$@" > '${marker}'\n`);
    chmodSync(editor, 0o755);
    const cfg = join(dir, 'editor.yaml');
    writeFileSync(cfg, `config:\n  editor: ${editor}\n`);
    const r = ok(['--appconfig', cfg, 'agent', 'overlay', 'init', 'catalog-bootstrapper', '--open']);
    expect(r).toMatchObject({ opened: true, editor });
    for (let i = 0; i < 400 && !existsSync(marker); i++) await new Promise((res) => setTimeout(res, 50));
    expect(readFileSync(marker, 'utf8').trim()).toBe(join(ws, '.hub-agents', 'catalog-bootstrapper'));
    const agent = hub(['--appconfig', cfg, 'agent', 'overlay', 'init', 'repo-enricher', '--open', '--json'], {
      env: { HUB_AGENT_MODE: 'true' },
    });
    expect(agent.json()).toMatchObject({
      opened: false,
      open_skipped: expect.stringContaining('agent mode'),
    });
  });
});

describe('packaging', () => {
  it('ships templates/agents in the npm package', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: join(import.meta.dirname, '..'),
      encoding: 'utf8',
      env: { ...process.env, ...env, npm_config_loglevel: 'silent' },
    });
    const files = (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    for (const id of ['repo-implementer', 'orchestration-overseer'])
      for (const f of ['template.yaml', 'body.md.tpl', 'AGENTS.md.fragment.tpl'])
        expect(files).toContain(`templates/agents/${id}/${f}`);
    expect(files).toContain('templates/agents/_shared/hub-orient.md.tpl');
  });
});
