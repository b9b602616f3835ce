import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { HUB_BIN } from './run-hub.js';

/** The environment every spawned server gets: no manifest cache, no network for the version tools. */
export function serverEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return { ...env, HUB_CACHE_DIR: 'off', HUB_OFFLINE: '1', HUB_AGENT_MODE: '', ...extra };
}

/** Spawns `node bin/hub mcp serve --root <root> ...args` and connects the SDK's own client to it. */
export async function connectHub(
  root: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [HUB_BIN, 'mcp', 'serve', '--root', root, ...args],
    env: serverEnv(env),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'hub-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its JSON result (the text content, checked against structuredContent). */
export async function callJson(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = await client.callTool({ name, arguments: args });
  expect(r.isError, `${name} isError`).toBeFalsy();
  const content = r.content as Array<{ type: string; text: string }>;
  expect(content[0]?.type).toBe('text');
  const value = JSON.parse(content[0]!.text);
  if (value && typeof value === 'object' && !Array.isArray(value)) expect(r.structuredContent).toEqual(value);
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the tool returned.
  return value as any;
}

/** Awaits a call that must fail with a JSON-RPC error; returns it. */
export async function rpcError(promise: Promise<unknown>, code: number): Promise<McpError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(McpError);
    expect((err as McpError).code, (err as Error).message).toBe(code);
    return err as McpError;
  }
  throw new Error(`expected JSON-RPC error ${code}, the call succeeded`);
}

/** Reads one resource as text. */
export async function readText(client: Client, uri: string): Promise<{ text: string; mimeType?: string }> {
  const r = await client.readResource({ uri });
  const c = r.contents[0] as { text: string; mimeType?: string };
  return { text: c.text, mimeType: c.mimeType };
}
