import { join } from 'node:path';
import { didYouMean, suggestionText } from '../catalog/index.js';
import { ValidationError } from '../infra/index.js';

/** The eight install targets. Four take an agent file, four a skill folder (the earlier product's choice). */
export const VENDOR_IDS = [
  'claude_code',
  'cursor',
  'github_copilot',
  'opencode',
  'hermes',
  'openclaw',
  'windsurf',
  'codex',
] as const;
export type VendorId = (typeof VENDOR_IDS)[number];

export const INSTALL_SCOPES = ['project', 'user'] as const;
export type InstallScope = (typeof INSTALL_SCOPES)[number];

/** File formats of MCP configuration files, each edited through its own maintained parser. */
export type ConfigFormat = 'json' | 'yaml' | 'toml';

/** Where a vendor reads MCP servers in one scope: the file (relative to the scope's root) and the root key. */
export interface McpTarget {
  /** Path relative to the repository root (project scope) or the home folder (user scope). */
  file: string;
  format: ConfigFormat;
  /** The key holding the servers (`mcpServers`, `servers`, `mcp`, `mcp_servers`). */
  rootKey: string;
  /** The entry's shape: how command, args and env are spelled in this file. */
  entry: 'stdio_typed' | 'plain' | 'opencode_local' | 'copilot_cli';
}

export interface VendorSpec {
  id: VendorId;
  /** What the vendor installs: an agent file, or a skill folder (`<name>/SKILL.md`). */
  kind: 'agent' | 'skill';
  /** Human name, for messages. */
  label: string;
  /** Folder of agents or skills, relative to the repository root (project) and to the home folder (user). */
  projectDir: string;
  userDir: string;
  /** Agent-file suffix (`.md`; `.agent.md` for GitHub Copilot). */
  agentSuffix?: string;
  /** Front-matter keys of an agent file: those the vendor requires, and those it also reads. */
  frontMatter?: { required: readonly string[]; optional: readonly string[] };
  /** The MCP configuration it reads, per scope; absent where the vendor documents none. */
  mcp: Partial<Record<InstallScope, McpTarget>>;
  /** Where the vendor documents these paths (a citation without a link). */
  documented: string;
}

const json = (file: string, rootKey: string, entry: McpTarget['entry'] = 'plain'): McpTarget => ({
  file,
  format: 'json',
  rootKey,
  entry,
});

/** The vendors' real paths and formats (REFERENCE.md, from each vendor's documentation, 2026). */
export const VENDORS: Readonly<Record<VendorId, VendorSpec>> = {
  claude_code: {
    id: 'claude_code',
    kind: 'agent',
    label: 'Claude Code',
    projectDir: '.claude/agents',
    userDir: '.claude/agents',
    agentSuffix: '.md',
    frontMatter: { required: ['name', 'description'], optional: ['tools', 'model'] },
    mcp: {
      project: json('.mcp.json', 'mcpServers', 'stdio_typed'),
      user: json('.claude.json', 'mcpServers', 'stdio_typed'),
    },
    documented:
      'Claude Code documentation, "Subagents" and "Connect Claude Code to tools via MCP" (project scope .mcp.json)',
  },
  cursor: {
    id: 'cursor',
    kind: 'agent',
    label: 'Cursor',
    projectDir: '.cursor/agents',
    userDir: '.cursor/agents',
    agentSuffix: '.md',
    frontMatter: { required: ['name', 'description'], optional: ['model'] },
    mcp: { project: json('.cursor/mcp.json', 'mcpServers'), user: json('.cursor/mcp.json', 'mcpServers') },
    documented: 'Cursor documentation, "Subagents" and "Model Context Protocol" (mcp.json locations)',
  },
  github_copilot: {
    id: 'github_copilot',
    kind: 'agent',
    label: 'GitHub Copilot',
    projectDir: '.github/agents',
    userDir: '.copilot/agents',
    agentSuffix: '.agent.md',
    frontMatter: { required: ['description'], optional: ['name', 'tools', 'model'] },
    mcp: {
      project: json('.vscode/mcp.json', 'servers', 'stdio_typed'),
      // The Copilot CLI's own file: `type` local/stdio and a `tools` allow-list ("*": every tool) per server.
      user: json('.copilot/mcp-config.json', 'mcpServers', 'copilot_cli'),
    },
    documented:
      'GitHub Docs, "Custom agents" (.agent.md) and VS Code documentation, "MCP servers" (.vscode/mcp.json)',
  },
  opencode: {
    id: 'opencode',
    kind: 'agent',
    label: 'OpenCode',
    projectDir: '.opencode/agents',
    userDir: '.config/opencode/agents',
    agentSuffix: '.md',
    frontMatter: { required: ['description'], optional: ['mode', 'model', 'tools'] },
    mcp: {
      project: json('opencode.json', 'mcp', 'opencode_local'),
      user: json('.config/opencode/opencode.json', 'mcp', 'opencode_local'),
    },
    documented: 'OpenCode documentation, "Agents" and "MCP servers" (opencode.json, type local)',
  },
  hermes: {
    id: 'hermes',
    kind: 'skill',
    label: 'Hermes',
    projectDir: '.hermes/skills',
    userDir: '.hermes/skills',
    mcp: { user: { file: '.hermes/config.yaml', format: 'yaml', rootKey: 'mcp_servers', entry: 'plain' } },
    documented: 'Hermes Agent documentation, "Skills" and "MCP" (config.yaml mcp_servers)',
  },
  openclaw: {
    id: 'openclaw',
    kind: 'skill',
    label: 'OpenClaw',
    projectDir: '.openclaw/skills',
    userDir: '.openclaw/skills',
    // No MCP file is confirmed by the vendor: hub writes none and says so (docs/agents.md).
    mcp: {},
    documented: 'OpenClaw documentation, "Skills" (workspace and managed skills folders)',
  },
  windsurf: {
    id: 'windsurf',
    kind: 'skill',
    label: 'Windsurf',
    projectDir: '.windsurf/skills',
    userDir: '.codeium/windsurf/skills',
    mcp: { user: json('.codeium/windsurf/mcp_config.json', 'mcpServers') },
    documented: 'Windsurf documentation, "Skills" and "Cascade MCP integration" (mcp_config.json)',
  },
  codex: {
    id: 'codex',
    kind: 'skill',
    label: 'Codex',
    projectDir: '.agents/skills',
    userDir: '.agents/skills',
    mcp: {
      project: { file: '.codex/config.toml', format: 'toml', rootKey: 'mcp_servers', entry: 'plain' },
      user: { file: '.codex/config.toml', format: 'toml', rootKey: 'mcp_servers', entry: 'plain' },
    },
    documented:
      'Codex documentation, "Agent Skills" (.agents/skills) and "MCP" (config.toml [mcp_servers.<name>])',
  },
};

