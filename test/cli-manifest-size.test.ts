// The manifest size limit as a setting, through the built CLI: a manifest over the default 8 MiB is refused
// naming the file, its size, the limit and how to raise it; HUB_MANIFEST_MAX_BYTES or the user config raises it;
// a hub.config.yaml inside the workspace may not.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { runHub } from './run-hub.js';

const MIB = 1_048_576;
let dir: string;
let userConfig: string;
let file: string;

beforeAll(() => {
  dir = createTempDir('hub-manifest-size-');
  userConfig = join(dir, 'user-config');
  mkdirSync(userConfig);
  const ws = join(dir, 'ws');
  mkdirSync(ws);
  file = join(ws, '.hub.yml');
  // A valid manifest past 8 MiB: comment lines cost no parse budget, so the test stays quick.
  const comment = `# ${'x'.repeat(1022)}\n`;
  writeFileSync(
    file,
    `${comment.repeat(9 * 1024)}workspace:\n  name: w\n  projects:\n    - name: p\n      repos: [{name: r, path: r}]\n`,
  );
});
afterAll(() => removeTempDir(dir));

const validate = (env: Record<string, string> = {}) =>
  runHub(['-c', file, 'config', 'validate', '--json'], { env: { HUB_CONFIG_DIR: userConfig, ...env } });

describe('the manifest size limit', () => {
  it('refuses a manifest over 8 MiB naming the file, its size, the limit and the setting that raises it', () => {
    const r = validate();
    const out = `${r.stdout}${r.stderr}`;
    expect(out).toContain(file);
    expect(out).toMatch(/is 9 MiB \(\d+ bytes\); the limit is 8 MiB \(8388608 bytes\)/);
    expect(out).toContain('HUB_MANIFEST_MAX_BYTES=16777216');
    expect(out).toContain('manifest_max_bytes');
    const list = runHub(['-c', file, 'component', 'list', '--json'], { env: { HUB_CONFIG_DIR: userConfig } });
    expect(list.code).not.toBe(0);
    expect(`${list.stdout}${list.stderr}`).toContain('HUB_MANIFEST_MAX_BYTES=16777216');
  });

  it('reads it once HUB_MANIFEST_MAX_BYTES or the user config raises the limit', () => {
    const r = validate({ HUB_MANIFEST_MAX_BYTES: String(16 * MIB) });
    expect(r.json()).toMatchObject({ valid: true, counts: { repos: 1 } });
    writeFileSync(join(userConfig, 'config.yml'), `workspace:\n  manifest_max_bytes: ${16 * MIB}\n`);
    try {
      const list = runHub(['-c', file, 'component', 'list', '--json'], {
        env: { HUB_CONFIG_DIR: userConfig },
      });
      expect(list.code, list.stderr).toBe(0);
      expect(validate().json()).toMatchObject({ valid: true });
    } finally {
      writeFileSync(join(userConfig, 'config.yml'), '{}\n');
    }
  });

  it('is not raised by a hub.config.yaml found in the workspace', () => {
    const local = join(dir, 'ws', 'hub.config.yaml');
    writeFileSync(local, `workspace:\n  manifest_max_bytes: ${16 * MIB}\n`);
    try {
      const r = runHub(['-c', file, 'component', 'list', '--json'], {
        cwd: join(dir, 'ws'),
        env: { HUB_CONFIG_DIR: userConfig },
      });
      expect(r.code).not.toBe(0);
      expect(`${r.stdout}${r.stderr}`).toMatch(/manifest_max_bytes/);
    } finally {
      writeFileSync(local, '{}\n');
    }
  });

  it('refuses a limit below the default, naming the variable', () => {
    const r = validate({ HUB_MANIFEST_MAX_BYTES: '1024' });
    expect(`${r.stdout}${r.stderr}`).toContain('HUB_MANIFEST_MAX_BYTES');
  });
});

describe('the edit paths under a raised limit', () => {
  const raised = { HUB_CONFIG_DIR: '', HUB_MANIFEST_MAX_BYTES: String(16 * MIB) };
  const hub = (args: string[]) =>
    runHub(['-c', file, ...args], { env: { ...raised, HUB_CONFIG_DIR: userConfig } });

  it('config show, tree, preview and patch --save read and write a manifest over 8 MiB', () => {
    const show = hub(['config', 'show', '--json']);
    expect(show.code, show.stderr).toBe(0);
    expect((show.json() as { text: string }).text).toContain('repos: [{name: r, path: r}]');
    const tree = hub(['config', 'tree', '--path', '/workspace/projects/p', '--json']);
    expect(tree.code, tree.stderr).toBe(0);
    const ops = JSON.stringify([{ op: 'set', path: '/workspace/projects/p/description', value: 'edited' }]);
    const preview = hub(['config', 'preview', '--operations', ops, '--json']);
    expect(preview.code, preview.stderr).toBe(0);
    expect(preview.json()).toMatchObject({ valid: true, changed: true });
    const patch = hub(['config', 'patch', '--operations', ops, '--save', '--json']);
    expect(patch.code, patch.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('description: edited');
  });

  it('catalog add writes a manifest over 8 MiB (the operations writer)', () => {
    const r = hub(['catalog', 'add', '--project', 'p', '--repo', 'r2', '--path', 'r2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/name: r2/);
  });
});
