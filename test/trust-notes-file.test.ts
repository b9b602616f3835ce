// notes_file is read on behalf of a request. Over HTTP and MCP it must lie inside the workspace on its real path
// (symlinks resolved); on every surface only a regular file is read, and at most 1 MiB of it, counted on the
// bytes actually read: a symlink to /dev/zero or to a FIFO is refused at once and never blocks the server.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, removeTempDir } from './fixtures/index.js';
import { call } from './http-server.js';
import { callJson, connectHub, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';
import { type SpawnedServer, spawnWebServer } from './spawn-server.js';

const SECRET = 'TOP-SECRET-0f3c';
let tmp: string;
let root: string;
let repo: string;
let manifest: string;

beforeAll(() => {
  tmp = createTempDir('hub-notes-');
  const outside = join(tmp, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), `${SECRET}\n`);
  execFileSync('mkfifo', [join(outside, 'pipe')]);
  const ws = buildWorkspace({
    root: join(tmp, 'ws'),
    projects: [{ name: 'p', repos: [{ name: 'r', files: { 'README.md': '# r\n' } }] }],
  });
  root = ws.root;
  manifest = ws.manifestPath;
  repo = ws.repoDirs['p/r']!;
  symlinkSync(join(outside, 'secret.txt'), join(repo, 'leak.txt'));
  symlinkSync('/dev/zero', join(repo, 'zero'));
  symlinkSync(join(outside, 'pipe'), join(repo, 'pipe-link'));
  execFileSync('mkfifo', [join(repo, 'pipe')]);
  writeFileSync(join(repo, 'notes.md'), 'inside note\n');
  writeFileSync(join(repo, 'big.md'), 'x'.repeat(1024 * 1024 + 1));
});
afterAll(() => removeTempDir(tmp));

const setWith = (id: string, notesFile: string) =>
  runHub(
    [
      '-c',
      manifest,
      'context',
      'objective',
      'set',
      '--id',
      id,
      '--title',
      id,
      '--notes-file',
      notesFile,
      '--json',
    ],
    {
      cwd: root,
    },
  );

describe('notes_file on the CLI', () => {
  it('reads a file the user names, through a symlink too (the user typed the path; docs/decisions.md)', () => {
    const r = setWith('cli-link', join(repo, 'leak.txt'));
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json().objective.agent_notes).toContain(SECRET);
  });

  it.each([
    ['a symlink to /dev/zero', 'zero'],
    ['a FIFO', 'pipe'],
    ['a symlink to a FIFO', 'pipe-link'],
    ['a folder', '.'],
  ])('refuses %s at once: only regular files are read', (_what, name) => {
    const r = setWith(`cli-${name.replace('.', 'dot')}`, join(repo, name));
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.json().error).toMatchObject({
      code: 'validation',
      details: { field: 'notes_file', rule: 'regular_file' },
    });
  });

  it('refuses a file over 1 MiB', () => {
    const r = setWith('cli-big', join(repo, 'big.md'));
    expect(r.code).toBe(1);
    expect(r.json().error.details).toMatchObject({ field: 'notes_file', rule: 'max_size' });
  });
});

describe('notes_file over HTTP (a separate server process, so a blocked server cannot block the test)', () => {
  let server: SpawnedServer;
  beforeAll(async () => {
    server = await spawnWebServer(root);
  });
  afterAll(() => server?.close());

  const post = (id: string, notesFile: string) =>
    call(server.base, 'POST', '/v3/ops/objectives', { body: { id, title: id, notes_file: notesFile } });

  it('refuses a symlink inside a repository that leads to a file outside the workspace', async () => {
    for (const p of ['p/r/leak.txt', join(repo, 'leak.txt')]) {
      const r = await post('http-leak', p);
      expect(r.status, r.text).toBe(400);
      expect(r.json.error.details).toMatchObject({ field: 'notes_file', rule: 'inside_workspace' });
      expect(r.text).not.toContain(SECRET);
    }
    const list = await call(server.base, 'GET', '/v3/ops/objectives');
    expect(list.json.objectives.map((o: { id: string }) => o.id)).not.toContain('http-leak');
  });

  it('refuses /dev/zero through a symlink, without reading it', async () => {
    const r = await post('http-zero', 'p/r/zero');
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.details.field).toBe('notes_file');
  });

  it('refuses a FIFO inside the workspace at once, and the server still answers', async () => {
    const r = await post('http-fifo', 'p/r/pipe');
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.details).toMatchObject({ field: 'notes_file', rule: 'regular_file' });
    const again = await call(server.base, 'GET', '/v3/ops/objectives');
    expect(again.status).toBe(200);
  }, 20_000);

  it('reads a regular file inside the workspace', async () => {
    const r = await post('http-ok', 'p/r/notes.md');
    expect(r.status, r.text).toBe(200);
    expect(r.json.objective.agent_notes).toContain('inside note');
  });
});

describe('notes_file over MCP', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectHub(root);
  });
  afterAll(() => client?.close());

  it('refuses a symlink to a file outside the workspace, and reads a file inside', async () => {
    const err = await rpcError(
      client.callTool({
        name: 'hub_objective_upsert',
        arguments: { id: 'mcp-leak', title: 't', notes_file: 'p/r/leak.txt' },
      }),
      -32602,
    );
    expect(JSON.stringify(err.data)).toContain('inside_workspace');
    expect(err.message).not.toContain(SECRET);
    const ok = await callJson(client, 'hub_objective_upsert', {
      id: 'mcp-ok',
      title: 't',
      notes_file: 'p/r/notes.md',
    });
    expect(ok.objective.agent_notes).toContain('inside note');
  });

  it('refuses a FIFO without blocking the tool server', async () => {
    await rpcError(
      client.callTool({
        name: 'hub_objective_upsert',
        arguments: { id: 'mcp-fifo', title: 't', notes_file: 'p/r/pipe' },
      }),
      -32602,
    );
    const list = await callJson(client, 'hub_objective_list', {});
    expect(list).toBeDefined();
  }, 20_000);
});
