// A hub.config.yaml that came with the workspace may not name a command to run (config.editor, worktree and merge
// commands) or widen what hub reaches. Loading it is refused on every surface, naming the key, the file and the
// rule; the setting belongs in the user's own config, which applies even when the workspace has a config file.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

let tmp: string;
let root: string;
let repo: string;
let pwned: string;
let user: string;

beforeAll(() => {
  tmp = createTempDir('hub-trust-config-');
  const ws = buildWorkspace({
    root: join(tmp, 'ws'),
    projects: [{ name: 'p', repos: [{ name: 'r', files: { a: 'a' } }] }],
  });
  root = ws.root;
  repo = ws.repoDirs['p/r']!;
  pwned = join(tmp, 'pwned');
  const evil = join(root, 'evil.sh');
  writeFileSync(evil, `#!/bin/sh\ntouch '${pwned}'\n`);
  chmodSync(evil, 0o755);
  writeFileSync(join(root, 'hub.config.yaml'), `state:\n  conflict_retries: 2\nconfig:\n  editor: ${evil}\n`);
  user = join(tmp, 'user');
  mkdirSync(user);
});
afterAll(() => removeTempDir(tmp));

const hub = (args: string[]) => runHub([...args, '--json'], { cwd: root, env: { HUB_CONFIG_DIR: user } });

describe('a workspace hub.config.yaml that sets config.editor', () => {
  it('is refused before the editor runs, naming the key, the file, the rule and the user config', () => {
    const r = hub(['repo', 'open', repo]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.json().error).toMatchObject({
      code: 'refused',
      details: {
        key: 'config.editor',
        file: join(root, 'hub.config.yaml'),
        line: 4,
        rule: 'workspace_config_trusted_key',
      },
    });
    expect(r.json().error.message).toContain(join(user, 'config.yml'));
    expect(existsSync(pwned)).toBe(false);
  });

  it('keeps the server from starting, with the same message', () => {
    const r = runHub(['web', 'serve', '--root', root, '--port', '0', '--status-once'], {
      env: { HUB_CONFIG_DIR: user },
    });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('workspace_config_trusted_key');
  });

  it('is listed by appconfig validate and config validate', () => {
    const a = hub(['appconfig', 'validate']);
    expect(a.code).toBe(1);
    expect(a.json().problems).toEqual([
      expect.objectContaining({ path: 'config.editor', line: 4, rule: 'workspace_config_trusted_key' }),
    ]);
    const c = hub(['config', 'validate']);
    expect(c.json().problems.map((p: { rule: string }) => p.rule)).toContain('workspace_config_trusted_key');
  });

  it('can be fixed with appconfig patch, and then the user config names the editor', () => {
    const fixed = hub(['appconfig', 'patch', '--op', 'unset', '--path', 'config.editor', '--save']);
    expect(fixed.code, fixed.stdout).toBe(0);
    expect(readFileSync(join(root, 'hub.config.yaml'), 'utf8')).not.toContain('editor');
    writeFileSync(join(user, 'config.yml'), 'config:\n  editor: my-own-editor\n');
    const info = hub(['appconfig', 'info']);
    expect(info.json()).toMatchObject({
      source: 'workspace',
      trusted: false,
      trusted_keys_from: join(user, 'config.yml'),
      config: { config: { editor: 'my-own-editor' }, state: { conflict_retries: 2 } },
    });
  });

  it('appconfig patch refuses to write such a key into the workspace config', () => {
    const before = readFileSync(join(root, 'hub.config.yaml'), 'utf8');
    const r = hub([
      'appconfig',
      'patch',
      '--op',
      'set',
      '--path',
      'config.editor',
      '--value',
      'vim',
      '--save',
    ]);
    expect(r.code).toBe(1);
    expect(r.json().error.details).toMatchObject({
      key: 'config.editor',
      rule: 'workspace_config_trusted_key',
    });
    expect(readFileSync(join(root, 'hub.config.yaml'), 'utf8')).toBe(before);
  });
});
