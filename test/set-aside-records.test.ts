// Valid JSON with one record that breaks its schema (a status nobody knows, a handoff without a title, an event
// without a timestamp, a claim without patterns), as a hand edit or another tool leaves it. On every surface the
// rest of the document is served and updated; the bad record is set aside: reported with its path and rule, and
// kept exactly where it is stored, for the user to repair.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildWorkspace, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub } from './mcp-client.js';
import { runHub } from './run-hub.js';

const T = '2026-01-01T00:00:00.000Z';
const FAR = '2099-01-01T00:00:00.000Z';
const objective = (id: string, status = 'pending') => ({
  id,
  title: id,
  status,
  repos: [],
  created_at: T,
  updated_at: T,
});
const handoff = (id: string) => ({
  id,
  title: id,
  created_by: 'a',
  created_at: T,
  updated_at: T,
  status: 'open',
  payload: {},
  events: [],
});
const request = (id: string) => ({
  id,
  action: 'deploy',
  requested_by: 'a',
  payload: {},
  status: 'pending',
  created_at: T,
});
const event = (id: string) => ({ id, timestamp: T, source: 's', kind: 'K', data: {} });
const claim = (id: string, patterns: unknown) => ({
  claim_id: id,
  repository: 'p/r',
  agent_id: 'agent-a',
  patterns,
  status: 'active',
  ttl: '1h',
  expires_at: FAR,
  created_at: T,
  updated_at: T,
  last_heartbeat_at: T,
});

const { title: _t, ...untitled } = handoff('ho-bad');
const { action: _a, ...actionless } = request('apr-bad');
const { timestamp: _ts, ...untimed } = event('e2');
const BAD = {
  objective: objective('obj-bad', 'bogus'),
  handoff: untitled,
  request: actionless,
  event: untimed,
  claim: claim('cl-bad', 'src/**'),
};

let root: string;
const hub = (...parts: string[]) => join(root, '.hub', ...parts);
const stored = (file: string) => JSON.parse(readFileSync(hub(file), 'utf8'));

function plant(): void {
  mkdirSync(hub('claims'), { recursive: true });
  const put = (file: string, v: unknown) => writeFileSync(hub(file), `${JSON.stringify(v)}\n`);
  put('objectives.json', { objectives: [objective('obj-1'), BAD.objective, objective('obj-2')] });
  put('handoffs.json', { handoffs: [handoff('ho-1'), BAD.handoff] });
  put('approvals.json', { requests: [BAD.request, request('apr-1')] });
  put('coord.events.json', { events: [event('e1'), BAD.event, event('e3')] });
  put('claims/p~r.json', { claims: [BAD.claim, claim('cl-1', ['docs/**'])] });
}

beforeAll(() => {
  ({ root } = buildWorkspace({
    projects: [{ name: 'p', repos: [{ name: 'r', files: { 'src/a.ts': 'a\n', 'docs/x.md': 'x\n' } }] }],
  }));
});
afterAll(() => removeTempDir(root));
beforeEach(plant);

