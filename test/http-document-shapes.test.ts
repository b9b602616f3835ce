// Whole-document PUTs of objectives, handoffs and approvals are checked against the coordination schemas on
// write: what has a default is filled in, the rest is a 400 naming the field; the generic routes stay generic.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWorkspace, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';

let root: string;
let srv: RunningServer;

beforeEach(async () => {
  root = buildWorkspace({
    projects: [{ name: 'p', repos: [{ name: 'r', files: { 'README.md': '# r\n' } }] }],
  }).root;
  srv = await startTestServer({ root });
});
afterEach(async () => {
  await srv?.close();
  removeTempDir(root);
});

const put = (path: string, body: unknown, ifMatch = '""') =>
  call(srv.base, 'PUT', path, { body, headers: { 'if-match': ifMatch } });

describe('PUT /v3/ops/objectives', () => {
  it('refuses a list that is not one, naming the field, and every reader still answers', async () => {
    const r = await put('/v3/ops/objectives', { objectives: 'notalist' });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      code: 'validation',
      details: { document: 'objectives', field: 'objectives', rule: 'list' },
    });
    expect((await call(srv.base, 'GET', '/v3/ops/objectives')).status).toBe(200);
    expect((await call(srv.base, 'GET', '/v3/ops/objectives?status=pending')).status).toBe(200);
  });

  it('fills in status and timestamps, so the next POST works', async () => {
    const r = await put('/v3/ops/objectives', { objectives: [{ id: 'a', title: 't' }] });
    expect(r.status, r.text).toBe(200);
    const got = await call(srv.base, 'GET', '/v3/ops/objectives');
    const [a] = got.json.objectives;
    expect(a).toMatchObject({ id: 'a', title: 't', status: 'pending', repos: [] });
    expect(Date.parse(a.created_at)).not.toBeNaN();
    expect(a.updated_at).toBe(a.created_at);
    expect(got.headers.get('etag')).toBe(r.json.etag);
    const post = await call(srv.base, 'POST', '/v3/ops/objectives', { body: { id: 'b', title: 'u' } });
    expect(post.status, post.text).toBe(200);
    const edit = await call(srv.base, 'POST', '/v3/ops/objectives', { body: { id: 'a', title: 't2' } });
    expect(edit.status, edit.text).toBe(200);
  });

  it('refuses a record without a title, naming objectives[0].title, and writes nothing', async () => {
    const r = await put('/v3/ops/objectives', { objectives: [{ id: 'a' }] });
    expect(r.status).toBe(400);
    expect(r.json.error.details).toMatchObject({ field: 'objectives[0].title', rule: 'invalid_type' });
    expect(r.json.error.message).toContain('objectives[0].title');
    expect((await call(srv.base, 'GET', '/v3/ops/objectives')).headers.get('etag')).toBeNull();
  });

  it('refuses a bad status, a bad id, a record that is not an object and a duplicate id', async () => {
    const cases: Array<[unknown, string]> = [
      [[{ id: 'a', title: 't', status: 'someday' }], 'objectives[0].status'],
      [[{ id: 'a b', title: 't' }], 'objectives[0].id'],
      [['a'], 'objectives[0]'],
      [
        [
          { id: 'a', title: 't' },
          { id: 'a', title: 'u' },
        ],
        'objectives[1].id',
      ],
    ];
    for (const [objectives, field] of cases) {
      const r = await put('/v3/ops/objectives', { objectives });
      expect(r.status, JSON.stringify(objectives)).toBe(400);
      expect(r.json.error.details.field).toBe(field);
    }
  });

  it('keeps fields it does not know', async () => {
    await put('/v3/ops/objectives', { objectives: [{ id: 'a', title: 't', team: 'x' }], other: 1 });
    const got = await call(srv.base, 'GET', '/v3/ops/objectives');
    expect(got.json.other).toBe(1);
    expect(got.json.objectives[0].team).toBe('x');
  });
});

describe('PUT /v3/ops/handoffs and /v3/ops/approvals', () => {
  it('fills in a handoff and refuses a bad field naming it', async () => {
    const ok = await put('/v3/ops/handoffs', { handoffs: [{ id: 'h1', title: 't' }] });
    expect(ok.status, ok.text).toBe(200);
    const got = await call(srv.base, 'GET', '/v3/ops/handoffs?status=open');
    expect(got.json.handoffs[0]).toMatchObject({
      id: 'h1',
      status: 'open',
      created_by: 'agent',
      payload: {},
      events: [],
    });
    const claim = await call(srv.base, 'GET', '/v3/ops/handoffs');
    const bad = await put(
      '/v3/ops/handoffs',
      { handoffs: [{ id: 'h1', title: 't', payload: 'x' }] },
      claim.headers.get('etag')!,
    );
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.field).toBe('handoffs[0].payload');
  });

  it('fills in an approval request and refuses one without an action', async () => {
    const ok = await put('/v3/ops/approvals', { requests: [{ id: 'a1', action: 'deploy' }] });
    expect(ok.status, ok.text).toBe(200);
    const got = await call(srv.base, 'GET', '/v3/ops/approvals');
    expect(got.json.requests[0]).toMatchObject({ id: 'a1', status: 'pending', requested_by: 'agent' });
    const bad = await put('/v3/ops/approvals', { requests: [{ id: 'a2' }] }, ok.json.etag);
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.field).toBe('requests[0].action');
  });

  it('checks an item appended to a known list, and fills it in', async () => {
    const bad = await call(srv.base, 'POST', '/v3/ops/state/handoffs/handoffs', {
      body: { id: 'h9', title: 5 },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.field).toBe('handoffs[].title');
    const ok = await call(srv.base, 'POST', '/v3/ops/state/handoffs/handoffs', {
      body: { id: 'h9', title: 't' },
    });
    expect(ok.status, ok.text).toBe(200);
    const got = await call(srv.base, 'GET', '/v3/ops/handoffs');
    expect(got.json.handoffs[0]).toMatchObject({ id: 'h9', status: 'open' });
  });
});

describe('the generic state routes', () => {
  it('store any other document as given', async () => {
    const r = await put('/v3/ops/state/notes.x', { objectives: 'notalist', anything: [1, { a: null }] });
    expect(r.status).toBe(200);
    const got = await call(srv.base, 'GET', '/v3/ops/state/notes.x');
    expect(got.json).toEqual({ objectives: 'notalist', anything: [1, { a: null }] });
  });

  it('check a known document under its own name too', async () => {
    const r = await put('/v3/ops/state/objectives', { objectives: 'notalist' });
    expect(r.status).toBe(400);
    expect(r.json.error.details.field).toBe('objectives');
  });
});
