import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { loadOperations } from '../src/ops/index.js';
import { CORE_TOOLS } from '../src/surfaces/mcp/index.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { callJson, connectHub, readText, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';

const OPERATIONS = await loadOperations();

let dir: string;
let demoManifest: string;
let demoRoot: string;

beforeAll(() => {
  dir = createTempDir('hub-mcp-gate-');
  const demo = createDemo(join(dir, 'demo'));
  demoManifest = demo.manifestPath;
  demoRoot = demo.root;
});
afterAll(() => removeTempDir(dir));

describe('the gate', () => {
  it('inactive_missing_config: ACTIVE tools say how to fix it; version tools work; a new manifest activates it', async () => {
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const c = await connectHub(empty);
    try {
      expect(c.getInstructions()).toContain('inactive_missing_config');
      const gate = JSON.parse((await readText(c, 'hub://gate/status')).text);
      expect(gate).toMatchObject({
        state: 'inactive_missing_config',
        active: false,
        state_backend: { backend: 'local' },
        token_configured: false,
        env_overrides: [],
      });
      expect(gate.fix.join(' ')).toContain('hub init');
      const err = await rpcError(c.callTool({ name: 'hub_component_list', arguments: {} }), -32602);
      expect(err.message).toContain('hub init');
      expect(err.data).toMatchObject({ code: 'not_found', details: { gate: 'inactive_missing_config' } });
      await rpcError(c.readResource({ uri: 'hub://catalog' }), -32602);
      expect((await c.listTools()).tools.length).toBe(OPERATIONS.filter((o) => o.mcp).length);

      const check = await callJson(c, 'hub_version_check', {});
      expect(check).toMatchObject({ status: 'unknown', installed: expect.any(String) });
      expect(check.reason).toContain('HUB_OFFLINE');
      const plan = await callJson(c, 'hub_version_upgrade', {});
      expect(plan).toMatchObject({ apply: false, applied: false });

      copyFileSync(demoManifest, join(empty, '.hub.yml'));
      const list = await callJson(c, 'hub_component_list', {});
      expect(list.components.length).toBe(13);
      expect(JSON.parse((await readText(c, 'hub://gate/status')).text).state).toBe('active');
    } finally {
      await c.close();
    }
  });

  it('inactive_invalid_config: the message names the problem and `hub config validate`', async () => {
    const bad = join(dir, 'bad');
    mkdirSync(bad);
    writeFileSync(join(bad, '.hub.yml'), 'workspace:\n  name: x\n  projectz: []\n');
    const c = await connectHub(bad);
    try {
      const gate = JSON.parse((await readText(c, 'hub://gate/status')).text);
      expect(gate.state).toBe('inactive_invalid_config');
      expect(gate.message).toContain('projectz');
      expect(gate.fix.join(' ')).toContain('hub config validate');
      const err = await rpcError(c.callTool({ name: 'hub_objective_list', arguments: {} }), -32602);
      expect(err.message).toContain('hub config validate');
      expect(err.data).toMatchObject({ code: 'validation', details: { gate: 'inactive_invalid_config' } });
      expect((await callJson(c, 'hub_version_check', {})).status).toBe('unknown');
    } finally {
      await c.close();
    }
  });

  it('reports HUB_STATE_* overrides and the backend they choose', async () => {
    const c = await connectHub(demoRoot, [], { HUB_STATE_BACKEND: 'memory' });
    try {
      const gate = JSON.parse((await readText(c, 'hub://gate/status')).text);
      expect(gate.state).toBe('active');
      expect(gate.state_backend.backend).toBe('memory');
      expect(gate.env_overrides).toEqual(['HUB_STATE_BACKEND']);
    } finally {
      await c.close();
    }
  });
});

describe('tool profiles', () => {
  it('--tools core serves the small set; other tools are unknown with a hint', async () => {
    const c = await connectHub(demoRoot, ['--tools', 'core']);
    try {
      const names = (await c.listTools()).tools.map((t) => t.name);
      const existing = new Set(OPERATIONS.flatMap((o) => (o.mcp ? [o.mcp.tool] : [])));
      expect(new Set(names)).toEqual(new Set(CORE_TOOLS.filter((n) => existing.has(n))));
      const err = await rpcError(c.callTool({ name: 'hub_component_list', arguments: {} }), -32602);
      expect(err.message).toContain('--tools full');
      expect(
        (await callJson(c, 'hub_component_resolve', { path: 'platform/gateway/services/gateway/x.ts' }))
          .matched,
      ).toBe(true);
    } finally {
      await c.close();
    }
  });

  it('--tools takes a comma list of profiles and names, with or without hub_', async () => {
    const c = await connectHub(demoRoot, ['--tools', 'core,events,hub_component_list']);
    try {
      const names = (await c.listTools()).tools.map((t) => t.name);
      expect(names).toContain('hub_events');
      expect(names).toContain('hub_component_list');
      expect(names).toContain('hub_session_begin');
    } finally {
      await c.close();
    }
  });

  it('an unknown tool name is a usage error (exit 2)', () => {
    const r = runHub(['mcp', 'serve', '--root', demoRoot, '--tools', 'core,nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown toolset, profile or tool 'nope'; did you mean");
    expect(r.stdout).toBe('');
  });

  it('`hub mcp tools --json` reports the token size of the full and core lists', () => {
    const r = runHub(['mcp', 'tools', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const sizes = r.json();
    expect(sizes.full.tools).toBe(OPERATIONS.filter((o) => o.mcp).length);
    expect(sizes.core.tools).toBeLessThan(sizes.full.tools);
    expect(sizes.core.tokens).toBeGreaterThan(0);
    expect(sizes.core.tokens).toBeLessThan(sizes.full.tokens);
    expect(sizes.tokens).toBe(sizes.full.tokens);
    const core = runHub(['mcp', 'tools', '--tools', 'core', '--json']).json();
    expect(core.tokens).toBe(sizes.core.tokens);
  });
});