describe('the CLI', () => {
  it('lists the rest of each document, with set_aside naming the record, its field and rule, and says so on stderr', () => {
    const cases: Array<[string[], string, string[], string]> = [
      [['context', 'objective', 'list'], 'objectives', ['obj-1', 'obj-2'], 'objectives[1].status'],
      [['context', 'handoff', 'list'], 'handoffs', ['ho-1'], 'handoffs[1].title'],
      [['context', 'approval', 'list', '--status', 'all'], 'requests', ['apr-1'], 'requests[0].action'],
    ];
    for (const [args, key, ids, field] of cases) {
      const r = runHub([...args, '--json'], { cwd: root });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      const out = r.json();
      expect(out[key].map((x: { id: string }) => x.id)).toEqual(ids);
      expect(out.set_aside).toEqual([expect.objectContaining({ field, rule: expect.any(String) })]);
      expect(r.stderr).toContain(field);
      const human = runHub(args, { cwd: root });
      expect(human.code, human.stderr).toBe(0);
      expect(human.stderr).toContain(field);
    }
    const events = runHub(['context', 'events', '--json'], { cwd: root });
    expect(events.code, events.stderr).toBe(0);
    const recorded = events.json().events.filter((e: { seq?: number }) => e.seq !== undefined);
    expect(recorded.map((e: { id: string; seq: number }) => [e.id, e.seq])).toEqual([
      ['e1', 1],
      ['e3', 3],
    ]);
    expect(events.json().set_aside).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'events[1].timestamp' })]),
    );
  });

  it('updates the rest and keeps each bad record where it was, as it was', () => {
    const runs = [
      ['context', 'objective', 'set', '--id', 'obj-3', '--title', 'Three', '--json'],
      ['context', 'objective', 'edit', '--id', 'obj-2', '--field', 'status', '--value', 'done', '--json'],
      ['context', 'handoff', 'claim', '--id', 'ho-1', '--by', 'agent-b', '--json'],
      ['claim', 'declare', '--repository', 'p/r', '--agent-id', 'agent-b', '--pattern', 'lib/**', '--json'],
    ];
    for (const args of runs) {
      const r = runHub(args, { cwd: root });
      expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
    }
    const objectives = stored('objectives.json').objectives;
    expect(objectives.map((o: { id: string }) => o.id)).toEqual(['obj-1', 'obj-bad', 'obj-2', 'obj-3']);
    expect(objectives[1]).toEqual(BAD.objective);
    expect(stored('handoffs.json').handoffs[1]).toEqual(BAD.handoff);
    expect(stored('handoffs.json').handoffs[0].status).toBe('claimed');
    const claims = stored('claims/p~r.json').claims;
    expect(claims[0]).toEqual(BAD.claim);
    expect(claims.some((c: { agent_id: string }) => c.agent_id === 'agent-b')).toBe(true);
    // The events recorded meanwhile went in after the bad one, which is still there.
    expect(stored('coord.events.json').events[1]).toMatchObject(BAD.event);
  });

  it('names a record set aside when asked for it by id, instead of not finding it', () => {
    const r = runHub(
      ['context', 'objective', 'edit', '--id', 'obj-bad', '--field', 'status', '--value', 'done', '--json'],
      {
        cwd: root,
      },
    );
    expect(r.code).toBe(1);
    expect(r.json().error).toMatchObject({
      code: 'refused',
      details: { rule: 'record_set_aside', id: 'obj-bad' },
    });
    expect(stored('objectives.json').objectives[1]).toEqual(BAD.objective);
  });
});

describe('HTTP and MCP', () => {
  let srv: RunningServer;
  let client: Client;
  beforeAll(async () => {
    srv = await startTestServer({ root });
    client = await connectHub(root);
  });
  afterAll(async () => {
    await client?.close();
    await srv?.close();
  });

  it('serve the rest of each document with set_aside', async () => {
    for (const [path, key, ids] of [
      ['/v3/ops/objectives?status=pending', 'objectives', ['obj-1', 'obj-2']],
      ['/v3/ops/handoffs?status=open', 'handoffs', ['ho-1']],
      ['/v3/ops/approvals', 'requests', ['apr-1']],
    ] as const) {
      const r = await call(srv.base, 'GET', path);
      expect(r.status, `${path}: ${r.text}`).toBe(200);
      expect(r.json[key].map((x: { id: string }) => x.id)).toEqual(ids);
      expect(r.json.set_aside).toHaveLength(1);
    }
    const feed = await call(srv.base, 'GET', '/v3/ops/events');
    expect(feed.status, feed.text).toBe(200);
    expect(feed.json.set_aside).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'events[1].timestamp' })]),
    );
    const post = await call(srv.base, 'POST', '/v3/ops/objectives', { body: { id: 'obj-h', title: 'H' } });
    expect(post.status, post.text).toBe(200);
    expect(stored('objectives.json').objectives[1]).toEqual(BAD.objective);

    const listed = await callJson(client, 'hub_objective_list', {});
    expect(listed.objectives.map((o: { id: string }) => o.id)).toContain('obj-1');
    expect(listed.set_aside[0]).toMatchObject({ field: 'objectives[1].status', id: 'obj-bad' });
    const events = await callJson(client, 'hub_events', {});
    expect(events.set_aside.length).toBeGreaterThan(0);
    const claims = await callJson(client, 'hub_claim_check', { repository: 'p/r', patterns: ['src/**'] });
    expect(claims).toBeDefined();
  });
});
