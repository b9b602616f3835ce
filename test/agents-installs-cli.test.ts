import { existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseToml } from '@decimalturn/toml-patch';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { VENDOR_IDS } from '../src/agents/index.js';
import { buildWorkspace, createTempDir, git, removeTempDir } from './fixtures/index.js';
import { HUB_BIN, pathWithoutThisHub, runHub } from './run-hub.js';

let dir: string;
let ws: string;
let home: string;
let env: Record<string, string>;

// One folder for the file, emptied before each test: HOME keeps its path from test to test, so the commands
// share one test daemon (run-hub.ts keeps one per environment) instead of each starting node.
let base: string;
beforeAll(() => {
  base = createTempDir('hub-installs-');
});
afterAll(() => removeTempDir(base));

beforeEach(() => {
  dir = join(base, 'run');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  home = join(dir, 'home');
  mkdirSync(home);
  // The workspace is itself a git repository (project scope resolves to it) holding two repositories.
  const built = buildWorkspace({
    root: join(dir, 'ws'),
    projects: [
      {
        name: 'shop',
        repos: [
          { name: 'api', files: { 'README.md': '# api\n' } },
          { name: 'web', files: { 'README.md': '# web\n' } },
        ],
      },
    ],
  });
  ws = built.root;
  git(ws, ['init', '-q', '-b', 'main']);
  // Every spawned hub gets a temporary home and config folder: the real ones are never read or written. A `hub`
  // of this checkout on the developer's PATH (npm link) is left out: the tests choose when hub is on the PATH.
  env = { HOME: home, XDG_CONFIG_HOME: join(dir, 'xdg'), PATH: pathWithoutThisHub(process.env.PATH ?? '') };
});

const hub = (args: string[], cwd = ws) => runHub(args, { env, cwd });
const ok = (args: string[], cwd = ws) => {
  const r = hub([...args, '--json'], cwd);
  expect(r.code, r.stderr || r.stdout).toBe(0);
  return r.json();
};
const read = (p: string) => readFileSync(p, 'utf8');
const mtime = (p: string) => statSync(p).mtimeMs;

/** Each vendor's MCP file per scope, with an existing file holding another server, other keys and comments. */
const MCP_CASES = [
  {
    vendor: 'claude_code',
    scope: 'project',
    file: '.mcp.json',
    existing:
      '{\n  // team servers\n  "mcpServers": {\n    "github": { "command": "npx" } // gh\n  },\n  "other": true\n}\n',
    comments: ['// team servers', '// gh'],
  },
  {
    vendor: 'claude_code',
    scope: 'user',
    file: '.claude.json',
    existing:
      '{\n  "numStartups": 4,\n  "projects": { "/x": { "allowedTools": [] } },\n  "mcpServers": {}\n}\n',
    comments: ['"numStartups": 4'],
  },
  {
    vendor: 'cursor',
    scope: 'project',
    file: '.cursor/mcp.json',
    existing: '{\n  /* mine */\n  "mcpServers": { "a": { "command": "a" } }\n}\n',
    comments: ['/* mine */'],
  },
  {
    vendor: 'cursor',
    scope: 'user',
    file: '.cursor/mcp.json',
    existing: '{ "mcpServers": { "a": { "command": "a" } } } // end\n',
    comments: ['// end'],
  },
  {
    vendor: 'github_copilot',
    scope: 'project',
    file: '.vscode/mcp.json',
    existing:
      '{\n\t// VS Code\n\t"inputs": [],\n\t"servers": {\n\t\t"x": { "type": "stdio", "command": "x" },\n\t},\n}\n',
    comments: ['// VS Code'],
  },
  {
    vendor: 'github_copilot',
    scope: 'user',
    file: '.copilot/mcp-config.json',
    existing:
      '{\n  "mcpServers": {\n    "y": { "type": "local", "command": "y", "tools": ["*"] } // y\n  }\n}\n',
    comments: ['// y'],
  },
  {
    vendor: 'opencode',
    scope: 'project',
    file: 'opencode.json',
    existing: '{\n  "$schema": "https://opencode.ai/config.json",\n  // model\n  "model": "m"\n}\n',
    comments: ['// model'],
  },
  {
    vendor: 'opencode',
    scope: 'user',
    file: '.config/opencode/opencode.json',
    existing: '{\n  "mcp": {\n    "z": { "type": "local", "command": ["z"] } /* z */\n  }\n}\n',
    comments: ['/* z */'],
  },
  {
    vendor: 'codex',
    scope: 'project',
    file: '.codex/config.toml',
    existing: '# codex\nmodel = "o3" # model\n\n[mcp_servers.docs]\n# docs server\ncommand = "docs"\n',
    comments: ['# codex', '# model', '# docs server'],
  },
  {
    vendor: 'codex',
    scope: 'user',
    file: '.codex/config.toml',
    existing: '[profiles.fast] # fast\nmodel = "o4-mini"\n',
    comments: ['# fast'],
  },
  {
    vendor: 'hermes',
    scope: 'user',
    file: '.hermes/config.yaml',
    existing: '# hermes\nmodel:\n  default: x # the model\nmcp_servers:\n  fs:\n    command: npx # fs\n',
    comments: ['# hermes', '# the model', '# fs'],
  },
  {
    vendor: 'windsurf',
    scope: 'user',
    file: '.codeium/windsurf/mcp_config.json',
    existing: '{\n  // windsurf\n  "mcpServers": {}\n}\n',
    comments: ['// windsurf'],
  },
] as const;

