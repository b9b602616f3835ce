// A hub.config.yaml found in the workspace came with the workspace (a clone, a shared folder): it may not set a
// command to run or widen what hub reaches. Those keys come only from the user's own config, a file the user
// names with --appconfig, or the environment.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HubError } from '../infra/index.js';
import { loadAppConfig } from './appconfig.js';
import { APPCONFIG_EXAMPLE } from './appconfig-example.js';
import { ALLOWED_OUTSIDE_ENV, TRUSTED_ONLY_KEYS, WORKSPACE_CONFIG_RULE } from './appconfig-trust.js';

const dirs: string[] = [];
function setup(): { ws: string; user: string } {
  const ws = mkdtempSync(join(tmpdir(), 'hub-trust-'));
  dirs.push(ws);
  const user = join(ws, '..', `${ws.split('/').pop()}-user`);
  mkdirSync(user);
  dirs.push(user);
  return { ws, user };
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function caught(fn: () => unknown): HubError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(HubError);
    return err as HubError;
  }
  throw new Error('expected an error');
}

const load = (ws: string, user: string, extra: { explicit?: string; env?: Record<string, string> } = {}) =>
  loadAppConfig({ cwd: ws, env: extra.env ?? {}, userConfigDir: user, explicit: extra.explicit });

describe('a workspace hub.config.yaml', () => {
  it.each([
    ['config.editor', 'config:\n  editor: sh -c evil\n', 2],
    [
      'coordination.worktree.post_create.command',
      'coordination:\n  worktree:\n    post_create:\n      command: [sh, -c, evil]\n',
      4,
    ],
    [
      'merge.regenerate',
      "merge:\n  regenerate:\n    - patterns: ['*.lock']\n      command: [sh, -c, evil]\n",
      2,
    ],
    ['merge.validators', 'merge:\n  validators:\n    - [sh, -c, evil]\n', 2],
    ['workspace.allowed_outside_paths', 'workspace:\n  allowed_outside_paths: [/etc]\n', 2],
    ['server.allowed_hosts', 'server:\n  allowed_hosts: [evil.example]\n', 2],
    // Lowering the events log's retention would erase history other agents rely on (issue 31).
    ['state.events.retain_count', 'state:\n  events:\n    retain_count: 100\n', 3],
    ['state.events.retain_days', 'state:\n  events:\n    retain_days: 1\n', 3],
    // The author of a cloned workspace would know the token of the server it starts (issue 25).
    ['server.token', `server:\n  token: ${'k'.repeat(40)}\n`, 2],
  ])('may not set %s: refused naming the key, the file, the line and the rule', (key, text, line) => {
    const { ws, user } = setup();
    writeFileSync(join(ws, 'hub.config.yaml'), `api_version: x\n${text}`);
    const err = caught(() => load(ws, user));
    expect(err.code).toBe('refused');
    expect(err.details).toMatchObject({
      key,
      file: join(ws, 'hub.config.yaml'),
      line: line + 1,
      rule: WORKSPACE_CONFIG_RULE,
    });
    expect(err.message).toContain(key);
    expect(err.message).toContain(join(ws, 'hub.config.yaml'));
    expect(err.message).toContain(WORKSPACE_CONFIG_RULE);
    expect(err.message).toContain(join(user, 'config.yml'));
  });

  it('lists every trusted-only key the file sets', () => {
    const { ws, user } = setup();
    writeFileSync(
      join(ws, 'hub.config.yml'),
      'config:\n  editor: vim\nserver:\n  allowed_hosts: [a.example]\n',
    );
    const err = caught(() => load(ws, user));
    expect((err.details!.issues as Array<{ path: string }>).map((i) => i.path)).toEqual([
      'config.editor',
      'server.allowed_hosts',
    ]);
  });

  it('may keep those keys at their defaults (the bundled example loads)', () => {
    const { ws, user } = setup();
    writeFileSync(join(ws, 'hub.config.yaml'), APPCONFIG_EXAMPLE);
    const r = load(ws, user);
    expect(r).toMatchObject({ source: 'workspace', trusted: false });
    expect(r.config.config.editor).toBe('code');
  });

  it('takes the trusted-only keys from the user config, which it would otherwise hide', () => {
    const { ws, user } = setup();
    writeFileSync(join(ws, 'hub.config.yaml'), 'api_version: from-ws\nconfig:\n  editor: code\n');
    writeFileSync(
      join(user, 'config.yml'),
      'api_version: from-user\nconfig:\n  editor: vim\nworkspace:\n  allowed_outside_paths: [/srv/repos]\n',
    );
    const r = load(ws, user);
    expect(r).toMatchObject({
      source: 'workspace',
      trusted: false,
      trustedKeysFrom: join(user, 'config.yml'),
    });
    expect(r.config.api_version).toBe('from-ws');
    expect(r.config.config.editor).toBe('vim');
    expect(r.config.workspace.allowed_outside_paths).toEqual(['/srv/repos']);
  });

  it('takes server.token from the user config or HUB_SERVER_TOKEN, never from itself', () => {
    const { ws, user } = setup();
    writeFileSync(join(ws, 'hub.config.yaml'), 'api_version: from-ws\n');
    writeFileSync(join(user, 'config.yml'), `server:\n  token: ${'u'.repeat(40)}\n`);
    expect(load(ws, user).config.server.token).toBe('u'.repeat(40));
    const env = { HUB_SERVER_TOKEN: 'e'.repeat(40) };
    expect(load(ws, user, { env }).config.server.token).toBe('e'.repeat(40));
  });
});

