// Granular coordination routes on the demo workspace, shared with the CLI through the same .hub/ store.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, git, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { runHub } from './run-hub.js';

let dir: string;
let root: string;
let manifest: string;
let srv: RunningServer;

beforeAll(async () => {
  dir = createTempDir('hub-http-granular-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
  srv = await startTestServer({ root });
});
afterAll(async () => {
  await srv?.close();
  removeTempDir(dir);
});

const hub = (...args: string[]) => runHub(['-c', manifest, ...args, '--json']);

describe('objectives', () => {
  it('POST creates or merges, and the CLI sees the result', async () => {
    const created = await call(srv.base, 'POST', '/v3/ops/objectives', {
      body: {
        id: 'auth',
        title: 'Rework auth',
        repos: [join(root, 'platform', 'identity')],
        status: 'in_progress',
      },
    });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      created: true,
      objective: { id: 'auth', repos: ['./platform/identity'] },
    });
    const merged = await call(srv.base, 'POST', '/v3/ops/objectives', {
      body: { id: 'auth', acceptance: 'tests pass', left_off: 'token refresh' },
    });
    expect(merged.status).toBe(200);
    expect(merged.json.created).toBe(false);
    expect(merged.json.objective.agent_notes).toContain('token refresh');
    const cli = hub('context', 'objective', 'list');
    expect(cli.json().objectives.map((o: { id: string }) => o.id)).toEqual(['auth']);
    const noTitle = await call(srv.base, 'POST', '/v3/ops/objectives', { body: { id: 'other' } });
    expect(noTitle.status).toBe(400);
  });

  it('PATCH edits the fields of one objective', async () => {
    const r = await call(srv.base, 'PATCH', '/v3/ops/objectives/auth', {
      body: { status: 'blocked', human_notes: 'waiting on review' },
    });
    expect(r.status).toBe(200);
    expect(r.json.objective).toMatchObject({
      id: 'auth',
      status: 'blocked',
      human_notes: 'waiting on review',
    });
    expect(hub('context', 'objective', 'list', '--status', 'blocked').json().objectives).toHaveLength(1);
  });

  it('PATCH answers 404 for an unknown id and 400 for bad fields', async () => {
    const missing = await call(srv.base, 'PATCH', '/v3/ops/objectives/nope', { body: { title: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.json.error.code).toBe('not_found');
    for (const body of [{ colour: 'red' }, { status: 'sideways' }, {}, { id: 'other', title: 'x' }]) {
      const r = await call(srv.base, 'PATCH', '/v3/ops/objectives/auth', { body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('validation');
    }
  });
});

describe('approvals', () => {
  it('POST /v3/ops/approvals/{id}/resolve decides once', async () => {
    const req = runHub(['-c', manifest, 'context', 'approval', 'request', '--json'], {
      input: JSON.stringify({ action: 'deploy', requested_by: 'agent-1', payload: { env: 'prod' } }),
    });
    expect(req.code).toBe(0);
    const id = req.json().request.id as string;
    const pending = await call(srv.base, 'GET', '/v3/ops/approvals');
    expect(pending.json.requests.map((r: { id: string }) => r.id)).toEqual([id]);

    const ok = await call(srv.base, 'POST', `/v3/ops/approvals/${id}/resolve`, {
      body: { decision: 'approved', by: 'alice' },
    });
    expect(ok.status).toBe(200);
    expect(ok.json.request).toMatchObject({ id, status: 'approved', decision: 'approved' });
    const again = await call(srv.base, 'POST', `/v3/ops/approvals/${id}/resolve`, {
      body: { decision: 'denied' },
    });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('refused');
    const unknown = await call(srv.base, 'POST', '/v3/ops/approvals/nope/resolve', {
      body: { decision: 'approved' },
    });
    expect(unknown.status).toBe(404);
    const bad = await call(srv.base, 'POST', `/v3/ops/approvals/${id}/resolve`, {
      body: { decision: 'maybe' },
    });
    expect(bad.status).toBe(400);
    expect((await call(srv.base, 'GET', '/v3/ops/approvals')).json.requests).toEqual([]);
  });
});

describe('sessions', () => {
  it('POST /v3/ops/session/begin returns the envelope; GET /v3/ops/session the digest', async () => {
    const begin = await call(srv.base, 'POST', '/v3/ops/session/begin', {
      body: { project_name: 'platform' },
    });
    expect(begin.status).toBe(200);
    expect(begin.json).toMatchObject({ ok: true, project: 'platform', digest: { first_session: true } });
    expect(begin.json.manifest.repos).toContain('platform/identity');

    const repo = join(root, 'platform', 'identity');
    writeFileSync(join(repo, 'CHANGELOG.md'), 'x\n');
    git(repo, ['add', '.']);
    git(repo, ['commit', '-q', '-m', 'Add a changelog']);

    const digest = await call(srv.base, 'GET', '/v3/ops/session?project=platform');
    expect(digest.status).toBe(200);
    expect(Object.keys(digest.json)).toEqual(expect.arrayContaining(['active_objective_id', 'repo_changes']));
    const identity = digest.json.repo_changes.find(
      (c: { repository: string }) => c.repository === 'platform/identity',
    );
    expect(identity).toMatchObject({ commit_count: 1, recent_subjects: ['Add a changelog'] });
    // The same answer as the CLI's.
    expect(hub('session', 'digest', '--project', 'platform').json()).toEqual(digest.json);

    const unknown = await call(srv.base, 'POST', '/v3/ops/session/begin', { body: { project_name: 'nope' } });
    expect(unknown.status).toBe(400);
  });
});

describe('hub web serve --status-once', () => {
  it('binds, prints one ready line and exits 0', () => {
    const r = runHub(['web', 'serve', '--root', root, '--port', '0', '--status-once']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^web_state=ready host=127\.0\.0\.1 port=[1-9]\d* url=http:\/\/127\.0\.0\.1:\d+\/\n$/,
    );
    const [, port, urlPort] = /port=(\d+) url=http:\/\/127\.0\.0\.1:(\d+)\//.exec(r.stdout)!;
    expect(port).toBe(urlPort);
    const api = runHub(['api', 'serve', '--port', '0', '--status-once'], { cwd: root });
    expect(api.code).toBe(0);
    expect(api.stdout).toMatch(/^api_state=ready host=127\.0\.0\.1 port=\d+ url=/);
  });

  it('rejects a bad port as a usage problem and a missing root', () => {
    const bad = runHub(['web', 'serve', '--root', root, '--port', '70000', '--status-once']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('port');
    const gone = runHub(['web', 'serve', '--root', join(root, 'nope'), '--status-once']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('does not exist');
  });

  it('refuses to start with a state url that is not http(s)', () => {
    const r = runHub(['web', 'serve', '--root', root, '--port', '0', '--status-once'], {
      env: { HUB_STATE_BACKEND: 'http', HUB_STATE_URL: 'ftp://example.com/' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('remote state url must be http(s)');
  });
});
