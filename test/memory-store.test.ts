// A server keeps one store for its whole life: on the memory backend what one MCP tool call (or HTTP request)
// writes, the next one reads (each call still reads the application config anew).
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { call, startTestServer } from './http-server.js';
import { callJson, connectHub } from './mcp-client.js';

let dir: string;
let root: string;
let client: Client;

beforeAll(async () => {
  dir = createTempDir('hub-mcp-memory-');
  root = createDemo(join(dir, 'demo')).root;
  client = await connectHub(root, [], { HUB_STATE_BACKEND: 'memory' });
});
afterAll(async () => {
  await client?.close();
  removeTempDir(dir);
});

describe('mcp server on the memory backend', () => {
  it('lists the objective an earlier tool call upserted, and the handoff an earlier call created', async () => {
    const gate = await client.readResource({ uri: 'hub://gate/status' });
    expect((gate.contents[0] as { text: string }).text).toContain('"memory"');
    const { objective } = await callJson(client, 'hub_objective_upsert', { id: 'kept', title: 'Kept' });
    expect(objective.id).toBe('kept');
    const { objectives } = await callJson(client, 'hub_objective_list', {});
    expect(objectives.map((o: { id: string }) => o.id)).toEqual(['kept']);

    const h = await callJson(client, 'hub_handoff_create', { title: 'Take over' });
    await callJson(client, 'hub_handoff_claim', { id: h.id, by: 'bob', ttl: '10m' });
    const { handoffs } = await callJson(client, 'hub_handoff_list', {});
    expect(handoffs).toMatchObject([{ id: h.id, status: 'claimed', claimed_by: 'bob' }]);
  });
});

describe('http server on the memory backend', () => {
  it('lists what an earlier request wrote', async () => {
    const srv = await startTestServer({ root, env: { HUB_CACHE_DIR: 'off', HUB_STATE_BACKEND: 'memory' } });
    try {
      const up = await call(srv.base, 'POST', '/v3/ops/objectives', { body: { id: 'kept', title: 'Kept' } });
      expect(up.status).toBe(200);
      const list = await call(srv.base, 'GET', '/v3/ops/objectives?status=pending');
      expect(list.json.objectives.map((o: { id: string }) => o.id)).toEqual(['kept']);
    } finally {
      await srv.close();
    }
  });
});
