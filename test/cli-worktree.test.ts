// worktree create|list|adopt|destroy|gc through the built CLI, a real server and the MCP SDK client, on real
// git repositories: `.`/`self`, events, the http state backend (records on the server, git here), concurrent
// creates on every backend, and GET never writes.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import {
  buildWorkspace,
  createTempDir,
  git,
  hubAsync,
  makeGitRepo,
  removeTempDir,
} from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub } from './mcp-client.js';
import { runHub } from './run-hub.js';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) removeTempDir(t);
});

function demo() {
  const dir = createTempDir('hub-wt-cli-');
  temps.push(dir);
  const d = createDemo(join(dir, 'demo'));
  const repo = join(d.root, 'platform/identity');
  for (let i = 0; i < 8; i++) git(repo, ['branch', `agent/T${i}`]);
  return { ...d, repo };
}

const hubIn =
  (manifest: string, env: Record<string, string> = {}) =>
  (...args: string[]) =>
    runHub(['-c', manifest, ...args, '--json'], { env });

describe('--repository . and self', () => {
  it('make worktrees of the git repository holding the manifest, under <agent>/<key>/<task>', () => {
    const root = createTempDir('hub-wt-self-');
    temps.push(root);
    const ws = buildWorkspace({
      root,
      projects: [{ name: 'platform', repos: [{ name: 'identity', files: { 'a.txt': 'a' } }] }],
    });
    // The manifest's own folder is a git repository the manifest does not list.
    writeFileSync(join(root, '.gitignore'), 'platform/\n.worktrees/\n.hub/\n');
    makeGitRepo(root, { 'README.md': 'defs\n' });
    git(root, ['branch', 'defs/T1']);
    git(root, ['branch', 'defs/T2']);
    const hub = hubIn(ws.manifestPath);
    const dot = hub(
      'worktree',
      'create',
      '--repository',
      '.',
      '--agent-id',
      'a1',
      '--task-id',
      'T1',
      '--branch',
      'defs/T1',
    );
    expect(dot.code, dot.stderr).toBe(0);
    expect(dot.json().worktree).toMatchObject({
      repository: 'self',
      path: join(root, '.worktrees/a1/self/T1'),
    });
    const self = hub(
      'worktree',
      'create',
      '--repository',
      'self',
      '--agent-id',
      'a1',
      '--task-id',
      'T2',
      '--branch',
      'defs/T2',
    );
    expect(self.code, self.stderr).toBe(0);
    expect(git(join(root, '.worktrees/a1/self/T2'), ['rev-parse', '--abbrev-ref', 'HEAD'])).toBe('defs/T2');
    expect(existsSync(join(root, '.hub/worktrees/self.json'))).toBe(true);
    const list = hub('worktree', 'list', '--repository', 'self');
    expect(
      list.json().worktrees.map((w: { task_id: string; state: string }) => [w.task_id, w.state]),
    ).toEqual([
      ['T1', 'present'],
      ['T2', 'present'],
    ]);
  });
});

