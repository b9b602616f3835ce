import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, makeGitRepo, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let dir: string;
let manifest: string;

beforeAll(() => {
  dir = createTempDir('hub-config-');
  manifest = createDemo(join(dir, 'demo')).manifestPath;
});
afterAll(() => removeTempDir(dir));

function bigManifest(repos: number): string {
  const lines = ['workspace:', '  projects:', '    - name: p', '      repos:'];
  for (let i = 0; i < repos; i++)
    lines.push(`        - name: r${i}`, `          url: https://example.com/r${i}.git`);
  const p = join(dir, `big-${repos}.yml`);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
}

describe('config validate', () => {
  it('passes on the demo and counts what it saw', () => {
    const r = runHub(['-c', manifest, 'config', 'validate', '--json']);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ valid: true, counts: { projects: 2, repos: 6 } });
  });

  it('lists every problem with its line and exits 1', () => {
    const repo = makeGitRepo(join(dir, 'bad', 'r'), { 'a/x.txt': 'x' });
    const bad = join(dir, 'bad', '.hub.yml');
    writeFileSync(
      bad,
      [
        'workspace:',
        '  projects:',
        '    - name: p',
        '      repos:',
        '        - name: r',
        `          path: ${repo}`,
        '          components:',
        '            - {name: a, path: a, depends_on: [b]}',
        '            - {name: b, path: ./a/, depends_on: [a]}',
        '            - {name: c, path: missing}',
        '            - {name: d, path: a, depends_on: [ghost]}',
        '',
      ].join('\n'),
    );
    const r = runHub(['-c', bad, 'config', 'validate', '--json']);
    expect(r.code).toBe(1);
    const { problems } = r.json();
    const rules = problems.map((p: { rule: string }) => p.rule);
    expect(rules).toEqual(
      expect.arrayContaining([
        'duplicate_path',
        'missing_directory',
        'unknown_dependency',
        'dependency_cycle',
      ]),
    );
    expect(problems.find((p: { rule: string }) => p.rule === 'missing_directory').line).toBe(10);
    expect(problems.find((p: { rule: string }) => p.rule === 'dependency_cycle').message).toContain(
      'a -> b -> a',
    );
    const human = runHub(['-c', bad, 'config', 'validate']);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain('line 10');
  });

  it('reports a syntax error with its line instead of crashing', () => {
    const p = join(dir, 'syntax.yml');
    writeFileSync(p, 'workspace:\n  projects: [\n    - name: x\n');
    const r = runHub(['-c', p, 'config', 'validate', '--json']);
    expect(r.code).toBe(1);
    expect(r.json().valid).toBe(false);
    expect(r.json().problems[0].line).toBeGreaterThan(0);
  });

  it('rejects a project named like the worktrees path', () => {
    const p = join(dir, 'reserved.yml');
    writeFileSync(p, 'workspace:\n  projects:\n    - name: worktrees\n      repos: []\n');
    writeFileSync(join(dir, 'hub.config.yaml'), 'workspace:\n  worktrees_path: ./worktrees/\n');
    const r = runHub(['-c', p, 'config', 'validate', '--json']);
    expect(r.json().problems.map((x: { rule: string }) => x.rule)).toContain('reserved_project_name');
  });
});

describe('config show and example', () => {
  it('shows the file as on disk and normalized, and guards big workspaces', () => {
    const raw = runHub(['-c', manifest, 'config', 'show']);
    expect(raw.stdout).toBe(`${readFileSync(manifest, 'utf8').replace(/\n$/, '')}\n`);
    const normalized = runHub(['-c', manifest, 'config', 'show', '--normalized', '--json']).json();
    expect(normalized.view).toBe('normalized');
    const big = bigManifest(81);
    const refused = runHub(['-c', big, 'config', 'show', '--json']);
    expect(refused.code).toBe(1);
    expect(refused.json().error).toMatchObject({ code: 'refused', details: { repo_count: 81 } });
    expect(runHub(['-c', big, 'config', 'show', '--json', '--confirm-full']).code).toBe(0);
    expect(runHub(['-c', bigManifest(80), 'config', 'show', '--json']).code).toBe(0);
  });

  it('prints an example that is itself a valid manifest', () => {
    const text = runHub(['config', 'example']).stdout;
    const p = join(dir, 'example', '.hub.yml');
    mkdirSync(join(dir, 'example'), { recursive: true });
    writeFileSync(p, text);
    expect(runHub(['-c', p, 'component', 'list', '--json']).json().components).toHaveLength(2);
  });
});

