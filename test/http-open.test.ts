// POST /v3/ops/open runs config.editor on a managed repository and refuses every other path. The editor is a
// real executable written here that records its argv, so each test sees what a real editor would have received.
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';

let root: string;
let repo: string;
let tools: string;
let argvFile: string;
let srv: RunningServer;

/** The editor's argv, one per line, once it has run (the editor is detached, so wait for its file). */
async function editorArgv(): Promise<string[]> {
  for (let i = 0; i < 200 && !existsSync(`${argvFile}.done`); i++) await sleep(25);
  return readFileSync(argvFile, 'utf8').split('\n').filter(Boolean);
}

beforeAll(async () => {
  const built = buildWorkspace({
    projects: [
      {
        name: 'p',
        repos: [
          { name: 'r', files: { 'src/main.go': 'package main\n' } },
          { name: 'gone', url: 'https://example.com/gone.git' },
        ],
      },
    ],
  });
  root = built.root;
  repo = built.repoDirs['p/r']!;
  tools = createTempDir('hub-editor-');
  argvFile = join(tools, 'argv.txt');
  const editor = join(tools, 'editor.sh');
  writeFileSync(editor, `#!/bin/sh\nprintf '%s\\n' "$@" > '${argvFile}'\ntouch '${argvFile}.done'\n`);
  chmodSync(editor, 0o755);
  // The editor is a command: only the user's own config may name it (a workspace hub.config.yaml may not).
  const userDir = join(tools, 'user-config');
  mkdirSync(userDir);
  writeFileSync(join(userDir, 'config.yml'), `config:\n  editor: ${editor} --reuse-window\n`);
  srv = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', HUB_CONFIG_DIR: userDir } });
});
afterAll(async () => {
  await srv?.close();
  removeTempDir(root);
  removeTempDir(tools);
});
beforeEach(() => {
  rmSync(argvFile, { force: true });
  rmSync(`${argvFile}.done`, { force: true });
});

describe('POST /v3/ops/open', () => {
  it('runs the configured editor, without a shell, on the repository', async () => {
    const r = await call(srv.base, 'POST', '/v3/ops/open', { body: { path: repo } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ opened: true, repository: 'p/r', path: repo });
    expect(await editorArgv()).toEqual(['--reuse-window', repo]);
  });

  it('compares by real path: a symlink to, or a dotted path of, the repository opens its real path', async () => {
    const link = join(tools, 'link-to-r');
    symlinkSync(repo, link);
    const r = await call(srv.base, 'POST', '/v3/ops/open', { body: { path: `${link}/` } });
    expect(r.status).toBe(200);
    expect(await editorArgv()).toEqual(['--reuse-window', repo]);
    rmSync(`${argvFile}.done`, { force: true });
    const dotted = await call(srv.base, 'POST', '/v3/ops/open', { body: { path: join(repo, 'src', '..') } });
    expect(dotted.status).toBe(200);
    // Wait for the detached editor, so it cannot write into the next test's argv file.
    expect(await editorArgv()).toEqual(['--reuse-window', repo]);
  });

  it('refuses every other path (403) and runs nothing', async () => {
    mkdirSync(join(root, 'not-a-repo'), { recursive: true });
    for (const path of [
      join(repo, 'src'),
      join(repo, 'src', 'main.go'),
      root,
      join(root, 'not-a-repo'),
      join(root, 'p', 'gone'),
      '/etc',
      '/',
      join(root, 'p', 'r; touch pwned'),
      `${repo}/../../..`,
    ]) {
      const r = await call(srv.base, 'POST', '/v3/ops/open', { body: { path } });
      expect(r.status, path).toBe(403);
      expect(r.json).toMatchObject({ error: { code: 'refused' } });
    }
    expect(existsSync(argvFile)).toBe(false);
    expect(existsSync(join(root, 'p', 'pwned'))).toBe(false);
  });

  it('answers 400 for a missing, empty or relative path, or a path with a NUL', async () => {
    for (const body of [
      {},
      { path: '' },
      { path: 'p/r' },
      { path: './p/r' },
      { path: `${repo}\u0000x` },
      { path: 3 },
    ]) {
      const r = await call(srv.base, 'POST', '/v3/ops/open', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('validation');
    }
    expect(existsSync(argvFile)).toBe(false);
  });

  it('answers an editor that is not installed with a clear refusal naming config.editor and where to set it', async () => {
    const other = createTempDir('hub-open-');
    const emptyBin = createTempDir('hub-open-bin-');
    const userDir = createTempDir('hub-open-user-');
    try {
      const ws = buildWorkspace({
        root: other,
        projects: [{ name: 'p', repos: [{ name: 'r', files: { a: 'a' } }] }],
      });
      const path = ws.repoDirs['p/r']!;
      // A file the user names with --appconfig: the message points there.
      writeFileSync(join(other, 'editor.yaml'), 'config:\n  editor: /nonexistent/editor-binary\n');
      const s = await startTestServer({ root: other, appconfig: join(other, 'editor.yaml') });
      try {
        const r = await call(s.base, 'POST', '/v3/ops/open', { body: { path } });
        expect(r.status).toBe(409);
        expect(r.json.error).toMatchObject({
          code: 'refused',
          details: { field: 'config.editor', editor: '/nonexistent/editor-binary', rule: 'editor_installed' },
        });
        expect(r.json.error.message).toContain('/nonexistent/editor-binary');
        expect(r.json.error.message).toContain('config.editor');
        expect(r.json.error.message).toContain(join(other, 'editor.yaml'));
        expect(r.text).not.toMatch(/\n\s+at /);
      } finally {
        await s.close();
      }
      // The default editor (`code`) is often missing: the message says where the user's own setting goes.
      const d = await startTestServer({
        root: other,
        env: { HUB_CACHE_DIR: 'off', HUB_CONFIG_DIR: userDir, PATH: emptyBin },
      });
      try {
        const r = await call(d.base, 'POST', '/v3/ops/open', { body: { path } });
        expect(r.status).toBe(409);
        expect(r.json.error.code).toBe('refused');
        expect(r.json.error.details).toMatchObject({ editor: 'code', rule: 'editor_installed' });
        expect(r.json.error.message).toContain("'code'");
        expect(r.json.error.message).toContain(join(userDir, 'config.yml'));
        expect(r.json.error.message).toMatch(/editor links/);
      } finally {
        await d.close();
      }
    } finally {
      removeTempDir(other);
      removeTempDir(emptyBin);
      removeTempDir(userDir);
    }
  });
});
