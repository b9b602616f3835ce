// Every input has a depth and size bound, checked before anything is stored: the 3,000-level handoff
// payload is refused on the CLI (exit 1), over HTTP (400) and over MCP (-32602), and nothing is written.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { MAX_INPUT_BYTES, MAX_INPUT_DEPTH } from '../src/infra/index.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { connectHub, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';

const INVALID_PARAMS = -32602;

/** `{a:{a:...{}}}` with `levels` objects, built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let v: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) v = { a: v };
  return v;
}

/** The attack: a handoff whose payload nests 3,000 levels (a 12 KB body once written compactly). */
const DEEP = { title: 'deep', payload: nested(3000) };

let dir: string;
let root: string;
let srv: RunningServer;
let client: Client;
const handoffsFile = () => join(root, '.hub', 'handoffs.json');
const fileText = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : undefined);

beforeAll(async () => {
  dir = createTempDir('hub-bounds-');
  root = createDemo(join(dir, 'demo')).root;
  srv = await startTestServer({ root });
  client = await connectHub(root);
});
afterAll(async () => {
  await client?.close();
  await srv?.close();
  removeTempDir(dir);
});

describe('the CLI', () => {
  it('refuses a deep stdin payload with exit 1 naming the limit and the field, and writes nothing', () => {
    const before = fileText(handoffsFile());
    const r = runHub(['context', 'handoff', 'create', '--json'], { cwd: root, input: JSON.stringify(DEEP) });
    expect(r.code, r.stderr).toBe(1);
    const err = r.json().error;
    expect(err.code).toBe('validation');
    expect(err.details).toMatchObject({ rule: 'max_depth', limit: MAX_INPUT_DEPTH });
    expect(err.details.field).toMatch(/^payload(\.a)+$/);
    expect(err.message).toContain(`${MAX_INPUT_DEPTH} levels`);
    expect(r.stderr).not.toMatch(/Maximum call stack|\n\s+at /);
    expect(fileText(handoffsFile())).toBe(before);
  });

  it('refuses stdin larger than the input limit before parsing it', () => {
    const big = JSON.stringify({ title: 'big', payload: { s: 'x'.repeat(MAX_INPUT_BYTES) } });
    const r = runHub(['context', 'handoff', 'create', '--json'], { cwd: root, input: big });
    expect(r.code, r.stderr).toBe(1);
    expect(r.json().error.details).toMatchObject({
      field: 'stdin',
      rule: 'max_bytes',
      limit: MAX_INPUT_BYTES,
    });
  });

  it('takes a payload at the depth limit', () => {
    const r = runHub(['context', 'handoff', 'create', '--json'], {
      cwd: root,
      input: JSON.stringify({ title: 'at the limit', payload: nested(MAX_INPUT_DEPTH - 1) }),
    });
    expect(r.code, r.stderr).toBe(0);
    const list = runHub(['context', 'handoff', 'list', '--json'], { cwd: root });
    expect(list.code, list.stderr).toBe(0);
  });
});

describe('HTTP', () => {
  it('answers 400 to the deep POST, writes nothing, and every reader still answers', async () => {
    const before = fileText(handoffsFile());
    const r = await call(srv.base, 'POST', '/v3/ops/handoffs', { body: DEEP });
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('validation');
    expect(r.json.error.details).toMatchObject({ rule: 'max_depth', limit: MAX_INPUT_DEPTH });
    expect(fileText(handoffsFile())).toBe(before);
    expect((await call(srv.base, 'GET', '/v3/ops/handoffs')).status).toBe(200);
    expect((await call(srv.base, 'GET', '/v3/ops/handoffs?status=open')).status).toBe(200);
  });

  it('stores a body of the issue size (12 KB) at the depth limit in kilobytes, not megabytes', async () => {
    // The worst case the bounds allow for indentation: many small values at the deepest level.
    let payload: unknown = new Array(5000).fill(0);
    for (let i = 2; i < MAX_INPUT_DEPTH; i++) payload = { a: payload };
    const body = { title: 'wide at the limit', payload };
    const bytes = JSON.stringify(body).length;
    expect(bytes).toBeLessThan(12 * 1024);
    const r = await call(srv.base, 'POST', '/v3/ops/handoffs', { body });
    expect(r.status, r.text).toBe(200);
    // Stored compact: about the body's size plus the fields the server stamps (indented, it was 684 KB).
    expect(statSync(handoffsFile()).size).toBeLessThan(2 * bytes);
    const list = await call(srv.base, 'GET', '/v3/ops/handoffs');
    expect(list.status).toBe(200);
  });

  it('answers 400 to an operation body deeper than JSON.stringify can write (sent as text)', async () => {
    const raw = `{"id":"o1","title":${'{"a":'.repeat(50_000)}{}${'}'.repeat(50_000)}}`;
    const r = await call(srv.base, 'POST', '/v3/ops/objectives', {
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status, r.text).toBe(400);
    expect(r.json.error.details).toMatchObject({ rule: 'max_depth', limit: MAX_INPUT_DEPTH });
  });

  it('answers 400 to a deep whole-document PUT, generic PUT and append, and writes nothing', async () => {
    const got = await call(srv.base, 'GET', '/v3/ops/handoffs');
    const ifMatch = got.headers.get('etag') ?? '""';
    const before = fileText(handoffsFile());
    const put = await call(srv.base, 'PUT', '/v3/ops/handoffs', {
      body: { handoffs: [{ id: 'h1', title: 't', created_by: 'a', payload: nested(3000) }] },
      headers: { 'if-match': ifMatch },
    });
    expect(put.status).toBe(400);
    expect(put.json.error.details).toMatchObject({ rule: 'max_depth' });
    expect(put.json.error.details.field).toMatch(/^handoffs\[0\]\.payload(\.a)+$/);
    expect(fileText(handoffsFile())).toBe(before);

    const generic = await call(srv.base, 'PUT', '/v3/ops/state/notes.bounds', {
      body: { deep: nested(3000) },
      headers: { 'if-match': '""' },
    });
    expect(generic.status).toBe(400);
    expect(generic.json.error.details).toMatchObject({ rule: 'max_depth' });
    const append = await call(srv.base, 'POST', '/v3/ops/state/notes.bounds/items', { body: nested(3000) });
    expect(append.status).toBe(400);
    expect(append.json.error.details.field).toMatch(/^items\[\]/);
    expect(existsSync(join(root, '.hub', 'notes.bounds.json'))).toBe(false);
  });
});

describe('MCP', () => {
  it('answers -32602 naming the limit to a deep tool argument, and writes nothing', async () => {
    const before = fileText(handoffsFile());
    const err = await rpcError(
      client.callTool({ name: 'hub_handoff_create', arguments: DEEP }),
      INVALID_PARAMS,
    );
    expect(err.message).toContain('max_depth');
    expect(err.message).toContain(`${MAX_INPUT_DEPTH} levels`);
    expect(fileText(handoffsFile())).toBe(before);
  });
});
