import { format } from 'node:util';
import { type HubMcpOptions, serveMcp } from './server.js';

export { FramedStdioTransport, MAX_MESSAGE_BYTES } from './framing.js';
export { type GateState, type GateStatus, gateLocation, readGate } from './gate.js';
export {
  CORE_TOOLS,
  PROFILES,
  type ProfileSizes,
  profileSizes,
  selectTools,
  type ToolSelection,
  toolList,
  toolListTokens,
} from './profiles.js';
export { MAP_LIMIT, RECENT_EVENTS, RESOURCES, type ResourceDef } from './resources.js';
export { createHubMcpServer, type HubMcpOptions, serveMcp, toMcpError } from './server.js';
export { annotationsOf, inputSchemaOf, mcpOperations, toolOf } from './tools-from-registry.js';

/**
 * `hub mcp serve`: MCP over this process's stdin and stdout until stdin ends. stdout carries protocol messages
 * only, so console output of any module is sent to stderr while the server runs.
 */
export async function serveMcpStdio(opts: HubMcpOptions): Promise<void> {
  const toStderr = (...args: unknown[]) => void process.stderr.write(`${format(...args)}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  await serveMcp({ ...opts, input: process.stdin, output: process.stdout });
}
