import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { MAX_MESSAGE_BYTES } from '../src/surfaces/mcp/framing.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { serverEnv } from './mcp-client.js';
import { HUB_BIN } from './run-hub.js';

// biome-ignore lint/suspicious/noExplicitAny: raw JSON-RPC messages.
type Msg = any;

let dir: string;
let root: string;
beforeAll(() => {
  dir = createTempDir('hub-mcp-framing-');
  root = createDemo(join(dir, 'demo')).root;
});
afterAll(() => removeTempDir(dir));

/** A server child whose stdout is split into lines; every line must be a JSON-RPC message. */
class RawServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  private pending = '';
  private waiters: Array<() => void> = [];

  constructor() {
    this.child = spawn(process.execPath, [HUB_BIN, 'mcp', 'serve', '--root', root], { env: serverEnv() });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.pending += chunk.toString('utf8');
      let nl = this.pending.indexOf('\n');
      while (nl >= 0) {
        this.lines.push(this.pending.slice(0, nl));
        this.pending = this.pending.slice(nl + 1);
        nl = this.pending.indexOf('\n');
      }
      for (const w of this.waiters.splice(0)) w();
    });
  }

  write(data: string | Buffer): void {
    this.child.stdin.write(data);
  }

  get messages(): Msg[] {
    return this.lines.map((l) => JSON.parse(l));
  }

  /** Waits until `n` messages have arrived. */
  async waitFor(n: number): Promise<Msg[]> {
    while (this.lines.length < n) {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(
          () =>
            reject(new Error(`timed out with ${this.lines.length}/${n} messages: ${this.lines.join('\n')}`)),
          20_000,
        );
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.messages;
  }

  byId(id: number | string | null): Msg {
    return this.messages.find((m) => m.id === id);
  }

  async stop(): Promise<number | null> {
    this.child.stdin.end();
    return await new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }
}

