import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { loadOperations } from '../src/ops/index.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { callJson, connectHub, readText, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';

const OPERATIONS = await loadOperations();

const URIS = [
  'hub://catalog',
  'hub://workspace/map',
  'hub://session/start-prompt',
  'hub://session/meta',
  'hub://objectives',
  'hub://approvals/pending',
  'hub://handoffs/open',
  'hub://events/recent',
  'hub://gate/status',
  'hub://workspace/health',
  'hub://workspace/context',
  'hub://workspace/config',
];

let dir: string;
let root: string;
let manifest: string;
let client: Client;

beforeAll(async () => {
  dir = createTempDir('hub-mcp-res-');
  const demo = createDemo(join(dir, 'demo'));
  root = demo.root;
  manifest = demo.manifestPath;
  client = await connectHub(root);
});
afterAll(async () => {
  await client?.close();
  removeTempDir(dir);
});

const hasOp = (id: string) => OPERATIONS.some((o) => o.id === id);
const readJson = async (uri: string) => JSON.parse((await readText(client, uri)).text);

describe('hub:// resources', () => {
  it('lists every resource the spec names, and templates for the parameterised ones', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(URIS);
    for (const r of resources) expect(r.description, r.uri).toBeTruthy();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'hub://catalog{?limit,offset}',
      'hub://workspace/map{?limit}',
      'hub://objectives{?limit,offset}',
      'hub://approvals/pending{?limit,offset}',
      'hub://handoffs/open{?limit,offset}',
      'hub://events/recent{?since}',
      'hub://workspace/config{?view,confirm}',
    ]);
  });

  it('reads every resource', async () => {
    for (const uri of URIS) {
      const r = await readText(client, uri);
      expect(r.text.length, uri).toBeGreaterThan(10);
      if (r.mimeType === 'application/json') JSON.parse(r.text);
    }
  });

  it('serves the catalog and the coordination lists from the same operations as the CLI', async () => {
    const cli = (args: string[]) => runHub(['-c', manifest, ...args, '--json']).json();
    expect(await readJson('hub://catalog')).toEqual(cli(['component', 'list']));
    await callJson(client, 'hub_objective_upsert', {
      id: 'res-obj',
      title: 'Resources',
      status: 'in_progress',
    });
    await callJson(client, 'hub_handoff_create', { id: 'res-h', title: 'Open one' });
    await callJson(client, 'hub_approval_request', { action: 'merge', idempotency_key: 'res-1' });
    expect(await readJson('hub://objectives')).toEqual(cli(['context', 'objective', 'list']));
    expect(await readJson('hub://handoffs/open')).toEqual(
      cli(['context', 'handoff', 'list', '--status', 'open']),
    );
    expect(await readJson('hub://approvals/pending')).toEqual(cli(['context', 'approval', 'list']));
    const events = await readJson('hub://events/recent');
    expect(events.events.length).toBeGreaterThan(0);
    const later = await readJson(`hub://events/recent?since=${encodeURIComponent(events.next_cursor)}`);
    expect(later.events).toEqual([]);
  });

  it('pages the workspace map by limit (default 80)', async () => {
    const all = await readJson('hub://workspace/map');
    const two = await readJson('hub://workspace/map?limit=2');
    if (hasOp('context.pack')) {
      // The tier-0 pack of the context-pack operation, page size = limit.
      expect(two).toEqual(
        runHub(['-c', manifest, 'context', 'pack', '--tier', '0', '--max-map-repos', '2', '--json']).json(),
      );
      expect(all.map.repos.length).toBe(6);
      expect(two.map.repos.length).toBe(2);
    } else {
      expect(all.repos.length).toBe(6);
      expect(all.projects.map((p: { name: string }) => p.name)).toEqual(['platform', 'storefront']);
      expect(two.repos.length).toBe(2);
      expect(two.truncated).toBe(true);
    }
    await rpcError(client.readResource({ uri: 'hub://workspace/map?limit=0' }), -32602);
  });

  it('reports the gate and the state backend', async () => {
    const gate = await readJson('hub://gate/status');
    expect(gate).toMatchObject({
      state: 'active',
      active: true,
      root,
      manifest,
      state_backend: { backend: 'local' },
      token_configured: false,
      env_overrides: [],
    });
  });

  it('serves session meta, the start prompt (also as an MCP prompt), health and context', async () => {
    await callJson(client, 'hub_session_update', { active_objective_id: 'res-obj', notes: 'n' });
    const meta = await readJson('hub://session/meta');
    expect(meta.active_objective_id).toBe('res-obj');
    expect(meta.session.notes).toBe('n');
    const prompt = await readText(client, 'hub://session/start-prompt');
    expect(prompt.mimeType).toBe('text/markdown');
    expect(prompt.text).toContain('hub_session_begin');
    expect(prompt.text).toContain('res-obj');
    const viaPrompt = await client.getPrompt({ name: 'hub_session_start' });
    expect((viaPrompt.messages[0]!.content as { text: string }).text).toBe(prompt.text);
    const health = await readJson('hub://workspace/health');
    if (hasOp('workspace.health'))
      expect(health).toEqual(runHub(['-c', manifest, 'workspace', 'health', '--json']).json());
    else expect(health.repos.missing).toEqual(['platform/legacy-billing']);
    const context = await readJson('hub://workspace/context');
    if (hasOp('context.pack')) expect(context.tier).toBe(1);
    else expect(context.objective.id).toBe('res-obj');
  });

  it('serves the manifest summary, and the full YAML on view=full', async () => {
    const summary = await readJson('hub://workspace/config');
    expect(summary.repo_count).toBe(6);
    const full = await readText(client, 'hub://workspace/config?view=full');
    expect(full.mimeType).toBe('application/yaml');
    expect(full.text).toContain('workspace:');
    await rpcError(client.readResource({ uri: 'hub://workspace/config?view=everything' }), -32602);
  });

  it('pages the list resources like their tools: limit, offset, total, next_offset', async () => {
    const whole = await readJson('hub://catalog');
    const page = await readJson('hub://catalog?limit=2&offset=1');
    expect(page.components).toEqual(whole.components.slice(1, 3));
    expect(page).toMatchObject({ total: whole.total, offset: 1, next_offset: 3, truncated: true });
    const err = await rpcError(client.readResource({ uri: 'hub://catalog?limit=0' }), -32602);
    expect(err.message).toContain('limit: must be at least 1');
  });

  it('answers an unknown URI with -32002 and an unknown parameter with -32602', async () => {
    await rpcError(client.readResource({ uri: 'hub://nothing/here' }), -32002);
    await rpcError(client.readResource({ uri: 'hub://catalog?page=2' }), -32602);
  });
});

describe('hub://workspace/config above 80 repositories', () => {
  it('is refused without confirm=1 and served with it', async () => {
    const big = join(dir, 'big');
    const repos = Array.from(
      { length: 81 },
      (_, i) => `      - name: r${i}\n        url: https://example.com/r${i}.git\n`,
    );
    const { mkdirSync } = await import('node:fs');
    mkdirSync(big);
    writeFileSync(
      join(big, '.hub.yml'),
      `workspace:\n  projects:\n    - name: p\n      repos:\n${repos.join('')}`,
    );
    const c = await connectHub(big);
    try {
      const refused = await rpcError(c.readResource({ uri: 'hub://workspace/config?view=full' }), -32000);
      expect(refused.message).toContain('confirm=1');
      const ok = await c.readResource({ uri: 'hub://workspace/config?view=full&confirm=1' });
      expect((ok.contents[0] as { text: string }).text).toContain('r80');
      const map = JSON.parse(
        ((await c.readResource({ uri: 'hub://workspace/map' })).contents[0] as { text: string }).text,
      );
      expect((hasOp('context.pack') ? map.map.repos : map.repos).length).toBe(80);
    } finally {
      await c.close();
    }
  });
});