describe('init', () => {
  it('creates a manifest from the git repositories it finds, then reports already initialized', () => {
    const ws = join(dir, 'fresh');
    makeGitRepo(join(ws, 'team', 'svc'), { 'README.md': 'x' });
    const r = runHub(['init', '--json'], { cwd: ws });
    expect(r.json()).toMatchObject({ created: true, repos: 1 });
    const m = parse(readFileSync(join(ws, '.hub.yml'), 'utf8'));
    expect(m.workspace.projects[0]).toMatchObject({
      name: 'team',
      repos: [{ name: 'svc', path: './team/svc' }],
    });
    const before = readFileSync(join(ws, '.hub.yml'), 'utf8');
    const again = runHub(['init', '--json'], { cwd: ws });
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ created: false, already_initialized: true });
    expect(readFileSync(join(ws, '.hub.yml'), 'utf8')).toBe(before);
  });

  it('blocks --force in agent mode and creates application manifests', () => {
    const ws = join(dir, 'agent');
    mkdirSync(ws);
    writeFileSync(join(ws, '.hub.yml'), 'workspace: 5\n');
    const blocked = runHub(['init', '--force', '--json'], { cwd: ws, env: { HUB_AGENT_MODE: 'true' } });
    expect(blocked.code).toBe(1);
    expect(blocked.json().error.code).toBe('refused');
    expect(readFileSync(join(ws, '.hub.yml'), 'utf8')).toBe('workspace: 5\n');
    const forced = runHub(['init', '--force', '--kind', 'application', '--json'], { cwd: ws });
    expect(forced.json()).toMatchObject({ created: true, kind: 'application' });
    expect(parse(readFileSync(join(ws, '.hub.yml'), 'utf8'))).toMatchObject({
      kind: 'application',
      name: 'agent',
    });
  });
});

