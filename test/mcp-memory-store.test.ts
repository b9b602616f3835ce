// The MCP server keeps one store for its whole life: on the memory backend what one tool call writes, the next
// call reads (each call still reads the application config anew).
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { callJson, connectHub } from './mcp-client.js';

let dir: string;
let client: Client;

beforeAll(async () => {
  dir = createTempDir('hub-mcp-memory-');
  const demo = createDemo(join(dir, 'demo'));
  client = await connectHub(demo.root, [], { HUB_STATE_BACKEND: 'memory' });
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