const parse = (file: string, text: string): Record<string, unknown> =>
  file.endsWith('.toml') ? parseToml(text) : file.endsWith('.yaml') ? parseYaml(text) : parseJsonc(text);

describe('mcp install into every vendor’s file', () => {
  for (const c of MCP_CASES) {
    const base = () => (c.scope === 'user' ? home : ws);
    const args = ['mcp', 'install', '--scope', c.scope, '--target', c.vendor];

    it(`${c.vendor} ${c.scope}: created fresh, then a second install writes nothing`, () => {
      const r = ok(args);
      const path = join(base(), c.file);
      expect(r).toMatchObject({ action: 'create', path, written: [path] });
      const servers = parse(c.file, read(path))[r.root_key] as Record<string, Record<string, unknown>>;
      expect(JSON.stringify(servers.hub)).toBe(JSON.stringify(r.entry));
      // The entry serves this workspace.
      expect(JSON.stringify(r.entry)).toContain(JSON.stringify(ws).slice(1, -1));
      const before = read(path);
      const t = mtime(path);
      expect(ok(args)).toMatchObject({ action: 'unchanged', written: [] });
      expect(read(path)).toBe(before);
      expect(mtime(path)).toBe(t);
    });

    it(`${c.vendor} ${c.scope}: merged into an existing file, other keys and comments kept`, () => {
      const path = join(base(), c.file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, c.existing);
      const r = ok(args);
      expect(r.action).toBe('update');
      const text = read(path);
      for (const comment of c.comments) expect(text).toContain(comment);
      const before = parse(c.file, c.existing);
      const after = parse(c.file, text);
      for (const key of Object.keys(before).filter((k) => k !== r.root_key))
        expect(JSON.stringify(after[key])).toBe(JSON.stringify(before[key]));
      const kept = Object.keys((before[r.root_key] as object | undefined) ?? {});
      expect(Object.keys(after[r.root_key] as object)).toEqual([...kept, 'hub']);
      const again = read(path);
      expect(ok(args).action).toBe('unchanged');
      expect(read(path)).toBe(again);
    });

    it(`${c.vendor} ${c.scope}: a malformed file is refused and left untouched`, () => {
      const path = join(base(), c.file);
      mkdirSync(dirname(path), { recursive: true });
      const broken = c.file.endsWith('.toml')
        ? 'model = \n[x'
        : c.file.endsWith('.yaml')
          ? 'a: [1, 2\n'
          : '{"mcpServers": {';
      writeFileSync(path, broken);
      for (const force of [[], ['--force']]) {
        const r = hub([...args, ...force, '--json']);
        expect(r.code).toBe(1);
        expect(r.json().error).toMatchObject({ code: 'refused', details: { rule: 'unparsable' } });
        expect(r.json().error.message).toContain(path);
      }
      expect(read(path)).toBe(broken);
    });

    it(`${c.vendor} ${c.scope}: a file nested 100,000 deep is refused naming the file, never parsed`, () => {
      const path = join(base(), c.file);
      mkdirSync(dirname(path), { recursive: true });
      const n = 100_000;
      const deep = c.file.endsWith('.toml')
        ? `a = ${'['.repeat(n)}${']'.repeat(n)}\n`
        : c.file.endsWith('.yaml')
          ? `a: ${'['.repeat(n)}${']'.repeat(n)}\n`
          : `{"a": ${'['.repeat(n)}${']'.repeat(n)}}`;
      writeFileSync(path, deep);
      const r = hub([...args, '--force', '--json']);
      expect(r.code).toBe(1);
      expect(r.stderr + r.stdout).not.toMatch(/Maximum call stack|"internal"/);
      expect(r.json().error).toMatchObject({ code: 'refused', details: { rule: 'unparsable', value: path } });
      expect(r.json().error.message).toContain(
        `${path}: nests deeper than the limit of 128 levels at line 1`,
      );
      expect(read(path)).toBe(deep);
    });

    it(`${c.vendor} ${c.scope}: an entry of the same name with another value is a conflict unless --force`, () => {
      ok(args);
      const path = join(base(), c.file);
      const mine = read(path).replace('HUB_AGENT_MODE', 'HUB_AGENT_MODE_MINE');
      writeFileSync(path, mine);
      const r = hub([...args, '--json']);
      expect(r.code).toBe(1);
      expect(r.json().error.details).toMatchObject({ rule: 'entry_differs' });
      expect(read(path)).toBe(mine);
      expect(ok([...args, '--force']).action).toBe('update');
      expect(ok(args).action).toBe('unchanged');
    });
  }

  it('refuses vendors and scopes without an MCP file, naming where the vendor reads one', () => {
    const openclaw = hub(['mcp', 'install', '--scope', 'project', '--target', 'openclaw', '--json']);
    expect(openclaw.code).toBe(1);
    expect(openclaw.json().error).toMatchObject({ code: 'validation', details: { rule: 'vendor_mcp_file' } });
    expect(openclaw.json().error.message).toContain('OpenClaw documents no MCP configuration file');
    const hermes = hub(['mcp', 'install', '--scope', 'project', '--target', 'hermes', '--json']);
    expect(hermes.json().error.message).toContain('--scope user');
  });

  it('a dry run writes nothing and shows the file it would write', () => {
    const r = ok(['mcp', 'install', '--scope', 'project', '--target', 'cursor', '--dry-run']);
    expect(r).toMatchObject({ dry_run: true, action: 'create', written: [] });
    expect(parseJsonc(r.files[0].content).mcpServers.hub).toEqual(r.entry);
    expect(existsSync(join(ws, '.cursor'))).toBe(false);
  });

  it('names `hub` when the hub on PATH is this hub, and this node with bin/hub otherwise', () => {
    const plain = ok(['mcp', 'install', '--scope', 'project', '--target', 'cursor', '--dry-run']);
    expect(plain.entry.command).toBe(process.execPath);
    expect(plain.entry.args.slice(0, 4)).toEqual([HUB_BIN, 'mcp', 'serve', '--root']);
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync(HUB_BIN, join(bin, 'hub'));
    const onPath = runHub(
      ['mcp', 'install', '--scope', 'project', '--target', 'cursor', '--dry-run', '--json'],
      {
        env: { ...env, PATH: `${bin}:${env.PATH}` },
        cwd: ws,
      },
    ).json();
    expect(onPath.entry).toMatchObject({ command: 'hub', args: ['mcp', 'serve', '--root', ws] });
  });

  it('refuses a project scope outside any git repository', () => {
    const bare = join(dir, 'bare');
    mkdirSync(bare);
    writeFileSync(join(bare, '.hub.yml'), 'workspace:\n  name: bare\n  projects: []\n');
    const r = runHub(['skills', 'install', '--scope', 'project', '--target', 'cursor', '--json'], {
      env,
      cwd: bare,
    });
    expect(r.code).toBe(1);
    expect(r.json().error.details).toMatchObject({ rule: 'inside_git_repository' });
  });
});

