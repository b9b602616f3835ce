// A document poisoned on disk (a record nested past the bounds, written by an older build) is read on every
// surface: the record is quarantined (served without the field, with a note naming it), never a stack overflow,
// and the other records read and write as usual.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { MAX_DOCUMENT_DEPTH } from '../src/infra/index.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub } from './mcp-client.js';
import { runHub } from './run-hub.js';

const NOW = '2026-01-01T00:00:00.000Z';
const record = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  title: id,
  created_by: 'old-build',
  created_at: NOW,
  updated_at: NOW,
  status: 'open',
  events: [],
  ...extra,
});

/** The handoffs file as an older build left it: indented, with a payload `levels` deep (as text, no recursion). */
function poisonedText(levels: number): string {
  const good = JSON.stringify(record('ho-good', { payload: { ok: true } }));
  const bad = JSON.stringify(record('ho-bad', { payload: '__DEEP__' })).replace(
    '"__DEEP__"',
    `${'{"a":'.repeat(levels)}{}${'}'.repeat(levels)}`,
  );
  return `{"handoffs":[${good},${bad}]}\n`;
}

let dir: string;
let root: string;
let srv: RunningServer;
let client: Client;
const file = () => join(root, '.hub', 'handoffs.json');

beforeAll(async () => {
  dir = createTempDir('hub-poison-');
  root = createDemo(join(dir, 'demo')).root;
  mkdirSync(join(root, '.hub'), { recursive: true });
  srv = await startTestServer({ root });
  client = await connectHub(root);
});
afterAll(async () => {
  await client?.close();
  await srv?.close();
  removeTempDir(dir);
});

describe.each([3000, 20_000])('a handoff whose payload nests %i levels on disk', (levels) => {
  beforeEach(() => writeFileSync(file(), poisonedText(levels)));

  const expectQuarantined = (handoffs: Array<Record<string, unknown>>) => {
    const ids = handoffs.map((h) => h.id);
    expect(ids).toEqual(['ho-good', 'ho-bad']);
    const bad = handoffs[1]!;
    expect(bad.quarantined).toMatchObject({
      rule: 'max_depth',
      limit: MAX_DOCUMENT_DEPTH,
      dropped: ['payload'],
    });
    expect(String((bad.quarantined as { field: string }).field)).toMatch(/^handoffs\[1\]\.payload(\.a)+$/);
    expect(bad.payload ?? {}).toEqual({});
    expect(handoffs[0]!.payload).toEqual({ ok: true });
  };

  it('the CLI lists every record, quarantines the poisoned one and says so on stderr', () => {
    const r = runHub(['context', 'handoff', 'list', '--json'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expectQuarantined(r.json().handoffs);
    expect(r.stderr).toContain("state document 'handoffs'");
    expect(r.stderr).toContain('handoffs[1]');
    expect(r.stderr).toContain('max_depth');
    expect(r.stderr).not.toMatch(/Maximum call stack/);
  });

  it('HTTP serves the whole document and the filtered list', async () => {
    const whole = await call(srv.base, 'GET', '/v3/ops/handoffs');
    expect(whole.status, whole.text).toBe(200);
    expectQuarantined(whole.json.handoffs);
    const open = await call(srv.base, 'GET', '/v3/ops/handoffs?status=open');
    expect(open.status, open.text).toBe(200);
    expect(open.json.handoffs.map((h: { id: string }) => h.id)).toEqual(['ho-good', 'ho-bad']);
  });

  it('MCP lists every record', async () => {
    const r = await callJson(client, 'hub_handoff_list', {});
    expectQuarantined(r.handoffs);
  });

  it('a write to another record succeeds and keeps the poisoned one, minus its unreadable field', () => {
    const r = runHub(['context', 'handoff', 'claim', '--id', 'ho-good', '--by', 'agent-1', '--json'], {
      cwd: root,
    });
    expect(r.code, r.stderr).toBe(0);
    const stored = JSON.parse(readFileSync(file(), 'utf8'));
    expect(stored.handoffs[0].status).toBe('claimed');
    expect(stored.handoffs[1].id).toBe('ho-bad');
    expect(stored.handoffs[1].quarantined.rule).toBe('max_depth');
    const again = runHub(['context', 'handoff', 'list', '--json'], { cwd: root });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).not.toContain('quarantine');
  });
});