const ndjson = (m: Msg) => `${JSON.stringify(m)}\n`;
const frame = (m: Msg, crlf = true) => {
  const body = Buffer.from(JSON.stringify(m), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}${crlf ? '\r\n\r\n' : '\n\n'}`), body]);
};
const init = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const call = (id: number, name: string, args: Msg = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

let server: RawServer | undefined;
afterEach(async () => {
  if (server) await server.stop();
  server = undefined;
});

describe('stdio framing', () => {
  it('reads newline-delimited JSON and writes newline-delimited JSON', async () => {
    server = new RawServer();
    server.write(
      ndjson(init(1)) + ndjson(initialized) + ndjson({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    );
    await server.waitFor(2);
    expect(server.byId(1).result.serverInfo.name).toBe('hub');
    expect(server.byId(2).result.tools.length).toBeGreaterThan(10);
  });

  it('reads Content-Length frames (CRLF or LF headers), and answers in newline-delimited JSON', async () => {
    server = new RawServer();
    server.write(frame(init(1)));
    server.write(frame(initialized, false));
    server.write(frame({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    const msgs = await server.waitFor(2);
    expect(msgs.every((m) => m.jsonrpc === '2.0')).toBe(true);
    expect(server.byId(2).result.tools.length).toBeGreaterThan(10);
  });

  it('reads both framings mixed in one stream, split at any byte, with multi-byte UTF-8 bodies', async () => {
    server = new RawServer();
    const bytes = Buffer.concat([
      frame(init(1)),
      Buffer.from(ndjson(initialized)),
      frame(call(2, 'hub_repo_search', { query: 'identité ✓' })),
      Buffer.from(
        ndjson(call(3, 'hub_component_resolve', { path: 'platform/gateway/services/gateway/x.ts' })),
      ),
      frame(call(4, 'hub_component_show', { component: 'gateway' })),
    ]);
    // Odd-sized chunks cut headers, bodies and characters in half.
    for (let i = 0; i < bytes.length; i += 7) server.write(bytes.subarray(i, i + 7));
    await server.waitFor(4);
    expect(server.byId(2).result.structuredContent.query).toBe('identité ✓');
    expect(server.byId(3).result.structuredContent.id).toBe('platform/gateway/gateway');
    expect(server.byId(4).result.structuredContent.component.id).toBe('platform/gateway/gateway');
  });

  it('answers a garbage line with -32700 and keeps serving; a non-JSON-RPC value gets -32600', async () => {
    server = new RawServer();
    server.write(ndjson(init(1)) + ndjson(initialized));
    await server.waitFor(1);
    server.write('this is not json\n');
    server.write('Content-Type: text/plain\n');
    server.write(`${JSON.stringify({ hello: 'world', id: 9 })}\n`);
    server.write(ndjson(call(2, 'hub_component_list', { project: 'storefront' })));
    const msgs = await server.waitFor(5);
    const parseErrors = msgs.filter((m) => m.error?.code === -32700);
    expect(parseErrors.length).toBe(2);
    expect(parseErrors.every((m) => m.id === null)).toBe(true);
    expect(server.byId(9).error.code).toBe(-32600);
    expect(server.byId(2).result.structuredContent.components.length).toBe(4);
  });

  it('answers a validation error as JSON-RPC -32602 with the hub error in data', async () => {
    server = new RawServer();
    server.write(
      ndjson(init(1)) + ndjson(initialized) + ndjson(call(2, 'hub_component_graph', { depth: 2 })),
    );
    await server.waitFor(2);
    const err = server.byId(2).error;
    expect(err.code).toBe(-32602);
    expect(err.data.code).toBe('validation');
    expect(err.message).toContain('component');
  });

  it('writes nothing but protocol messages on stdout, and exits 0 when stdin ends', async () => {
    const s = new RawServer();
    let stderr = '';
    s.child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    s.write(ndjson(init(1)) + ndjson(initialized) + ndjson(call(2, 'hub_session_begin')) + 'x\n');
    await s.waitFor(3);
    const code = await s.stop();
    expect(code).toBe(0);
    for (const line of s.lines) expect(JSON.parse(line).jsonrpc).toBe('2.0');
    expect(stderr).toContain('hub mcp: serving');
  });

  it('skips the whole body of a refused oversized frame: a message hidden inside is never run', async () => {
    server = new RawServer();
    server.write(ndjson(init(1)) + ndjson(initialized));
    await server.waitFor(1);
    const hidden = ndjson(
      call(66, 'hub_objective_upsert', { id: 'smuggled', title: 'Hidden in a refused frame' }),
    );
    const declared = MAX_MESSAGE_BYTES + 1;
    const body = Buffer.alloc(declared, 0x20);
    body.write(`\n${hidden}`, 0);
    body.write(hidden, 4096);
    server.write(`Content-Length: ${declared}\r\n\r\n`);
    // In many chunks, as a pipe delivers them.
    for (let i = 0; i < body.length; i += 1 << 20) server.write(body.subarray(i, i + (1 << 20)));
    server.write(ndjson(call(2, 'hub_objective_list')));
    await server.waitFor(3);
    expect(server.messages[1].error.code).toBe(-32700);
    expect(server.byId(66)).toBeUndefined();
    expect(server.byId(2).result.structuredContent.objectives).toEqual([]);
  });

  it('never runs the framed tool call after a Content-Length that is not plain decimal; the next message runs (issue 25)', async () => {
    server = new RawServer();
    server.write(ndjson(init(1)) + ndjson(initialized));
    await server.waitFor(1);
    const bad = ['-5', '1e2', '0x10', '+120', '10.5', 'abc', ''];
    let id = 100;
    for (const value of bad) {
      const upsert = JSON.stringify(call(id++, 'hub_objective_upsert', { id: `smuggled-${id}`, title: 'x' }));
      // The good message after it comes as a frame, then as a line.
      server.write(`Content-Length: ${value}\r\n\r\n${upsert}`);
      server.write(
        id % 2 ? frame(call(id++, 'hub_objective_list')) : ndjson(call(id++, 'hub_objective_list')),
      );
    }
    const msgs = await server.waitFor(1 + 2 * bad.length);
    expect(
      msgs
        .slice(1)
        .filter((m) => m.id === null)
        .map((m) => m.error.code),
    ).toEqual(bad.map(() => -32700));
    for (let i = 0; i < bad.length; i++) {
      expect(server.byId(100 + 2 * i)).toBeUndefined();
      expect(server.byId(101 + 2 * i).result.structuredContent.objectives).toEqual([]);
    }
  });

  it('answers malformed request params with -32602 and a one-line message naming the field', async () => {
    server = new RawServer();
    server.write(ndjson(init(1)) + ndjson(initialized));
    await server.waitFor(1);
    const bad: Array<[number, string, Msg, string]> = [
      [10, 'tools/call', { name: 42, arguments: {} }, 'name'],
      [11, 'tools/call', { name: 'hub_component_list', arguments: [1, 2] }, 'arguments'],
      [12, 'tools/call', { arguments: {} }, 'name'],
      [13, 'tools/call', undefined, 'params'],
      [14, 'resources/read', {}, 'uri'],
      [15, 'prompts/get', { name: 7 }, 'name'],
    ];
    for (const [id, method, params] of bad)
      server.write(ndjson({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    server.write(ndjson(call(2, 'hub_component_list', { project: 'storefront' })));
    await server.waitFor(2 + bad.length);
    for (const [id, method, , field] of bad) {
      const err = server.byId(id).error;
      expect(err.code, `${method} ${id}: ${err.message}`).toBe(-32602);
      expect(err.message).not.toContain('\n');
      expect(err.message).toContain(field);
      expect(err.message.length).toBeLessThan(200);
      expect(err.data).toMatchObject({ code: 'validation', details: { field: expect.any(String) } });
    }
    expect(server.byId(2).result.structuredContent.components.length).toBe(4);
  });
});