describe('init keeps manifests', () => {
  it('--force on a valid manifest keeps a timestamped backup beside it and says where', () => {
    const ws = join(dir, 'force-valid');
    makeGitRepo(join(ws, 'team', 'svc'), { 'src/x.go': 'package x\n' });
    const original =
      '# hand-written\nworkspace:\n  projects:\n    - name: team\n      repos:\n        - name: svc\n          path: ./team/svc\n          components: [{name: x, path: src}]\n';
    writeFileSync(join(ws, '.hub.yml'), original);
    const r = runHub(['init', '--force'], { cwd: ws });
    expect(r.code, r.stderr).toBe(0);
    const backups = readdirSync(ws).filter((f) => f.startsWith('.hub.yml.bak-'));
    expect(backups).toHaveLength(1);
    expect(backups[0]).toMatch(/^\.hub\.yml\.bak-\d{8}T\d{6}Z$/);
    expect(readFileSync(join(ws, backups[0]!), 'utf8')).toBe(original);
    expect(r.stdout).toContain(join(ws, backups[0]!));
    const again = runHub(['init', '--force', '--json'], { cwd: ws });
    expect(again.json().backup).toMatch(/\.hub\.yml\.bak-\d{8}T\d{6}Z(-\d+)?$/);
    expect(readdirSync(ws).filter((f) => f.startsWith('.hub.yml.bak-'))).toHaveLength(2);
  });

  it('--help says what --force replaces and that a backup is kept', () => {
    const help = runHub(['init', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(/--force\s.*backup/);
    expect(help).not.toContain('Replace an invalid existing manifest (blocked');
  });

  it('on a manifest with rule problems exits 1 listing them, the way config validate does', () => {
    const ws = join(dir, 'init-problems');
    mkdirSync(ws);
    const text =
      'workspace:\n  projects:\n    - name: p\n      repos:\n        - name: r\n          url: https://example.com/r.git\n          components:\n            - {name: a, path: a, depends_on: [b]}\n            - {name: b, path: b, depends_on: [a]}\n            - {name: c, path: c, depends_on: [nope]}\n';
    writeFileSync(join(ws, '.hub.yml'), text);
    const validate = runHub(['config', 'validate', '--json'], { cwd: ws }).json();
    const r = runHub(['init', '--json'], { cwd: ws });
    expect(r.code).toBe(1);
    const err = r.json().error;
    expect(err.details.issues).toEqual(validate.problems);
    expect(err.details.hint).toMatch(/hub config validate/);
    expect(err.details.hint).toMatch(/--force/);
    const human = runHub(['init'], { cwd: ws });
    expect(human.code).toBe(1);
    expect(human.stdout).not.toContain('already initialized');
    for (const p of validate.problems) expect(human.stderr).toContain(p.message);
    expect(readFileSync(join(ws, '.hub.yml'), 'utf8')).toBe(text);
  });

  it('never points $schema into a node_modules folder the workspace does not have', () => {
    const ws = join(dir, 'no-modules');
    makeGitRepo(join(ws, 'team', 'svc'), { 'README.md': 'x' });
    const r = runHub(['init', '--json'], { cwd: ws });
    expect(r.code).toBe(0);
    const text = readFileSync(join(ws, '.hub.yml'), 'utf8');
    const schema = /\$schema=(\S+)/.exec(text)?.[1];
    if (schema) expect(existsSync(join(ws, schema))).toBe(true);
    expect(text).not.toContain('node_modules');

    const withModules = join(dir, 'with-modules');
    mkdirSync(join(withModules, 'node_modules', 'hub-workspace', 'schemas'), { recursive: true });
    writeFileSync(
      join(withModules, 'node_modules', 'hub-workspace', 'schemas', 'hub.manifest.schema.json'),
      '{}',
    );
    expect(runHub(['init'], { cwd: withModules }).code).toBe(0);
    expect(readFileSync(join(withModules, '.hub.yml'), 'utf8')).toContain(
      '# yaml-language-server: $schema=./node_modules/hub-workspace/schemas/hub.manifest.schema.json',
    );
  });
});

describe('appconfig', () => {
  it('patches one key keeping comments, previewing unless --save', () => {
    const ws = join(dir, 'app');
    mkdirSync(ws);
    writeFileSync(join(ws, '.hub.yml'), 'workspace:\n  projects: []\n');
    const cfg = join(ws, 'hub.config.yaml');
    writeFileSync(cfg, '# team settings\nstate:\n  backend: local # default\n');
    const preview = runHub(
      ['appconfig', 'patch', '--op', 'set', '--path', 'state.conflict_retries', '--value', '3', '--json'],
      { cwd: ws },
    );
    expect(preview.json()).toMatchObject({ saved: false, changed: true });
    expect(readFileSync(cfg, 'utf8')).not.toContain('conflict_retries');
    runHub(
      ['appconfig', 'patch', '--op', 'set', '--path', 'state.conflict_retries', '--value', '3', '--save'],
      { cwd: ws },
    );
    const text = readFileSync(cfg, 'utf8');
    expect(text).toContain('# team settings');
    expect(text).toContain('backend: local # default');
    expect(runHub(['appconfig', 'info', '--json'], { cwd: ws }).json().config.state.conflict_retries).toBe(3);
    const bad = runHub(
      ['appconfig', 'patch', '--op', 'set', '--path', 'state.nope', '--value', '1', '--json'],
      { cwd: ws },
    );
    expect(bad.code).toBe(1);
    expect(bad.json().error.message).toContain('state.nope');
  });

  it('redacts tokens and names a bad state url', () => {
    const ws = join(dir, 'tok');
    mkdirSync(ws);
    writeFileSync(
      join(ws, 'hub.config.yaml'),
      'state:\n  backend: http\n  url: https://hub.example.com\n  token: abcdefgh1234\n',
    );
    const info = runHub(['appconfig', 'info', '--json'], { cwd: ws });
    expect(info.stdout).not.toContain('abcdefgh1234');
    expect(info.json().config.state.token).toBe('***1234');
    const bad = runHub(['appconfig', 'validate', '--json'], { cwd: ws, env: { HUB_STATE_URL: 'ftp://x' } });
    expect(bad.code).toBe(1);
    expect(JSON.stringify(bad.json())).toContain('remote state url must be http(s)');
    expect(existsSync(join(ws, '.hub.yml'))).toBe(false);
  });
});

describe('search and workspace repo list', () => {
  it('searches metadata and lists repositories', () => {
    const s = runHub(['-c', manifest, 'search', 'gateway', '--json']).json();
    expect(s.results[0]).toMatchObject({ id: expect.stringContaining('gateway') });
    const paths = runHub(['-c', manifest, 'search', 'gateway', '--path-only', '--json']).json().paths;
    expect(paths.every((p: string) => p.startsWith(join(dir, 'demo')))).toBe(true);
    const repos = runHub(['-c', manifest, 'workspace', 'repo', 'list', '--json']).json();
    expect(repos.total).toBe(6);
    expect(repos.repos.find((r: { id: string }) => r.id === 'platform/legacy-billing')).toMatchObject({
      exists: false,
    });
  });
});
