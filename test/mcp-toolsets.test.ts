// Toolsets: every tool in exactly one, selections by toolset/profile/name with the nearest name on a typo, their
// token cost counted by the real tokenizer, and `--dynamic` driven by the official SDK client.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemo } from '../examples/demo-workspace.mjs';
import { loadTokenCounter } from '../src/context/index.js';
import { UsageError } from '../src/infra/index.js';
import { CORE_TOOLS, PROFILES, TOOLSET_NAMES } from '../src/ops/index.js';
import { DYNAMIC_TOOL_DEFS, describeTools, selectTools, type ToolEntry } from '../src/surfaces/mcp/index.js';
import { toolsetsDocBlock } from '../src/surfaces/mcp/toolsets-doc.js';
import { createTempDir, removeTempDir } from './fixtures/index.js';
import { callJson, connectHub, rpcError } from './mcp-client.js';
import { runHub } from './run-hub.js';

const TABLE: ToolEntry[] = (await describeTools()).tools;
const names = (entries: readonly ToolEntry[]) => entries.map((e) => e.tool.name);

let dir: string;
let root: string;
beforeAll(() => {
  dir = createTempDir('hub-mcp-toolsets-');
  root = createDemo(join(dir, 'demo')).root;
});
afterAll(() => removeTempDir(dir));

describe('toolsets', () => {
  it('put every tool in exactly one toolset, named apart from profiles and tools', () => {
    const seen = new Map<string, string>();
    for (const set of TOOLSET_NAMES)
      for (const name of names(selectTools(TABLE, set).entries)) {
        expect(seen.get(name), `${name} in ${set} and ${seen.get(name)}`).toBeUndefined();
        seen.set(name, set);
      }
    expect([...seen.keys()].sort()).toEqual(names(TABLE).sort());
    for (const set of TOOLSET_NAMES) {
      expect(selectTools(TABLE, set).entries.length, set).toBeGreaterThan(0);
      expect(PROFILES as readonly string[]).not.toContain(set);
      expect(names(TABLE)).not.toContain(`hub_${set}`);
    }
  });

  it('mix toolsets, profiles and tool names in one selection, in registry order', () => {
    const s = selectTools(TABLE, 'core, merge,events,hub_org_index');
    const expected = new Set([
      ...CORE_TOOLS,
      ...names(selectTools(TABLE, 'merge').entries),
      'hub_events',
      'hub_org_index',
    ]);
    expect(names(s.entries)).toEqual(names(TABLE).filter((n) => expected.has(n)));
    expect(s.profile).toBe('core,merge,events,hub_org_index');
  });

  it('refuse an unknown name with the nearest valid one', () => {
    const refused = (spec: string) => {
      try {
        selectTools(TABLE, spec);
      } catch (err) {
        expect(err).toBeInstanceOf(UsageError);
        return (err as UsageError).message;
      }
      throw new Error(`${spec} was accepted`);
    };
    expect(refused('catalg')).toContain("did you mean 'catalog'?");
    expect(refused('core,orchestraton')).toContain("did you mean 'orchestration'?");
    expect(refused('hub_sesion_begin')).toContain("did you mean 'hub_session_begin'?");
    expect(refused('claim_lst')).toContain("did you mean 'claim_list'?");
    expect(refused(' , ')).toContain('empty list');
  });

  it('hub mcp serve --tools with a typo exits 2 naming the nearest toolset', () => {
    const r = runHub(['mcp', 'serve', '--root', root, '--tools', 'core,agnts']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown toolset, profile or tool 'agnts'; did you mean 'agents'?");
  });

  it('hub mcp tools prints each toolset with its token cost, counted by the tokenizer', async () => {
    const counter = await loadTokenCounter();
    const report = runHub(['mcp', 'tools', '--json']).json();
    expect(report.toolsets.map((t: { name: string }) => t.name)).toEqual(TOOLSET_NAMES);
    for (const t of report.toolsets) {
      const tools = selectTools(TABLE, t.name).entries.map((e) => e.tool);
      expect(t.names).toEqual(tools.map((x) => x.name));
      expect(t.tokens, t.name).toBe(counter.count(JSON.stringify({ tools })));
    }
    expect(report.full.tokens).toBe(counter.count(JSON.stringify({ tools: TABLE.map((e) => e.tool) })));
    const dynamic = runHub(['mcp', 'tools', '--tools', 'core', '--dynamic', '--json']).json();
    const served = [...selectTools(TABLE, 'core').entries.map((e) => e.tool), ...DYNAMIC_TOOL_DEFS];
    expect(dynamic.names).toEqual(served.map((t) => t.name));
    expect(dynamic.tokens).toBe(counter.count(JSON.stringify({ tools: served })));
    const text = runHub(['mcp', 'tools']).stdout;
    for (const t of report.toolsets)
      expect(text).toMatch(new RegExp(`^${t.name} +${t.tools} +${t.tokens} `, 'm'));
  });

  it('docs/mcp.md holds the toolset and installed-defaults tables the code gives', async () => {
    const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'mcp.md'), 'utf8');
    const block = /<!-- toolsets:begin -->\n([\s\S]*?)<!-- toolsets:end -->/.exec(doc)?.[1];
    expect(block, 'docs/mcp.md has the toolsets block').toBeDefined();
    expect(block).toBe(await toolsetsDocBlock(TABLE));
  });
});

