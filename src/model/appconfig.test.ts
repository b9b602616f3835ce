import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, sha256Hex, ValidationError } from '../infra/index.js';
import {
  defaultUserConfigDir,
  loadAppConfig,
  locateAppConfig,
  saveAppConfig,
  stateBearerToken,
  stateDefaults,
} from './appconfig.js';
import { APPCONFIG_EXAMPLE } from './appconfig-example.js';
import { patchAppConfigText } from './appconfig-patch.js';
import { redactAppConfig } from './appconfig-redact.js';
import { appConfigSchema, STATE_URL_RULE } from './appconfig-schema.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'hub-appconfig-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function caught(fn: () => unknown): Error & { details?: Record<string, unknown> } {
  try {
    fn();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected an error');
}

describe('defaults', () => {
  it('applies every default when no file exists', () => {
    const ws = tmp();
    const r = loadAppConfig({ cwd: ws, env: {}, userConfigDir: join(ws, 'user') });
    expect(r.source).toBe('default');
    expect(r.path).toBeUndefined();
    expect(r.raw).toEqual({});
    expect(r.overrides).toEqual([]);
    expect(r.config).toEqual({
      state: { backend: 'local', conflict_retries: 1, timeout_ms: 10000 },
      coordination: {
        branch_pattern: 'agent/{task_id}[-{slug}]',
        allowed_branch_prefixes: ['agent/'],
        worktree_per_task: false,
      },
      merge: { validators: [], regenerate: [], timeout_ms: 600000 },
      workspace: {
        dedupe: { enabled: false },
        ui_ignore_hidden: true,
        worktrees_path: '.worktrees/',
        campaigns_path: '_campaigns/',
        manifest_max_bytes: 8 * 1024 * 1024,
        allowed_outside_paths: [],
      },
      config: { editor: 'code' },
      providers: {},
      api_version: '',
      server: { allowed_hosts: [] },
      agents: {},
    });
  });

  it('does not share default arrays between loads', () => {
    const a = appConfigSchema().parse({});
    a.coordination.allowed_branch_prefixes.push('x/');
    expect(appConfigSchema().parse({}).coordination.allowed_branch_prefixes).toEqual(['agent/']);
  });

  it('derives state ids from the workspace root', () => {
    const ws = tmp();
    expect(stateDefaults(ws)).toEqual({ org_id: '_', workspace_id: sha256Hex(resolve(ws)).slice(0, 16) });
    expect(stateDefaults(ws).workspace_id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('uses api_key as the bearer token when token is empty', () => {
    const c = appConfigSchema().parse({ state: { token: '', api_key: 'k-123' } });
    expect(stateBearerToken(c.state)).toBe('k-123');
    expect(stateBearerToken(appConfigSchema().parse({ state: { token: 't', api_key: 'k' } }).state)).toBe(
      't',
    );
  });

  it('accepts the bundled example', () => {
    const ws = tmp();
    writeFileSync(join(ws, 'hub.config.yaml'), APPCONFIG_EXAMPLE);
    const r = loadAppConfig({ cwd: ws, env: {}, userConfigDir: join(ws, 'user') });
    expect(r.config).toEqual(appConfigSchema().parse({}));
  });
});

describe('lookup chain', () => {
  it('prefers workspace yaml, then yml, then user config.yml, then config.yaml, then the default', () => {
    const ws = tmp();
    const user = join(ws, 'user');
    mkdirSync(user);
    const files = [
      join(ws, 'hub.config.yaml'),
      join(ws, 'hub.config.yml'),
      join(user, 'config.yml'),
      join(user, 'config.yaml'),
    ];
    files.forEach((f, i) => {
      writeFileSync(f, `api_version: v-${i}\n`);
    });
    const sources = ['workspace', 'workspace', 'user', 'user'];
    for (let i = 0; i < files.length; i++) {
      const r = loadAppConfig({ cwd: ws, env: {}, userConfigDir: user });
      expect(r.path).toBe(files[i]);
      expect(r.source).toBe(sources[i]);
      expect(r.config.api_version).toBe(`v-${i}`);
      rmSync(files[i]!);
    }
    expect(locateAppConfig({ cwd: ws, userConfigDir: user })).toEqual({ source: 'default' });
  });

  it('looks in the manifest root rather than cwd when given', () => {
    const ws = tmp();
    const sub = join(ws, 'deep', 'er');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(ws, 'hub.config.yml'), 'api_version: v3\n');
    const r = loadAppConfig({ cwd: sub, manifestRoot: ws, env: {}, userConfigDir: join(ws, 'user') });
    expect(r.path).toBe(join(ws, 'hub.config.yml'));
    expect(r.config.api_version).toBe('v3');
    expect(locateAppConfig({ cwd: sub, userConfigDir: join(ws, 'user') }).source).toBe('default');
  });

  it('honours an explicit path (relative to cwd) and refuses a missing one', () => {
    const ws = tmp();
    writeFileSync(join(ws, 'hub.config.yaml'), 'api_version: ws\n');
    writeFileSync(join(ws, 'other.yaml'), 'api_version: explicit\n');
    const r = loadAppConfig({ cwd: ws, explicit: 'other.yaml', env: {}, userConfigDir: join(ws, 'user') });
    expect(r).toMatchObject({ source: 'explicit', path: join(ws, 'other.yaml') });
    expect(r.config.api_version).toBe('explicit');
    const err = caught(() => locateAppConfig({ cwd: ws, explicit: 'missing.yaml', userConfigDir: ws }));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toContain(join(ws, 'missing.yaml'));
  });

  it('takes the user config dir from HUB_CONFIG_DIR', () => {
    expect(defaultUserConfigDir({ HUB_CONFIG_DIR: '/x/y' })).toBe('/x/y');
    expect(defaultUserConfigDir({})).toMatch(/hub$/);
    const ws = tmp();
    const user = join(ws, 'cfg');
    mkdirSync(user);
    writeFileSync(join(user, 'config.yaml'), 'api_version: user\n');
    const r = loadAppConfig({ cwd: ws, env: { HUB_CONFIG_DIR: user } });
    expect(r).toMatchObject({ source: 'user', path: join(user, 'config.yaml') });
  });
});

describe('validation', () => {
  it('rejects unknown keys with their path and line, listing every one', () => {
    const ws = tmp();
    writeFileSync(join(ws, 'hub.config.yaml'), 'state:\n  backend: local\n  bogus: 1\nextra: true\n');
    const err = caught(() => loadAppConfig({ cwd: ws, env: {}, userConfigDir: ws }));
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('application config');
    expect(err.message).toContain('line 3');
    expect(err.message).toContain("state.bogus: unknown key 'bogus'");
    const issues = err.details!.issues as Array<{ path: string; line: number }>;
    expect(issues.map((i) => [i.path, i.line])).toEqual([
      ['state.bogus', 3],
      ['extra', 4],
    ]);
  });

  it('names the rule for a bad type or enum value', () => {
    const ws = tmp();
    writeFileSync(join(ws, 'hub.config.yaml'), 'state:\n  backend: s3\n  conflict_retries: -1\n');
    const err = caught(() => loadAppConfig({ cwd: ws, env: {}, userConfigDir: ws }));
    const issues = err.details!.issues as Array<{ path: string; line: number }>;
    expect(issues.map((i) => [i.path, i.line])).toEqual([
      ['state.backend', 2],
      ['state.conflict_retries', 3],
    ]);
  });

  it('requires http or https for state.url with the spec message', () => {
    for (const url of ['ftp://host/x', 'file:///etc/passwd', 'not a url']) {
      const r = appConfigSchema().safeParse({ state: { url } });
      expect(r.success).toBe(false);
      expect(r.error!.issues[0]!.message).toBe(STATE_URL_RULE);
      expect(STATE_URL_RULE).toBe('remote state url must be http(s)');
    }
    expect(appConfigSchema().safeParse({ state: { url: 'https://hub.example.com/' } }).success).toBe(true);
    expect(appConfigSchema().safeParse({ state: { url: 'http://127.0.0.1:8787' } }).success).toBe(true);
  });

  it('normalizes legacy version and default_profile', () => {
    const ws = tmp();
    writeFileSync(join(ws, 'hub.config.yaml'), 'version: 2\ndefault_profile: reviewer\napi_version: v9\n');
    const r = loadAppConfig({ cwd: ws, env: {}, userConfigDir: ws });
    expect(r.config.agents.default_profile).toBe('reviewer');
    expect(r.config.api_version).toBe('v9');
    expect(r.raw).toEqual({ version: 2, default_profile: 'reviewer', api_version: 'v9' });
    expect(r.legacy).toEqual([
      { path: 'version', from: 'version', to: '', line: 1 },
      { path: 'default_profile', from: 'default_profile', to: 'agents.default_profile', line: 2 },
    ]);
  });

  it('reads a key with no value as not set', () => {
    const ws = tmp();
    writeFileSync(join(ws, 'hub.config.yaml'), 'server:\n  # token: later\nstate:\n  url:\n');
    const r = loadAppConfig({ cwd: ws, env: {}, userConfigDir: ws });
    expect(r.config.server).toEqual({ allowed_hosts: [] });
    expect(r.config.state.url).toBeUndefined();
  });

  it('keeps agents.default_profile over the legacy key', () => {
    const ws = tmp();
    writeFileSync(join(ws, 'hub.config.yaml'), 'default_profile: old\nagents:\n  default_profile: new\n');
    expect(loadAppConfig({ cwd: ws, env: {}, userConfigDir: ws }).config.agents.default_profile).toBe('new');
  });
});

describe('environment overrides', () => {
  it('applies HUB_* variables over the file and reports which took effect', () => {
    const ws = tmp();
    writeFileSync(join(ws, 'hub.config.yaml'), 'state:\n  backend: local\napi_version: file\n');
    const r = loadAppConfig({
      cwd: ws,
      userConfigDir: ws,
      env: {
        HUB_STATE_BACKEND: 'http',
        HUB_STATE_URL: 'https://hub.example.com',
        HUB_STATE_TOKEN: 'secret-token',
        HUB_STATE_ORG_ID: 'acme',
        HUB_STATE_WORKSPACE_ID: 'ws1',
        HUB_WORKSPACE_WORKTREES_PATH: 'wt/',
        HUB_WORKSPACE_CAMPAIGNS_PATH: 'camp/',
        HUB_API_VERSION: 'v9',
        HUB_SERVER_TOKEN: 'server-token',
        HUB_OTHER: 'ignored',
        HUB_STATE_ORG_ID_X: 'ignored',
      },
    });
    expect(r.config.state).toMatchObject({
      backend: 'http',
      url: 'https://hub.example.com',
      token: 'secret-token',
      org_id: 'acme',
      workspace_id: 'ws1',
    });
    expect(r.config.workspace).toMatchObject({ worktrees_path: 'wt/', campaigns_path: 'camp/' });
    expect(r.config.api_version).toBe('v9');
    expect(r.config.server.token).toBe('server-token');
    expect(r.overrides).toEqual([
      'HUB_STATE_BACKEND',
      'HUB_STATE_URL',
      'HUB_STATE_TOKEN',
      'HUB_STATE_ORG_ID',
      'HUB_STATE_WORKSPACE_ID',
      'HUB_WORKSPACE_WORKTREES_PATH',
      'HUB_WORKSPACE_CAMPAIGNS_PATH',
      'HUB_API_VERSION',
      'HUB_SERVER_TOKEN',
    ]);
    expect(r.raw).toEqual({ state: { backend: 'local' }, api_version: 'file' });
  });

  it('treats an empty variable as unset', () => {
    const ws = tmp();
    const r = loadAppConfig({ cwd: ws, userConfigDir: ws, env: { HUB_STATE_BACKEND: '' } });
    expect(r.config.state.backend).toBe('local');
    expect(r.overrides).toEqual([]);
  });

  it('validates overrides like file content and names the variable', () => {
    const ws = tmp();
    const err = caught(() =>
      loadAppConfig({ cwd: ws, userConfigDir: ws, env: { HUB_STATE_URL: 'ftp://x' } }),
    );
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toContain('remote state url must be http(s)');
    expect(err.message).toContain('HUB_STATE_URL');
    expect(err.message).toContain('ftp://x');
    expect(err.details).toMatchObject({ variable: 'HUB_STATE_URL', path: 'state.url', value: 'ftp://x' });
    const bad = caught(() => loadAppConfig({ cwd: ws, userConfigDir: ws, env: { HUB_STATE_BACKEND: 's3' } }));
    expect(bad.message).toContain('HUB_STATE_BACKEND');
  });
});

describe('redaction', () => {
  it('redacts tokens, keys named like secrets and URL credentials in a deep copy', () => {
    const config = appConfigSchema().parse({
      state: {
        token: 'abcdefgh1234',
        api_key: 'key',
        url: 'https://user:pa55word@hub.example.com/x',
        mongodb: { url: 'mongodb://admin:s3cr3t-pass@db1,db2/hub' },
      },
      server: { token: 'srv-token-9876' },
      providers: { jira: { organization: 'acme' } },
    });
    const r = redactAppConfig(config);
    expect(r.state.token).toBe('***1234');
    expect(r.state.api_key).toBe('***');
    expect(r.state.url).toBe('https://user:***word@hub.example.com/x');
    expect(r.state.mongodb!.url).toBe('mongodb://admin:***pass@db1,db2/hub');
    expect(r.server.token).toBe('***9876');
    expect(r.providers.jira!.organization).toBe('acme');
    expect(config.state.token).toBe('abcdefgh1234');
    const deep = redactAppConfig({
      a: { b: [{ password: 'hunter22' }], secret: 'abcd', client_secret: 'xyz12345' },
    });
    expect(deep).toEqual({ a: { b: [{ password: '***er22' }], secret: '***', client_secret: '***2345' } });
    expect(redactAppConfig({ u: 'https://ghp_tokenvalue@github.com/o/r' }).u).toBe(
      'https://***alue@github.com/o/r',
    );
  });
});

describe('patch', () => {
  const TEXT = `# my settings
state:
  backend: local # where state lives
  url: "https://old.example.com"
coordination:
  allowed_branch_prefixes: ['agent/']
config:
  editor: 'vim'
`;

  it('sets values keeping comments, key order and quoting', () => {
    const r = patchAppConfigText(TEXT, [
      { op: 'set', path: 'state.backend', value: 'http' },
      { op: 'set', path: 'state.url', value: 'https://new.example.com' },
      { op: 'set', path: 'config.editor', value: 'nano' },
      { op: 'set', path: 'state.conflict_retries', value: '3' },
      { op: 'set', path: 'coordination.worktree_per_task', value: 'true' },
      { op: 'set', path: 'coordination.allowed_branch_prefixes', value: 'agent/, bot/' },
      { op: 'set', path: 'server.allowed_hosts', value: '["hub.internal"]' },
      { op: 'set', path: 'providers.jira.organization', value: 'acme' },
    ]);
    expect(r.text).toBe(`# my settings
state:
  backend: http # where state lives
  url: "https://new.example.com"
  conflict_retries: 3
coordination:
  allowed_branch_prefixes: ['agent/', 'bot/']
  worktree_per_task: true
config:
  editor: 'nano'
server:
  allowed_hosts:
    - hub.internal
providers:
  jira:
    organization: acme
`);
    expect(r.config.state).toMatchObject({
      backend: 'http',
      url: 'https://new.example.com',
      conflict_retries: 3,
    });
    expect(r.config.coordination.allowed_branch_prefixes).toEqual(['agent/', 'bot/']);
    expect(r.config.coordination.worktree_per_task).toBe(true);
    expect(r.config.server.allowed_hosts).toEqual(['hub.internal']);
  });

  it('quotes a string value that would otherwise read as another type', () => {
    const r = patchAppConfigText('api_version: v1\n', [{ op: 'set', path: 'api_version', value: '2' }]);
    expect(r.config.api_version).toBe('2');
  });

  it('unsets keys and drops parents left empty', () => {
    const r = patchAppConfigText(TEXT, [
      { op: 'unset', path: 'state.url' },
      { op: 'unset', path: 'config.editor' },
      { op: 'unset', path: 'workspace.dedupe.enabled' },
    ]);
    expect(r.text).toBe(`# my settings
state:
  backend: local # where state lives
coordination:
  allowed_branch_prefixes: ['agent/']
`);
    expect(r.config.config.editor).toBe('code');
  });

  it('starts from an empty file', () => {
    const r = patchAppConfigText('', [{ op: 'set', path: 'state.backend', value: 'memory' }]);
    expect(r.text).toBe('state:\n  backend: memory\n');
  });

  it('rejects an unknown path, a wrong type and a broken rule, naming path, value and rule', () => {
    const unknown = caught(() => patchAppConfigText(TEXT, [{ op: 'set', path: 'state.nope', value: 'x' }]));
    expect(unknown).toBeInstanceOf(ValidationError);
    expect(unknown.message).toContain('state.nope');
    expect(unknown.details).toMatchObject({ path: 'state.nope', value: 'x', rule: 'unknown_key' });
    expect(() => patchAppConfigText(TEXT, [{ op: 'unset', path: 'nope' }])).toThrow(/unknown key 'nope'/);

    const bool = caught(() =>
      patchAppConfigText(TEXT, [{ op: 'set', path: 'coordination.worktree_per_task', value: 'maybe' }]),
    );
    expect(bool).toBeInstanceOf(ValidationError);
    expect(bool.message).toBe(
      "cannot set coordination.worktree_per_task to 'maybe': expected a boolean (true or false)",
    );
    const int = caught(() =>
      patchAppConfigText(TEXT, [{ op: 'set', path: 'state.conflict_retries', value: '1.5' }]),
    );
    expect(int.message).toContain('expected an integer');

    const url = caught(() => patchAppConfigText(TEXT, [{ op: 'set', path: 'state.url', value: 'ftp://x' }]));
    expect(url.message).toBe("cannot set state.url to 'ftp://x': remote state url must be http(s)");
    expect(url.details).toMatchObject({ path: 'state.url', value: 'ftp://x', rule: 'schema.custom' });

    const en = caught(() => patchAppConfigText(TEXT, [{ op: 'set', path: 'state.backend', value: 's3' }]));
    expect(en.message).toContain("cannot set state.backend to 's3'");

    const neg = caught(() =>
      patchAppConfigText(TEXT, [{ op: 'set', path: 'state.conflict_retries', value: '-2' }]),
    );
    expect(neg.details).toMatchObject({ rule: 'schema.too_small' });
  });

  it('redacts a secret value in its error', () => {
    const err = caught(() =>
      patchAppConfigText('', [{ op: 'set', path: 'state.password', value: 'hunter22' }]),
    );
    expect(err.message).toBe("cannot set state.password to '***er22': unknown key 'state.password'");
  });

  it('can drop legacy keys', () => {
    const r = patchAppConfigText('version: 1\ndefault_profile: x\n', [
      { op: 'unset', path: 'version' },
      { op: 'set', path: 'agents.default_profile', value: 'x' },
      { op: 'unset', path: 'default_profile' },
    ]);
    expect(r.text).toBe('agents:\n  default_profile: x\n');
  });
});

describe('save', () => {
  it('writes atomically, leaving no temp file, and keeps the mode of an existing file', () => {
    const ws = tmp();
    const file = join(ws, 'nested', 'hub.config.yaml');
    saveAppConfig(file, 'api_version: v1');
    expect(readFileSync(file, 'utf8')).toBe('api_version: v1\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(ws, 'nested'))).toEqual(['hub.config.yaml']);

    const r = patchAppConfigText(readFileSync(file, 'utf8'), [
      { op: 'set', path: 'api_version', value: 'v2' },
    ]);
    saveAppConfig(file, r.text);
    expect(readdirSync(join(ws, 'nested'))).toEqual(['hub.config.yaml']);
    const loaded = loadAppConfig({ cwd: ws, explicit: file, env: {}, userConfigDir: ws });
    expect(loaded.config.api_version).toBe('v2');
  });
});
