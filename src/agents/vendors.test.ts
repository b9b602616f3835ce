import { describe, expect, it } from 'vitest';
import { ValidationError } from '../infra/index.js';
import { artifactPath, mcpConfigPath, mcpEntry, scopeOf, VENDOR_IDS, VENDORS, vendorOf } from './vendors.js';

const roots = { projectRoot: '/repo', home: '/home/u' };

describe('vendors', () => {
  it('installs agents and skills where each vendor looks, in both scopes', () => {
    const got = Object.fromEntries(
      VENDOR_IDS.map((id) => [
        id,
        [artifactPath(VENDORS[id], 'project', roots, 'x'), artifactPath(VENDORS[id], 'user', roots, 'x')],
      ]),
    );
    expect(got).toEqual({
      claude_code: ['/repo/.claude/agents/x.md', '/home/u/.claude/agents/x.md'],
      cursor: ['/repo/.cursor/agents/x.md', '/home/u/.cursor/agents/x.md'],
      github_copilot: ['/repo/.github/agents/x.agent.md', '/home/u/.copilot/agents/x.agent.md'],
      opencode: ['/repo/.opencode/agents/x.md', '/home/u/.config/opencode/agents/x.md'],
      hermes: ['/repo/.hermes/skills/x/SKILL.md', '/home/u/.hermes/skills/x/SKILL.md'],
      openclaw: ['/repo/.openclaw/skills/x/SKILL.md', '/home/u/.openclaw/skills/x/SKILL.md'],
      windsurf: ['/repo/.windsurf/skills/x/SKILL.md', '/home/u/.codeium/windsurf/skills/x/SKILL.md'],
      codex: ['/repo/.agents/skills/x/SKILL.md', '/home/u/.agents/skills/x/SKILL.md'],
    });
  });

  it("reads MCP servers from each vendor's own file and key", () => {
    const mcp = (id: (typeof VENDOR_IDS)[number], scope: 'project' | 'user') => {
      const t = mcpConfigPath(VENDORS[id], scope, roots);
      return t && `${t.path} ${t.target.rootKey}`;
    };
    expect(mcp('claude_code', 'project')).toBe('/repo/.mcp.json mcpServers');
    expect(mcp('claude_code', 'user')).toBe('/home/u/.claude.json mcpServers');
    expect(mcp('github_copilot', 'project')).toBe('/repo/.vscode/mcp.json servers');
    expect(mcp('opencode', 'project')).toBe('/repo/opencode.json mcp');
    expect(mcp('codex', 'user')).toBe('/home/u/.codex/config.toml mcp_servers');
    expect(mcp('hermes', 'user')).toBe('/home/u/.hermes/config.yaml mcp_servers');
    expect(mcp('windsurf', 'user')).toBe('/home/u/.codeium/windsurf/mcp_config.json mcpServers');
    expect(mcp('hermes', 'project')).toBeNull();
    const server = { command: 'hub', args: ['mcp', 'serve'] };
    expect(mcpEntry(VENDORS.opencode.mcp.project!, server)).toEqual({
      type: 'local',
      command: ['hub', 'mcp', 'serve'],
    });
    expect(mcpEntry(VENDORS.claude_code.mcp.project!, server)).toEqual({
      type: 'stdio',
      command: 'hub',
      args: ['mcp', 'serve'],
    });
    expect(mcpEntry(VENDORS.codex.mcp.user!, server)).toEqual({ command: 'hub', args: ['mcp', 'serve'] });
  });

  it('refuses unknown vendors and scopes, and a project scope outside any git repository', () => {
    expect(() => vendorOf('claude-code')).toThrow(/did you mean 'claude_code'/);
    expect(() => scopeOf('global')).toThrow(ValidationError);
    expect(() => artifactPath(VENDORS.cursor, 'project', { home: '/home/u' }, 'x')).toThrow(/git repository/);
  });
});