describe('the toolset tools', () => {
  it('are described as every tool is: what it does, a "Use when" clause, no CLI flag, bounded', () => {
    for (const t of DYNAMIC_TOOL_DEFS) {
      expect(t.description, t.name).toMatch(/\. Use when /);
      expect(t.description, t.name).not.toMatch(/(^|\s)--[a-z]/);
      expect(t.description!.length, t.name).toBeLessThanOrEqual(220);
      expect(t.annotations, t.name).toBeDefined();
    }
  });
});

describe('--dynamic, with the SDK client', () => {
  let client: Client;
  const changed: number[] = [];
  beforeAll(async () => {
    client = await connectHub(root, ['--tools', 'core', '--dynamic']);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed.push(Date.now());
    });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('starts with the given set plus hub_toolsets_list and hub_toolsets_enable', async () => {
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    const listed = (await client.listTools()).tools.map((t) => t.name);
    expect(listed).toEqual([
      ...names(selectTools(TABLE, 'core').entries),
      'hub_toolsets_list',
      'hub_toolsets_enable',
    ]);
  });

  it('lists every toolset with its tools, cost and whether it is enabled', async () => {
    const r = await callJson(client, 'hub_toolsets_list');
    expect(r.toolsets.map((t: { name: string }) => t.name)).toEqual(TOOLSET_NAMES);
    const acl = r.toolsets.find((t: { name: string }) => t.name === 'acl');
    expect(acl.enabled).toBe(false);
    expect(acl.tools).toContain('hub_claim_list');
    expect(acl.tokens).toBeGreaterThan(0);
  });

  it('a tool of a toolset not enabled is refused with the way to enable it', async () => {
    const err = await rpcError(client.callTool({ name: 'hub_claim_list', arguments: {} }), -32602);
    expect(err.message).toContain("call hub_toolsets_enable with toolset 'acl'");
    await rpcError(client.callTool({ name: 'hub_toolsets_enable', arguments: { toolset: 'acls' } }), -32602);
  });

  it('hub_toolsets_enable adds a toolset: list_changed is sent, its tools are listed and callable', async () => {
    const before = changed.length;
    const r = await callJson(client, 'hub_toolsets_enable', { toolset: 'acl' });
    expect(r.added).toContain('hub_claim_list');
    await expect.poll(() => changed.length).toBeGreaterThan(before);
    const listed = (await client.listTools()).tools.map((t) => t.name);
    for (const name of names(selectTools(TABLE, 'acl').entries)) expect(listed).toContain(name);
    const claims = await callJson(client, 'hub_claim_list', {});
    expect(Array.isArray(claims.claims)).toBe(true);
    // Enabling it again adds nothing and sends nothing.
    const again = await callJson(client, 'hub_toolsets_enable', { toolset: 'acl' });
    expect(again.added).toEqual([]);
    const list = await callJson(client, 'hub_toolsets_list');
    expect(list.toolsets.find((t: { name: string }) => t.name === 'acl').enabled).toBe(true);
  });

  it('every tool stays reachable: enabling every toolset serves the full list', async () => {
    for (const set of TOOLSET_NAMES) await callJson(client, 'hub_toolsets_enable', { toolset: set });
    const listed = (await client.listTools()).tools.map((t) => t.name);
    expect(listed.slice(0, -2).sort()).toEqual(names(TABLE).sort());
  });
});

describe('without --dynamic', () => {
  it('a bare hub mcp serve serves every tool and no toolset tools', async () => {
    const client = await connectHub(root);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(names(TABLE));
      expect(client.getServerCapabilities()?.tools?.listChanged).toBeFalsy();
      await rpcError(client.callTool({ name: 'hub_toolsets_list', arguments: {} }), -32602);
    } finally {
      await client.close();
    }
  });
});