/** The vendor of an id, or a validation error naming the known ones (with "did you mean"). */
export function vendorOf(id: string, field = 'vendor'): VendorSpec {
  if ((VENDOR_IDS as readonly string[]).includes(id)) return VENDORS[id as VendorId];
  throw new ValidationError(
    `${field}: unknown vendor '${id}'${suggestionText(didYouMean(id, VENDOR_IDS))}; known: ${VENDOR_IDS.join(', ')}`,
    { field, value: id, rule: 'known_vendor', known: [...VENDOR_IDS] },
  );
}

/** The scope, or a validation error. */
export function scopeOf(scope: string, field = 'scope'): InstallScope {
  if ((INSTALL_SCOPES as readonly string[]).includes(scope)) return scope as InstallScope;
  throw new ValidationError(`${field}: '${scope}' is not a scope (project or user)`, {
    field,
    value: scope,
    rule: 'project|user',
  });
}

/** The folders an install resolves against: the repository root (project scope) and the home folder (user). */
export interface InstallRoots {
  /** The nearest git repository root of the working folder; undefined outside any repository. */
  projectRoot?: string;
  home: string;
}

/** The base folder of a scope, or the error for a project scope outside any git repository. */
export function scopeBase(scope: InstallScope, roots: InstallRoots): string {
  if (scope === 'user') return roots.home;
  if (roots.projectRoot === undefined)
    throw new ValidationError(
      'scope: project scope needs a git repository; run it inside one, or use --scope user',
      { field: 'scope', value: scope, rule: 'inside_git_repository' },
    );
  return roots.projectRoot;
}

/** Where an agent (agent vendors) or a skill (skill vendors) of `name` is installed. */
export function artifactPath(
  vendor: VendorSpec,
  scope: InstallScope,
  roots: InstallRoots,
  name: string,
): string {
  const base = join(scopeBase(scope, roots), scope === 'project' ? vendor.projectDir : vendor.userDir);
  return vendor.kind === 'agent'
    ? join(base, `${name}${vendor.agentSuffix ?? '.md'}`)
    : join(base, name, 'SKILL.md');
}

/** Where a skill is installed for any vendor (agent vendors read skills beside their agents folder). */
export function skillPath(
  vendor: VendorSpec,
  scope: InstallScope,
  roots: InstallRoots,
  name: string,
): string {
  const dir = scope === 'project' ? vendor.projectDir : vendor.userDir;
  const skills = vendor.kind === 'skill' ? dir : join(dir, '..', 'skills');
  return join(scopeBase(scope, roots), skills, name, 'SKILL.md');
}

/** The vendor's MCP file in a scope, or null where the vendor documents none. */
export function mcpConfigPath(
  vendor: VendorSpec,
  scope: InstallScope,
  roots: InstallRoots,
): { path: string; target: McpTarget } | null {
  const target = vendor.mcp[scope];
  if (!target) return null;
  return { path: join(scopeBase(scope, roots), target.file), target };
}

/** The MCP server entry for `hub mcp serve` in a vendor's spelling. */
export function mcpEntry(
  target: McpTarget,
  server: { command: string; args: string[]; env?: Record<string, string> },
): Record<string, unknown> {
  const env = server.env && Object.keys(server.env).length > 0 ? server.env : undefined;
  if (target.entry === 'opencode_local')
    return { type: 'local', command: [server.command, ...server.args], ...(env ? { environment: env } : {}) };
  if (target.entry === 'copilot_cli')
    return {
      type: 'stdio',
      command: server.command,
      args: server.args,
      tools: ['*'],
      ...(env ? { env } : {}),
    };
  if (target.entry === 'stdio_typed')
    return { type: 'stdio', command: server.command, args: server.args, ...(env ? { env } : {}) };
  return { command: server.command, args: server.args, ...(env ? { env } : {}) };
}
