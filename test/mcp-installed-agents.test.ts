// Done means for lean installs: each bundled template installed for Claude Code starts its server exactly as the
// written .mcp.json says, serves the template's own tools within 4,000 tokens, lets the agent enable any other
// toolset, and the agent file's `tools:` allowlist (read as Claude Code reads it) names those very tools.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { loadTokenCounter } from '../src/context/index.js';
import { TOOLSET_NAMES } from '../src/ops/index.js';
import { describeTools, selectTools } from '../src/surfaces/mcp/index.js';
import { buildWorkspace, createTempDir, git, removeTempDir } from './fixtures/index.js';
import { callJson, serverEnv } from './mcp-client.js';
import { pathWithoutThisHub, runHub } from './run-hub.js';

const INSTALLED_BUDGET = 4000;
const TEMPLATES_DIR = join(import.meta.dirname, '..', 'templates', 'agents');
const TEMPLATES = readdirSync(TEMPLATES_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory() && !d.name.startsWith('_'))
  .map((d) => d.name)
  .sort();
const mcpToolsOf = (id: string): string[] =>
  parseYaml(readFileSync(join(TEMPLATES_DIR, id, 'template.yaml'), 'utf8')).mcp_tools ?? [];
const TABLE = (await describeTools()).tools;

/** Claude Code's reading of an agent file: YAML front-matter between `---` lines; `tools` a comma-separated list. */
function claudeAgentTools(text: string): string[] {
  const m = /^---\n([\s\S]*?)\n---\n/.exec(text);
  if (!m) throw new Error('no front-matter');
  const fm = parseYaml(m[1]!) as { tools?: string };
  return (fm.tools ?? '').split(',').map((t) => t.trim());
}

let base: string;
beforeAll(() => {
  base = createTempDir('hub-installed-agents-');
});
afterAll(() => removeTempDir(base));

it('there are ten bundled templates, each with its own mcp_tools', () => {
  expect(TEMPLATES).toHaveLength(10);
  for (const id of TEMPLATES) expect(mcpToolsOf(id).length, id).toBeGreaterThan(0);
});

describe.each(TEMPLATES)('agent create %s --vendor claude_code --install-mcp', (id) => {
  let ws: string;
  let env: Record<string, string>;
  let client: Client;
  beforeAll(async () => {
    const dir = join(base, id);
    mkdirSync(join(dir, 'home'), { recursive: true });
    ws = buildWorkspace({
      root: join(dir, 'ws'),
      projects: [{ name: 'shop', repos: [{ name: 'api', files: { 'README.md': '# api\n' } }] }],
    }).root;
    git(ws, ['init', '-q', '-b', 'main']);
    env = { HOME: join(dir, 'home'), PATH: pathWithoutThisHub(process.env.PATH ?? '') };
    const r = runHub(
      ['agent', 'create', id, '--vendor', 'claude_code', '--scope', 'project', '--install-mcp'],
      {
        cwd: ws,
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    // Start the server exactly as the written .mcp.json says: its command, args and env.
    const entry = JSON.parse(readFileSync(join(ws, '.mcp.json'), 'utf8')).mcpServers.hub;
    expect(entry.type).toBe('stdio');
    const transport = new StdioClientTransport({
      command: entry.command,
      args: entry.args,
      env: { ...serverEnv(), ...entry.env },
      stderr: 'pipe',
    });
    client = new Client({ name: 'claude-code-stand-in', version: '1.0.0' });
    await client.connect(transport);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('serves the template’s tools and the toolset pair, within 4,000 tokens', async () => {
    const tools = (await client.listTools()).tools;
    const listed = tools.map((t) => t.name);
    for (const tool of mcpToolsOf(id)) expect(listed, tool).toContain(tool);
    expect(listed).toContain('hub_toolsets_list');
    expect(listed).toContain('hub_toolsets_enable');
    const tokens = (await loadTokenCounter()).count(JSON.stringify({ tools }));
    expect(tokens).toBeLessThanOrEqual(INSTALLED_BUDGET);
  });

  it('the agent file allows exactly those hub tools, as mcp__hub__<tool>', async () => {
    const allowed = claudeAgentTools(readFileSync(join(ws, '.claude', 'agents', `${id}.md`), 'utf8'));
    const listed = (await client.listTools()).tools.map((t) => t.name);
    const hub = allowed.filter((t) => t.startsWith('mcp__hub__')).map((t) => t.slice('mcp__hub__'.length));
    expect(hub.sort()).toEqual([...mcpToolsOf(id), 'hub_toolsets_list', 'hub_toolsets_enable'].sort());
    for (const tool of hub) expect(listed, tool).toContain(tool);
    // The template's own Claude Code tools stay first.
    expect(allowed[0]).toBe('Read');
  });

  it('hub_toolsets_enable brings another toolset', async () => {
    const listed = new Set((await client.listTools()).tools.map((t) => t.name));
    const other = TOOLSET_NAMES.find((s) =>
      selectTools(TABLE, s).entries.some((e) => !listed.has(e.tool.name)),
    )!;
    const r = await callJson(client, 'hub_toolsets_enable', { toolset: other });
    expect(r.added.length).toBeGreaterThan(0);
    const after = (await client.listTools()).tools.map((t) => t.name);
    for (const e of selectTools(TABLE, other).entries) expect(after).toContain(e.tool.name);
  });
});