describe('the CLI', () => {
  it('records every lifecycle change as an acl event, and refuses destroy of a dirty worktree without --force', () => {
    const d = demo();
    const hub = hubIn(d.manifestPath);
    const made = hub(
      'worktree',
      'create',
      '--repository',
      'platform/identity',
      '--agent-id',
      'a1',
      '--task-id',
      'T1',
      '--branch',
      'agent/T1',
    );
    expect(made.code, made.stderr).toBe(0);
    const path = made.json().worktree.path;
    expect(existsSync(join(d.root, '.hub/worktrees/platform~identity.json'))).toBe(true);
    writeFileSync(join(path, 'wip.txt'), 'wip');
    const kept = hub('worktree', 'destroy', '--path', path);
    expect(kept.code).toBe(1);
    expect(kept.json().error).toMatchObject({
      code: 'refused',
      details: { rule: 'clean_worktree', reasons: [{ reason: 'untracked_files', paths: ['wip.txt'] }] },
    });
    expect(existsSync(join(path, 'wip.txt'))).toBe(true);
    expect(hub('worktree', 'gc', '--dry-run').json()).toMatchObject({ dry_run: true, results: [] });
    const gone = hub('worktree', 'destroy', '--path', path, '--force');
    expect(gone.code, gone.stderr).toBe(0);
    expect(gone.json()).toMatchObject({ action: 'removed', forced: true });
    git(d.repo, ['worktree', 'add', '-q', join(d.root, 'by-hand'), 'agent/T2']);
    const adopted = hub(
      'worktree',
      'adopt',
      '--path',
      join(d.root, 'by-hand'),
      '--repository',
      'platform/identity',
      '--agent-id',
      'a2',
      '--task-id',
      'T2',
    );
    expect(adopted.code, adopted.stderr).toBe(0);
    const events = hub('context', 'events').json().events as Array<{
      source: string;
      kind: string;
      subject: string;
    }>;
    expect(events.filter((e) => e.source === 'acl').map((e) => [e.kind, e.subject])).toEqual([
      ['WorktreeCreated', 'platform/identity'],
      ['WorktreeDestroyed', 'platform/identity'],
      ['WorktreeAdopted', 'platform/identity'],
    ]);
  });

  it('takes post_create from the config: links an ignored file, runs a trusted command without a shell', () => {
    const d = demo();
    writeFileSync(join(d.repo, '.git/info/exclude'), '.env\n');
    writeFileSync(join(d.repo, '.env'), 'TOKEN=x\n');
    const cfg = join(temps[temps.length - 1]!, 'trusted.yaml');
    writeFileSync(
      cfg,
      `coordination:\n  worktree:\n    post_create:\n      symlink: [.env]\n      command: ['${process.execPath}', '-e', 'console.log(process.argv[1])', 'x; touch pwned']\n`,
    );
    const r = runHub([
      '-c',
      d.manifestPath,
      '--appconfig',
      cfg,
      'worktree',
      'create',
      '--repository',
      'platform/identity',
      '--agent-id',
      'a1',
      '--task-id',
      'T1',
      '--branch',
      'agent/T1',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = r.json();
    expect(out.post_create).toMatchObject({
      symlinked: ['.env'],
      command: { exit_code: 0, stdout: 'x; touch pwned\n' },
    });
    expect(readFileSync(join(out.worktree.path, '.env'), 'utf8')).toBe('TOKEN=x\n');
    expect(existsSync(join(out.worktree.path, 'pwned'))).toBe(false);
  });
});

/** Every file under `.hub/` and each repository's `.git/worktrees`, as path -> SHA-256. */
function snapshot(root: string, repo: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const top of [join(root, '.hub'), join(repo, '.git/worktrees')]) {
    const stack = [top];
    while (stack.length) {
      const dir = stack.pop()!;
      if (!existsSync(dir)) continue;
      for (const e of readdirSync(dir)) {
        const p = join(dir, e);
        if (statSync(p).isDirectory()) stack.push(p);
        else out[relative(root, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
      }
    }
  }
  return out;
}

describe('the servers', () => {
  let d: ReturnType<typeof demo>;
  let srv: RunningServer;
  let mcp: Client;
  beforeAll(async () => {
    d = demo();
    srv = await startTestServer({ root: d.root });
    mcp = await connectHub(d.root);
  });
  afterAll(async () => {
    await mcp?.close();
    await srv?.close();
  });

  it('create, list, destroy and gc alike on the CLI, MCP and HTTP', async () => {
    const hub = hubIn(d.manifestPath);
    const args = (task: string) => ({
      repository: 'platform/identity',
      agent_id: 'a1',
      task_id: task,
      branch: `agent/${task}`,
    });
    const cli = hub(
      'worktree',
      'create',
      '--repository',
      'platform/identity',
      '--agent-id',
      'a1',
      '--task-id',
      'T1',
      '--branch',
      'agent/T1',
    ).json();
    const viaMcp = await callJson(mcp, 'hub_worktree_create', args('T2'));
    const viaHttp = await call(srv.base, 'POST', '/v3/ops/worktrees', { body: args('T3') });
    expect(viaHttp.status, viaHttp.text).toBe(200);
    const norm = (r: { worktree: Record<string, unknown> }) => ({
      ...r,
      worktree: {
        ...r.worktree,
        id: '<id>',
        path: '<path>',
        git_dir: '<git_dir>',
        task_id: '<task>',
        branch: '<b>',
        created_at: '<t>',
        updated_at: '<t>',
      },
    });
    expect(norm(viaMcp)).toEqual(norm(cli));
    expect(norm(viaHttp.json)).toEqual(norm(cli));
    const list = hub('worktree', 'list', '--agent-id', 'a1').json();
    expect(list.worktrees).toHaveLength(3);
    expect(await callJson(mcp, 'hub_worktree_list', { agent_id: 'a1' })).toEqual(list);
    expect((await call(srv.base, 'GET', '/v3/ops/worktrees?agent_id=a1')).json).toEqual(list);
    const gcArgs = { dry_run: true };
    const gcCli = hub('worktree', 'gc', '--dry-run').json();
    expect(await callJson(mcp, 'hub_worktree_gc', gcArgs)).toEqual(gcCli);
    expect((await call(srv.base, 'POST', '/v3/ops/worktrees/gc', { body: gcArgs })).json).toEqual(gcCli);
    const ids = list.worktrees.map((w: { id: string }) => w.id);
    const outs = [
      hub('worktree', 'destroy', '--id', ids[0]).json(),
      await callJson(mcp, 'hub_worktree_destroy', { id: ids[1] }),
      (await call(srv.base, 'POST', '/v3/ops/worktrees/destroy', { body: { id: ids[2] } })).json,
    ];
    expect(outs.map((o) => [o.action, o.forced])).toEqual([
      ['removed', false],
      ['removed', false],
      ['removed', false],
    ]);
  });

  it('GET /v3/ops/worktrees and hub_worktree_list never write, whatever state the worktrees are in', async () => {
    const hub = hubIn(d.manifestPath);
    for (const t of ['T4', 'T5', 'T6'])
      hub(
        'worktree',
        'create',
        '--repository',
        'platform/identity',
        '--agent-id',
        'a9',
        '--task-id',
        t,
        '--branch',
        `agent/${t}`,
      );
    git(d.repo, [
      'worktree',
      'move',
      join(d.root, '.worktrees/a9/platform~identity/T4'),
      join(d.root, 'moved'),
    ]);
    removeTempDir(join(d.root, '.worktrees/a9/platform~identity/T5'));
    const before = snapshot(d.root, d.repo);
    expect(Object.keys(before).some((p) => p.includes('worktrees/T5'))).toBe(true);
    for (const q of [
      '',
      '?agent_id=a9',
      '?repository=platform/identity',
      '?repository=.',
      '?force=true',
      '?dry_run=false',
    ]) {
      const r = await call(srv.base, 'GET', `/v3/ops/worktrees${q}`, {
        headers: { origin: 'https://evil.example' },
      });
      expect(r.status, q).toBeLessThan(500);
    }
    const states = (await callJson(mcp, 'hub_worktree_list', { agent_id: 'a9' })).worktrees.map(
      (w: { state: string }) => w.state,
    );
    expect(states).toEqual(['moved', 'missing', 'present']);
    expect(snapshot(d.root, d.repo)).toEqual(before);
    // Cross-site writes are refused before anything runs.
    const foreign = await call(srv.base, 'POST', '/v3/ops/worktrees/gc', {
      body: { force: true },
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(snapshot(d.root, d.repo)).toEqual(before);
  });
});

describe('concurrent creates keep every record', () => {
  const creates = (manifest: string, env: Record<string, string> = {}) =>
    Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        hubAsync(
          manifest,
          [
            'worktree',
            'create',
            '--repository',
            'platform/identity',
            '--agent-id',
            `a${i}`,
            '--task-id',
            `T${i}`,
            '--branch',
            `agent/T${i}`,
            '--json',
          ],
          env,
        ),
      ),
    );

  it('on the local backend (concurrent processes)', async () => {
    const d = demo();
    const runs = await creates(d.manifestPath);
    expect(runs.filter((r) => r.code !== 0).map((r) => r.out)).toEqual([]);
    expect(hubIn(d.manifestPath)('worktree', 'list').json().worktrees).toHaveLength(6);
  });

  it('on the http backend: records on the server, checkouts here', async () => {
    const d = demo();
    const serverDir = createTempDir('hub-wt-server-');
    temps.push(serverDir);
    const server = createDemo(join(serverDir, 'demo'));
    const srv = await startTestServer({ root: server.root });
    try {
      const env = { HUB_STATE_BACKEND: 'http', HUB_STATE_URL: srv.base };
      const runs = await creates(d.manifestPath, env);
      expect(runs.filter((r) => r.code !== 0).map((r) => r.out)).toEqual([]);
      // Asynchronous processes: the test server runs in this process, so a synchronous child would block it.
      const run = async (...args: string[]) => {
        const r = await hubAsync(d.manifestPath, [...args, '--json'], env);
        expect(r.code, r.out).toBe(0);
        return JSON.parse(r.out);
      };
      const list = (await run('worktree', 'list')).worktrees;
      expect(list).toHaveLength(6);
      expect(
        list.every(
          (w: { state: string; path: string }) => w.state === 'present' && w.path.startsWith(d.root),
        ),
      ).toBe(true);
      expect(existsSync(join(d.root, '.hub/worktrees'))).toBe(false);
      expect(existsSync(join(server.root, '.hub/worktrees/platform~identity.json'))).toBe(true);
      expect((await run('worktree', 'destroy', '--agent-id', 'a0', '--task-id', 'T0')).action).toBe(
        'removed',
      );
      expect((await run('worktree', 'list')).worktrees).toHaveLength(5);
    } finally {
      await srv.close();
    }
  });
});
