import * as z from 'zod';
import { type FileWriteView, type InstallScope, planMcpInstall, vendorOf } from '../agents/index.js';
import { cliHelp } from './cli-help.js';
import {
  applyPlans,
  checkScopeOnSurface,
  filesHuman,
  hubServerCommand,
  installFields,
  installRoots,
} from './install-support.js';
import { defineOp, WRITES_IDEMPOTENT } from './registry.js';

export interface McpInstallResult {
  target: string;
  scope: InstallScope;
  path: string;
  root_key: string;
  name: string;
  entry: Record<string, unknown>;
  action: FileWriteView['action'];
  dry_run: boolean;
  files: FileWriteView[];
  written: string[];
}

export const mcpInstall = defineOp({
  id: 'mcp.install',
  summary: "Add hub's MCP server to a coding-agent vendor's MCP configuration, merged in place.",
  description:
    'Files and keys: Claude Code .mcp.json / ~/.claude.json (mcpServers), Cursor .cursor/mcp.json, Copilot ' +
    '.vscode/mcp.json (servers) / ~/.copilot/mcp-config.json, OpenCode opencode.json (mcp), Codex ' +
    '.codex/config.toml [mcp_servers.hub], Hermes ~/.hermes/config.yaml (mcp_servers), Windsurf ' +
    '~/.codeium/windsurf/mcp_config.json; OpenClaw has none. Other keys and comments are kept; installing ' +
    'again writes nothing; a file that does not parse is refused and left alone; an entry of the same name ' +
    'with another value needs --force. The entry serves this workspace (--root).',
  input: z.strictObject({
    scope: installFields.scope,
    target: installFields.target,
    name: cliHelp(z.string().min(1).max(64).default('hub'), 'Server name in the file (default hub).'),
    tools: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('Tools it serves: full, core, or a comma list of profiles and tool names.'),
    force: installFields.force,
    dry_run: installFields.dry_run,
  }),
  gate: 'none',
  attributes: WRITES_IDEMPOTENT,
  handler: (ctx, input): McpInstallResult => {
    const vendor = vendorOf(input.target, 'target');
    checkScopeOnSurface(ctx, input.scope);
    const roots = installRoots(ctx, input.scope);
    const planned = planMcpInstall({
      vendor,
      scope: input.scope,
      roots,
      name: input.name,
      server: hubServerCommand(ctx, { tools: input.tools }),
      force: input.force,
    });
    const applied = applyPlans([planned.plan], input.dry_run ?? false);
    return {
      target: planned.vendor,
      scope: planned.scope,
      path: planned.path,
      root_key: planned.root_key,
      name: planned.name,
      entry: planned.entry,
      action: planned.plan.action,
      ...applied,
    };
  },
  cli: {
    command: 'mcp install',
    human: (r) => `${filesHuman(r)}\n  ${r.root_key}.${r.name}: ${JSON.stringify(r.entry)}`,
    exitCode: (r) => (r.action === 'conflict' ? 1 : 0),
  },
  mcp: { tool: 'hub_mcp_install', when: "Use when a vendor's agent should call hub." },
  http: [{ method: 'POST', route: '/v3/agents/mcp/install', input: 'body' }],
});
