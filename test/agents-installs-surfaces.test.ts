import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parse as parseJsonc } from 'jsonc-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorkspace, createTempDir, git, removeTempDir } from './fixtures/index.js';
import { call, type RunningServer, startTestServer } from './http-server.js';
import { callJson, connectHub, rpcError } from './mcp-client.js';

let dir: string;
let ws: string;
let home: string;
let env: Record<string, string>;
let http: RunningServer;
let mcp: Client;

beforeAll(async () => {
  dir = createTempDir('hub-installs-surfaces-');
  home = join(dir, 'home');
  mkdirSync(home);
  ws = buildWorkspace({
    root: join(dir, 'ws'),
    projects: [{ name: 'shop', repos: [{ name: 'api', files: { 'README.md': '# api\n' } }] }],
  }).root;
  git(ws, ['init', '-q', '-b', 'main']);
  // The servers, like every hub here, see only a temporary home.
  env = { HOME: home, XDG_CONFIG_HOME: join(dir, 'xdg'), HUB_CACHE_DIR: 'off', PATH: process.env.PATH ?? '' };
  http = await startTestServer({ root: ws, env });
  mcp = await connectHub(ws, [], env);
});
afterAll(async () => {
  await mcp.close();
  await http.close();
  removeTempDir(dir);
});

describe('installs over HTTP', () => {
  it('installs into the served workspace’s repository (project scope)', async () => {
    const r = await call(http.base, 'POST', '/v3/agents/mcp/install', {
      body: { scope: 'project', target: 'cursor' },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ path: join(ws, '.cursor/mcp.json'), action: 'create' });
    expect(parseJsonc(readFileSync(join(ws, '.cursor/mcp.json'), 'utf8')).mcpServers.hub.args).toContain(ws);
    const skills = await call(http.base, 'POST', '/v3/agents/skills/install', {
      body: { scope: 'project', target: 'windsurf', dry_run: true },
    });
    expect(skills.status).toBe(200);
    expect(skills.json.written).toEqual([]);
    const create = await call(http.base, 'POST', '/v3/agents/templates/repo-implementer/create', {
      body: { vendor: 'claude_code', scope: 'project', answers: { agent_id: 'web-1' } },
    });
    expect(create.status, create.text).toBe(200);
    expect(readFileSync(create.json.path, 'utf8')).toContain('`web-1`');
  });

  it('refuses user scope: the server’s home is not the caller’s', async () => {
    for (const [route, body] of [
      ['/v3/agents/mcp/install', { scope: 'user', target: 'windsurf' }],
      ['/v3/agents/skills/install', { scope: 'user', target: 'codex' }],
      ['/v3/agents/templates/repo-implementer/create', { scope: 'user', vendor: 'cursor' }],
    ] as const) {
      const r = await call(http.base, 'POST', route, { body });
      expect(r.status, route).toBe(403);
      expect(r.json.error.details).toMatchObject({ rule: 'user_scope_cli_only' });
    }
    expect(readdirSync(home)).toEqual([]);
  });

  it('reads an answers file only inside the workspace', async () => {
    const r = await call(http.base, 'POST', '/v3/agents/templates/repo-implementer/create', {
      body: { vendor: 'cursor', scope: 'project', answers_file: '/etc/hostname', dry_run: true },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.details).toMatchObject({ field: 'answers_file', rule: 'inside_workspace' });
  });
});

describe('installs over MCP', () => {
  it('hub_mcp_install and hub_skills_install install into the served workspace', async () => {
    const r = await callJson(mcp, 'hub_mcp_install', { scope: 'project', target: 'codex' });
    expect(r).toMatchObject({ path: join(ws, '.codex/config.toml'), action: 'create' });
    const again = await callJson(mcp, 'hub_mcp_install', { scope: 'project', target: 'codex' });
    expect(again.action).toBe('unchanged');
    const skills = await callJson(mcp, 'hub_skills_install', { scope: 'project', target: 'codex' });
    expect(skills.written).toContain(join(ws, '.agents/skills/hub-workspace/SKILL.md'));
    const created = await callJson(mcp, 'hub_agent_create', {
      id: 'repo-implementer',
      vendor: 'opencode',
      scope: 'project',
      dry_run: true,
    });
    expect(created).toMatchObject({ action: 'create', written: [] });
    expect(existsSync(join(ws, '.opencode'))).toBe(false);
  });

  it('refuses user scope with -32000', async () => {
    const err = await rpcError(
      mcp.callTool({ name: 'hub_mcp_install', arguments: { scope: 'user', target: 'hermes' } }),
      -32000,
    );
    expect(err.message).toContain('CLI only');
    expect(readdirSync(home)).toEqual([]);
  });
});
