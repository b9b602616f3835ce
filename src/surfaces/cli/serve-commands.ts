import type { Command } from 'commander';
import { addDaemonCommands } from './daemon-command.js';
import { addMcpServeCommand } from './mcp-serve-command.js';
import { addWebServeCommands } from './web-serve-command.js';

/**
 * Commands that start a long-running surface (HTTP server, MCP server, the CLI daemon). They are not registry
 * operations: they serve the registry. Each loads its server with import() so other commands never pay for it.
 */
export function addServeCommands(program: Command): void {
  addWebServeCommands(program);
  addMcpServeCommand(program);
  addDaemonCommands(program);
}
