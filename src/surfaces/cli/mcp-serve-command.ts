import type { Command } from 'commander';

/** `hub mcp serve` (the MCP surface issue fills this in). */
export function addMcpServeCommand(_program: Command): void {}