describe('skills install', () => {
  it('installs the bundled skills in each vendor’s skills folder, once', () => {
    const r = ok(['skills', 'install', '--scope', 'project', '--target', 'codex']);
    const skill = join(ws, '.agents/skills/hub-workspace/SKILL.md');
    expect(r.skills).toContain('hub-workspace');
    expect(r.written).toContain(skill);
    expect(read(skill)).toMatch(/^---\nname: hub-workspace\n/);
    expect(ok(['skills', 'install', '--scope', 'project', '--target', 'codex']).written).toEqual([]);
    const user = ok([
      'skills',
      'install',
      '--scope',
      'user',
      '--target',
      'github_copilot',
      '--skill',
      'hub-workspace',
    ]);
    expect(user.written).toContain(join(home, '.copilot/skills/hub-workspace/SKILL.md'));
  });

  it('refuses an unknown or unsafe skill name, listing the bundled ones', () => {
    const unknown = hub([
      'skills',
      'install',
      '--scope',
      'project',
      '--target',
      'codex',
      '--skill',
      'hub-worksapce',
      '--json',
    ]);
    expect(unknown.json().error).toMatchObject({ code: 'not_found' });
    expect(unknown.json().error.message).toContain("did you mean 'hub-workspace'");
    const unsafe = hub([
      'skills',
      'install',
      '--scope',
      'project',
      '--target',
      'codex',
      '--skill',
      '../x',
      '--json',
    ]);
    expect(unsafe.json().error).toMatchObject({ code: 'validation', details: { rule: 'agent_skills_name' } });
    expect(existsSync(join(ws, '.agents'))).toBe(false);
  });

  it('refuses to replace a skill file the user changed; --force replaces it', () => {
    ok(['skills', 'install', '--scope', 'project', '--target', 'cursor']);
    const skill = join(ws, '.cursor/skills/hub-workspace/SKILL.md');
    writeFileSync(skill, `${read(skill)}\nmy own notes\n`);
    const r = hub(['skills', 'install', '--scope', 'project', '--target', 'cursor', '--json']);
    expect(r.code).toBe(1);
    expect(r.json().error.details).toMatchObject({ rule: 'changed_by_user' });
    expect(read(skill)).toContain('my own notes');
    ok(['skills', 'install', '--scope', 'project', '--target', 'cursor', '--force']);
    expect(read(skill)).not.toContain('my own notes');
  });
});