describe('trusted sources', () => {
  it('the user config and an explicit --appconfig may set every key', () => {
    const { ws, user } = setup();
    writeFileSync(
      join(user, 'config.yml'),
      'config:\n  editor: vim\nserver:\n  allowed_hosts: [hub.internal]\n',
    );
    expect(load(ws, user)).toMatchObject({
      source: 'user',
      trusted: true,
      config: { config: { editor: 'vim' } },
    });
    // Named by the user, even when it lies in the workspace.
    writeFileSync(join(ws, 'hub.config.yaml'), 'config:\n  editor: nano\n');
    const r = load(ws, user, { explicit: join(ws, 'hub.config.yaml') });
    expect(r).toMatchObject({ source: 'explicit', trusted: true, config: { config: { editor: 'nano' } } });
  });

  it(`${ALLOWED_OUTSIDE_ENV} adds absolute folders to the allowed outside paths`, () => {
    const { ws, user } = setup();
    writeFileSync(join(user, 'config.yml'), 'workspace:\n  allowed_outside_paths: [/srv/a]\n');
    const r = load(ws, user, { env: { [ALLOWED_OUTSIDE_ENV]: '/srv/b:/srv/a' } });
    expect(r.config.workspace.allowed_outside_paths).toEqual(['/srv/a', '/srv/b']);
    expect(r.overrides).toContain(ALLOWED_OUTSIDE_ENV);
    const err = caught(() => load(ws, user, { env: { [ALLOWED_OUTSIDE_ENV]: 'relative/dir' } }));
    expect(err.code).toBe('validation');
    expect(err.details).toMatchObject({
      variable: ALLOWED_OUTSIDE_ENV,
      value: 'relative/dir',
      rule: 'absolute_path',
    });
  });

  it('refuses a relative allowed outside path in a file', () => {
    const { ws, user } = setup();
    writeFileSync(join(user, 'config.yml'), 'workspace:\n  allowed_outside_paths: [../repos]\n');
    const err = caught(() => load(ws, user));
    expect(err.code).toBe('validation');
    expect(err.message).toContain('workspace.allowed_outside_paths[0]');
  });

  it('names every trusted-only key of the schema', () => {
    expect(TRUSTED_ONLY_KEYS.map((k) => k.key)).toEqual([
      'config.editor',
      'coordination.worktree.post_create.command',
      'merge.regenerate',
      'merge.validators',
      'workspace.allowed_outside_paths',
      'workspace.manifest_max_bytes',
      'state.dynamodb.endpoint',
      'state.mongodb.url',
      'state.events.retain_count',
      'state.events.retain_days',
      'server.allowed_hosts',
      'server.token',
    ]);
  });
});
