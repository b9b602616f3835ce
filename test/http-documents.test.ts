// Whole-document state routes and the spec's concurrency rules 1-5, with real requests to a server on port 0.
import { createHash } from 'node:crypto';
import { readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalStore } from '../src/state/index.js';
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

/** Canonical JSON computed here, independently of the code under test: sorted keys, no whitespace. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v);
}
const etagOf = (v: unknown) => `"${createHash('sha256').update(canonical(v), 'utf8').digest('hex')}"`;

const AT = '2026-01-01T00:00:00.000Z';
// Complete records: a PUT stores them exactly as given (a record missing a field with a default is filled in).
const DOCS = [
  {
    path: '/v3/ops/objectives',
    get: '/v3/ops/objectives',
    key: 'objectives',
    name: 'objectives',
    item: { id: 'x1', title: 'first', status: 'pending', repos: [], created_at: AT, updated_at: AT },
  },
  {
    path: '/v3/ops/approvals',
    get: '/v3/ops/approvals?status=all',
    key: 'requests',
    name: 'approvals',
    item: { id: 'x1', action: 'first', requested_by: 'a', payload: {}, status: 'pending', created_at: AT },
  },
  {
    path: '/v3/ops/handoffs',
    get: '/v3/ops/handoffs',
    key: 'handoffs',
    name: 'handoffs',
    item: {
      id: 'x1',
      title: 'first',
      created_by: 'a',
      created_at: AT,
      updated_at: AT,
      status: 'open',
      payload: {},
      events: [],
    },
  },
] as const;

describe.each(DOCS)('whole-document routes of $name', (d) => {
  const item = { ...d.item, note: 'é 日本' };

  it('rule 2: an empty document has no ETag on GET, and the first PUT sends If-Match ""', async () => {
    const empty = await call(srv.base, 'GET', d.get);
    expect(empty.status).toBe(200);
    expect(empty.headers.get('etag')).toBeNull();
    expect(empty.json).toEqual({ [d.key]: [] });

    const doc = { [d.key]: [item] };
    const put = await call(srv.base, 'PUT', d.path, { body: doc, headers: { 'if-match': '""' } });
    expect(put.status).toBe(200);
    // Rule 1: the ETag is the SHA-256 hex digest of the document, in double quotes.
    expect(put.headers.get('etag')).toBe(etagOf(doc));
    expect(put.json).toEqual({ ok: true, document: d.name, etag: etagOf(doc) });

    const got = await call(srv.base, 'GET', d.get);
    expect(got.status).toBe(200);
    expect(got.headers.get('etag')).toBe(etagOf(doc));
    expect(got.json).toEqual(doc);
    // The local backend holds exactly that document.
    expect(JSON.parse(readFileSync(join(root, '.hub', `${d.name}.json`), 'utf8'))).toEqual(doc);
  });

  it('rule 3: a PUT without If-Match is 428 and changes nothing', async () => {
    const r = await call(srv.base, 'PUT', d.path, { body: { [d.key]: [item] } });
    expect(r.status).toBe(428);
    expect(r.json.error.code).toBe('precondition_required');
    expect(r.json.error.message).toContain('If-Match');
    expect((await call(srv.base, 'GET', d.get)).headers.get('etag')).toBeNull();
  });

  it('rules 3-4: the matching If-Match replaces; a stale one (or "" on an existing document) is 412', async () => {
    const v1 = { [d.key]: [item] };
    const e1 = (await call(srv.base, 'PUT', d.path, { body: v1, headers: { 'if-match': '""' } })).headers.get(
      'etag',
    )!;
    const v2 = { [d.key]: [item, { ...item, id: 'x2' }] };
    const ok = await call(srv.base, 'PUT', d.path, { body: v2, headers: { 'if-match': e1 } });
    expect(ok.status).toBe(200);
    const e2 = ok.headers.get('etag');
    expect(e2).toBe(etagOf(v2));

    for (const stale of [e1, '""', `"${'0'.repeat(64)}"`, '*']) {
      const r = await call(srv.base, 'PUT', d.path, {
        body: { [d.key]: [] },
        headers: { 'if-match': stale },
      });
      expect(r.status, stale).toBe(412);
      expect(r.json.error.code).toBe('conflict');
    }
    const now = await call(srv.base, 'GET', d.get);
    expect(now.json).toEqual(v2);
    expect(now.headers.get('etag')).toBe(e2);
  });

  it('answers If-None-Match with the current ETag by 304', async () => {
    const doc = { [d.key]: [item] };
    const etag = (
      await call(srv.base, 'PUT', d.path, { body: doc, headers: { 'if-match': '""' } })
    ).headers.get('etag')!;
    const r = await call(srv.base, 'GET', d.get, { headers: { 'if-none-match': etag } });
    expect(r.status).toBe(304);
  });

  it('takes JSON objects only: 400 for another JSON value, 415 for another content type', async () => {
    for (const body of [[1, 2], 'text', 3]) {
      const r = await call(srv.base, 'PUT', d.path, { body, headers: { 'if-match': '""' } });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error.code).toBe('validation');
    }
    const r = await call(srv.base, 'PUT', d.path, {
      raw: `${d.key}=x`,
      headers: { 'if-match': '""', 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(415);
    expect(r.json.error.code).toBe('validation');
  });
});

describe('filtered lists', () => {
  it('a GET with a filter runs the list operation and carries no ETag', async () => {
    await call(srv.base, 'POST', '/v3/ops/objectives', {
      body: { id: 'o1', title: 'One', status: 'in_progress' },
    });
    await call(srv.base, 'POST', '/v3/ops/objectives', { body: { id: 'o2', title: 'Two', status: 'done' } });
    const whole = await call(srv.base, 'GET', '/v3/ops/objectives');
    expect(whole.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    expect(whole.json.objectives.map((o: { id: string }) => o.id)).toEqual(['o1', 'o2']);
    const some = await call(srv.base, 'GET', '/v3/ops/objectives?status=done');
    expect(some.status).toBe(200);
    expect(some.headers.get('etag')).toBeNull();
    expect(some.json.objectives.map((o: { id: string }) => o.id)).toEqual(['o2']);
    const bad = await call(srv.base, 'GET', '/v3/ops/objectives?status=nope');
    expect(bad.status).toBe(400);
  });

  it('approvals: the pending queue by default, the full queue with ETag for status=all', async () => {
    const doc = {
      requests: [
        {
          id: 'a1',
          action: 'deploy',
          requested_by: 'x',
          payload: {},
          status: 'pending',
          created_at: '2026-01-01T00:00:00Z',
        },
        {
          id: 'a2',
          action: 'drop',
          requested_by: 'x',
          payload: {},
          status: 'denied',
          created_at: '2026-01-01T00:00:00Z',
        },
      ],
    };
    await call(srv.base, 'PUT', '/v3/ops/approvals', { body: doc, headers: { 'if-match': '""' } });
    const pending = await call(srv.base, 'GET', '/v3/ops/approvals');
    expect(pending.headers.get('etag')).toBeNull();
    expect(pending.json.requests.map((r: { id: string }) => r.id)).toEqual(['a1']);
    const all = await call(srv.base, 'GET', '/v3/ops/approvals?status=all');
    expect(all.headers.get('etag')).toBe(etagOf(doc));
    expect(all.json).toEqual(doc);
    const resolved = await call(srv.base, 'POST', '/v3/ops/approvals/a1/resolve', {
      body: { decision: 'approved' },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.json.request).toMatchObject({ id: 'a1', status: 'approved' });
    const stale = await call(srv.base, 'PUT', '/v3/ops/approvals', {
      body: doc,
      headers: { 'if-match': etagOf(doc) },
    });
    expect(stale.status).toBe(412);
  });
});

describe('POST /v3/ops/handoffs', () => {
  it('appends without a token and answers the normalized handoff', async () => {
    const first = await call(srv.base, 'POST', '/v3/ops/handoffs', {
      body: { title: 'Take over auth', created_by: 'agent-1' },
    });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ title: 'Take over auth', created_by: 'agent-1', status: 'open' });
    expect(first.json.id).toMatch(/^ho-/);
    const withId = await call(srv.base, 'POST', '/v3/ops/handoffs', { body: { id: 'h-2', title: 'Second' } });
    expect(withId.status).toBe(200);
    expect(withId.json).toMatchObject({ id: 'h-2', title: 'Second', status: 'open', created_by: 'agent' });
    const doc = await call(srv.base, 'GET', '/v3/ops/handoffs');
    expect(doc.json.handoffs.map((h: { id: string }) => h.id)).toEqual([first.json.id, 'h-2']);
    expect(doc.headers.get('etag')).toBe(etagOf(doc.json));
    const dup = await call(srv.base, 'POST', '/v3/ops/handoffs', { body: { id: 'h-2', title: 'Again' } });
    expect(dup.status).toBe(409);
    const none = await call(srv.base, 'POST', '/v3/ops/handoffs', { body: { created_by: 'x' } });
    expect(none.status).toBe(400);
  });
});

describe('GET /v3/ops/events', () => {
  it('serves the feed, since exclusive, and refuses a bad timestamp', async () => {
    await call(srv.base, 'POST', '/v3/ops/objectives', { body: { id: 'o1', title: 'One' } });
    const all = await call(srv.base, 'GET', '/v3/ops/events');
    expect(all.status).toBe(200);
    expect(all.json).toMatchObject({ ok: true, schema_version: 1 });
    expect(all.json.events.map((e: { kind: string }) => e.kind)).toContain('ObjectiveCreated');
    const later = await call(
      srv.base,
      'GET',
      `/v3/ops/events?since=${encodeURIComponent(all.json.next_cursor)}`,
    );
    expect(later.status).toBe(200);
    expect(later.json.events).toEqual([]);
    const bad = await call(srv.base, 'GET', '/v3/ops/events?since=yesterday');
    expect(bad.status).toBe(400);
    expect(bad.json.error.details.field).toBe('since');
  });
});

describe('generic state routes (other documents, append)', () => {
  it('reads, replaces and appends any named document under the same rules', async () => {
    const empty = await call(srv.base, 'GET', '/v3/ops/state/session');
    expect(empty.status).toBe(200);
    expect(empty.headers.get('etag')).toBeNull();
    expect(empty.json).toBeNull();
    const doc = { boundary: '2026-01-01T00:00:00Z', count: 1 };
    const put = await call(srv.base, 'PUT', '/v3/ops/state/session', {
      body: doc,
      headers: { 'if-match': '""' },
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBe(etagOf(doc));
    expect((await call(srv.base, 'PUT', '/v3/ops/state/session', { body: doc })).status).toBe(428);

    const a1 = await call(srv.base, 'POST', '/v3/ops/state/coord.events/events', { body: { id: 'e1' } });
    expect(a1.status).toBe(200);
    // A recorded event gets the workspace's next sequence in the server's events log (docs/coordination.md).
    expect(a1.json).toMatchObject({ ok: true, seq: 1, id: 'e1' });
    await call(srv.base, 'POST', '/v3/ops/state/coord.events/events', { body: { id: 'e2', seq: 77 } });
    const log = await call(srv.base, 'GET', '/v3/ops/state/coord.events/events?after=0&limit=10');
    expect(log.json).toEqual({
      events: [
        { id: 'e1', seq: 1 },
        { id: 'e2', seq: 2 },
      ],
      first_seq: 1,
      last_seq: 2,
    });
    expect((await call(srv.base, 'GET', '/v3/ops/state/coord.events/events?after=1')).json.events).toEqual([
      { id: 'e2', seq: 2 },
    ]);
    // The log is read by sequence only: a bad bound names the field; another list has no log.
    const bad = await call(srv.base, 'GET', '/v3/ops/state/coord.events/events?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.json.error.details).toMatchObject({ field: 'limit' });
    expect((await call(srv.base, 'GET', '/v3/ops/state/notes/items')).status).toBe(404);
  });

  it('refuses bad names, the derived events document, and appending onto a non-list', async () => {
    for (const name of ['Upper', '..', '-x', 'a%2Fb%2Fc', 'a%2F..']) {
      const r = await call(srv.base, 'GET', `/v3/ops/state/${name}`);
      expect([400, 404], name).toContain(r.status);
      expect(r.json.error).toBeDefined();
    }
    const derived = await call(srv.base, 'PUT', '/v3/ops/state/events', {
      body: {},
      headers: { 'if-match': '""' },
    });
    expect(derived.status).toBe(403);
    await call(srv.base, 'PUT', '/v3/ops/state/notes', {
      body: { items: 'text' },
      headers: { 'if-match': '""' },
    });
    const onto = await call(srv.base, 'POST', '/v3/ops/state/notes/items', { body: { id: 1 } });
    expect(onto.status).toBe(409);
    expect(onto.json.error.code).toBe('refused');
  });
});

describe('size bounds of appends', () => {
  it('refuses an append that would take a document past 8 MiB; the document keeps what it had', async () => {
    const item = { blob: 'x'.repeat(1024 * 1024 - 100) };
    let refused: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 12 && !refused; i++) {
      const r = await call(srv.base, 'POST', '/v3/ops/state/notes/items', { body: item });
      if (r.status !== 200) refused = r;
    }
    expect(refused?.status).toBe(400);
    expect(refused?.json.error).toMatchObject({
      code: 'validation',
      details: { rule: 'max_document_bytes' },
    });
    const stored = readFileSync(join(root, '.hub', 'notes.json'));
    expect(stored.length).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(JSON.parse(stored.toString('utf8')).items).toHaveLength(8);
  });

  it('refuses an event over its own bound; the events already recorded stay', async () => {
    for (let i = 0; i < 50; i++)
      await call(srv.base, 'POST', '/v3/ops/state/coord.events/events', {
        body: { id: `e${i}`, timestamp: AT, source: 's', kind: 'K', data: {} },
      });
    const big = await call(srv.base, 'POST', '/v3/ops/state/coord.events/events', {
      body: { id: 'big', timestamp: AT, source: 's', kind: 'K', data: { note: 'x'.repeat(2 * 1024 * 1024) } },
    });
    expect(big.status).toBe(400);
    expect(big.json.error).toMatchObject({ code: 'validation', details: { rule: 'max_event_bytes' } });
    const feed = await call(srv.base, 'GET', '/v3/ops/events');
    expect(feed.json.events).toHaveLength(50);
  });
});

describe('GET from the snapshot cache', () => {
  it('serves an old, unchanged document from cache and sees every later write, even one that keeps size and mtime', async () => {
    const file = join(root, '.hub', 'objectives.json');
    const other = createLocalStore({ dir: join(root, '.hub') }); // another process writing the same files
    const a = { objectives: [{ id: 'aaaa' }] };
    await other.write('objectives', a, '""');
    const past = new Date(Date.now() - 60_000);
    utimesSync(file, past, past);
    for (let i = 0; i < 3; i++) {
      const r = await call(srv.base, 'GET', '/v3/ops/objectives');
      expect(r.json).toEqual(a);
      expect(r.headers.get('etag')).toBe(etagOf(a));
    }
    // Same size, and the modification time set back to what it was: only the inode and ctime tell.
    const b = { objectives: [{ id: 'bbbb' }] };
    await other.write('objectives', b, etagOf(a));
    utimesSync(file, past, past);
    expect(Math.round(statSync(file).mtimeMs)).toBe(past.getTime());
    const r = await call(srv.base, 'GET', '/v3/ops/objectives');
    expect(r.json).toEqual(b);
    expect(r.headers.get('etag')).toBe(etagOf(b));
  });
});