describe('agent create', () => {
  for (const vendor of VENDOR_IDS) {
    it(`${vendor}: installs the template where the vendor reads it, with its front-matter`, () => {
      const r = ok([
        'agent',
        'create',
        'repo-implementer',
        '--vendor',
        vendor,
        '--scope',
        'project',
        '--no-prompt',
      ]);
      const text = read(r.path);
      const fm = parseYaml(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!);
      expect(fm.description).toMatch(/scoped code change/);
      if (r.kind === 'skill') {
        expect(r.path).toMatch(/\/skills\/repo-implementer\/SKILL\.md$/);
        expect(fm.name).toBe('repo-implementer');
      } else
        expect(r.path).toMatch(
          vendor === 'github_copilot'
            ? /agents\/repo-implementer\.agent\.md$/
            : /agents\/repo-implementer\.md$/,
        );
      expect(text).toContain('hub');
      const again = ok(['agent', 'create', 'repo-implementer', '--vendor', vendor, '--scope', 'project']);
      expect(again).toMatchObject({ action: 'unchanged', written: [] });
    });
  }

  it('never silently overwrites a changed agent file, and --install-skills/--install-mcp go all or nothing', () => {
    const first = ok([
      'agent',
      'create',
      'repo-implementer',
      '--vendor',
      'claude_code',
      '--scope',
      'project',
    ]);
    writeFileSync(first.path, read(first.path).replace('# Repo implementer', '# Repo implementer (ours)'));
    const r = hub([
      'agent',
      'create',
      'repo-implementer',
      '--vendor',
      'claude_code',
      '--scope',
      'project',
      '--install-skills',
      '--install-mcp',
      '--json',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.details).toMatchObject({ rule: 'changed_by_user', value: first.path });
    expect(existsSync(join(ws, '.claude/skills'))).toBe(false);
    expect(existsSync(join(ws, '.mcp.json'))).toBe(false);
    const forced = ok([
      'agent',
      'create',
      'repo-implementer',
      '--vendor',
      'claude_code',
      '--scope',
      'project',
      '--install-skills',
      '--install-mcp',
      '--force',
    ]);
    expect(forced.skills.installed).toEqual(['hub-workspace']);
    expect(forced.mcp).toMatchObject({ path: join(ws, '.mcp.json'), action: 'create' });
    expect(read(first.path)).not.toContain('(ours)');
  });

  it('renders the answers file; an unknown answer is refused and nothing is written', () => {
    writeFileSync(join(dir, 'answers.yaml'), 'agent_id: impl-7\n');
    const r = ok([
      'agent',
      'create',
      'repo-implementer',
      '--vendor',
      'cursor',
      '--scope',
      'user',
      '--answers-file',
      join(dir, 'answers.yaml'),
      '--dry-run',
    ]);
    expect(r.files[0].content).toContain('`impl-7`');
    expect(existsSync(join(home, '.cursor'))).toBe(false);
    writeFileSync(join(dir, 'bad.yaml'), 'no_such_input: 1\n');
    const bad = hub([
      'agent',
      'create',
      'repo-implementer',
      '--vendor',
      'cursor',
      '--scope',
      'user',
      '--answers-file',
      join(dir, 'bad.yaml'),
      '--json',
    ]);
    expect(bad.json().error.message).toContain("unknown answer(s) 'no_such_input'");
    expect(existsSync(join(home, '.cursor'))).toBe(false);
  });
});

describe('agent apply', () => {
  it('installs each repository’s profile skills and the hub MCP entry in its checkout', () => {
    const manifest = join(ws, '.hub.yml');
    writeFileSync(
      manifest,
      read(manifest).replace(
        '- name: api\n',
        '- name: api\n          agent_profile: { skills: [hub-workspace, not-bundled], mcp: [hub, other], rules: [r1] }\n',
      ),
    );
    const apiDir = join(ws, 'shop/api');
    const r = ok(['agent', 'apply', '--vendor', 'cursor', '-p', 'shop', '-n', 'api']);
    expect(r.repos).toHaveLength(1);
    expect(r.repos[0]).toMatchObject({ repository: 'shop/api', root: apiDir, skills: ['hub-workspace'] });
    expect(r.repos[0].not_installed.map((n: { id: string }) => n.id)).toEqual(['not-bundled', 'other', 'r1']);
    expect(existsSync(join(apiDir, '.cursor/skills/hub-workspace/SKILL.md'))).toBe(true);
    expect(parseJsonc(read(join(apiDir, '.cursor/mcp.json'))).mcpServers.hub.args).toContain(ws);
    expect(ok(['agent', 'apply', '--vendor', 'cursor', '-p', 'shop', '-n', 'api']).written).toEqual([]);
    const dry = ok(['agent', 'apply', '--vendor', 'claude_code', '-p', 'shop', '--dry-run']);
    expect(dry.written).toEqual([]);
    expect(existsSync(join(apiDir, '.claude'))).toBe(false);
    expect(dry.files.map((f: { path: string }) => f.path)).toContain(join(apiDir, '.mcp.json'));
  });
});
