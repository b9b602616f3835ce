import type { Readable, Writable } from 'node:stream';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { errorMapping } from '../../infra/index.js';
import {
  type AnyOperation,
  createContext,
  createStorePool,
  HUB_VERSION,
  invoke,
  loadOperations,
  workspaceMemo,
} from '../../ops/index.js';
import { FramedStdioTransport } from './framing.js';
import { ensureActive, type GateStatus, gateLocation, readGate } from './gate.js';
import { selectTools, type ToolSelection, toolList } from './profiles.js';
import { checkRequestParams } from './request-params.js';
import { type ResourceEnv, TextBody } from './resource-env.js';
import { matchResource, RESOURCES } from './resources.js';
import { sessionStartPrompt } from './session-prompt.js';

/** MCP: resource not found (the protocol's own code; hub errors inside a resource use the hub mapping). */
const RESOURCE_NOT_FOUND = -32002;
const SESSION_PROMPT = 'hub_session_start';

export interface HubMcpOptions {
  /** `--root`: the workspace directory (or a manifest file). */
  root: string;
  /** `--tools`: core, full (default) or a comma list. */
  tools?: string;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Diagnostics (stderr); never protocol. */
  log: (line: string) => void;
  /** The registry to serve (tests may pass a subset); default every operation. */
  ops?: readonly AnyOperation[];
}

/**
 * A JSON-RPC error as the SDK sends it (`code`, `message`, `data`). Unlike McpError it keeps the message as given:
 * McpError prefixes "MCP error <code>:", and the client's McpError adds that prefix once more.
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** A hub error as the JSON-RPC error the spec's table names; the hub code and details travel in `data`. */
export function toMcpError(err: unknown): Error {
  if (err instanceof RpcError || err instanceof McpError) return err;
  const m = errorMapping(err);
  return new RpcError(m.jsonRpc, m.body.error.message, m.body.error);
}

function instructionsFor(gate: GateStatus): string {
  const base =
    'hub: catalog and coordination of a multi-repository workspace. Start with hub_session_begin; map file ' +
    'paths with hub_component_resolve; record progress with hub_objective_upsert. Read hub://workspace/map to orient.';
  if (gate.active) return base;
  return `${base}\nThe gate is ${gate.state}: ${gate.message}. Fix: ${(gate.fix ?? []).join('; ')}. Until then only hub_version_check and hub_version_upgrade work.`;
}

/** The low-level MCP server of hub: every tool and resource handler, before a transport is connected. */
export function createHubMcpServer(opts: HubMcpOptions & { ops: readonly AnyOperation[] }): {
  server: Server;
  selection: ToolSelection;
  gate: GateStatus;
} {
  const { ops } = opts;
  const selection = selectTools(ops, opts.tools);
  const loc = gateLocation(opts.root, opts.cwd);
  const gate = readGate(loc, opts.env);
  const byName = new Map(selection.ops.map((op) => [op.mcp!.tool, op]));
  // One store per server process (a memory store keeps its documents from one tool call to the next).
  const stores = createStorePool();
  const newContext = workspaceMemo(
    () =>
      createContext({
        cwd: loc.root,
        surface: 'mcp',
        env: opts.env,
        definition: loc.manifest,
        log: opts.log,
        stores,
      }),
    loc.manifest,
  );
  const serverFacts = { name: 'hub', version: HUB_VERSION, profile: selection.profile, tools: byName.size };
  // An internal error reaches the client as its message only; its stack goes to stderr for whoever runs the server.
  const fail = (what: string, err: unknown): Error => {
    const e = toMcpError(err);
    if ((e as RpcError).code === ErrorCode.InternalError)
      opts.log(`hub mcp: ${what}: ${(err as Error)?.stack ?? String(err)}`);
    return e;
  };

  const server = new Server(
    { name: 'hub', title: 'hub', version: HUB_VERSION },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: {} },
      instructions: instructionsFor(gate),
    },
  );

  let tools: Tool[] | undefined;
  server.setRequestHandler(ListToolsRequestSchema, () => {
    tools ??= toolList(selection.ops).tools;
    return { tools };
  });

  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const op = byName.get(req.params.name);
    if (!op) {
      const hint =
        selection.profile === 'full' ? '' : ` (profile '${selection.profile}'; restart with --tools full)`;
      throw new RpcError(ErrorCode.InvalidParams, `unknown tool '${req.params.name}'${hint}`, {
        code: 'not_found',
        message: `unknown tool '${req.params.name}'`,
      });
    }
    try {
      const ctx = newContext();
      if (op.gate === 'active') ensureActive(ctx, loc);
      const result = await invoke(op, ctx, req.params.arguments ?? {});
      const text = JSON.stringify(result) ?? 'null';
      const structured = JSON.parse(text) as unknown;
      return {
        content: [{ type: 'text', text }],
        ...(structured && typeof structured === 'object' && !Array.isArray(structured)
          ? { structuredContent: structured as Record<string, unknown> }
          : {}),
      };
    } catch (err) {
      throw fail(req.params.name, err);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: RESOURCES.map((r) => ({
      uri: r.uri,
      name: r.name,
      description: r.description,
      mimeType: r.mimeType,
    })),
  }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: RESOURCES.filter((r) => r.template).map((r) => ({
      uriTemplate: r.template!,
      name: r.name,
      description: r.description,
      mimeType: r.mimeType,
    })),
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const { uri } = req.params;
    try {
      const found = matchResource(uri);
      if (!found) throw new RpcError(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
      const ctx = newContext();
      if (found.def.active) ensureActive(ctx, loc);
      const env: ResourceEnv = { ctx, params: found.params, loc, ops, server: serverFacts };
      const body = await found.def.read(env);
      const content =
        body instanceof TextBody
          ? { uri, mimeType: body.mimeType, text: body.text }
          : { uri, mimeType: 'application/json', text: JSON.stringify(body) };
      return { contents: [content] };
    } catch (err) {
      throw fail(uri, err);
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [
      {
        name: SESSION_PROMPT,
        description: 'How to start a work session here (also hub://session/start-prompt).',
      },
    ],
  }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    if (req.params.name !== SESSION_PROMPT)
      throw new RpcError(ErrorCode.InvalidParams, `unknown prompt '${req.params.name}'`);
    try {
      const ctx = newContext();
      ensureActive(ctx, loc);
      const body = await sessionStartPrompt({
        ctx,
        params: new URLSearchParams(),
        loc,
        ops,
        server: serverFacts,
      });
      return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: body.text } }] };
    } catch (err) {
      throw fail(SESSION_PROMPT, err);
    }
  });

  return { server, selection, gate };
}

/**
 * Serves MCP on a byte stream pair (stdin/stdout) until the input ends. Only protocol messages are written to
 * `output`; everything else goes to `log`.
 */
export async function serveMcp(
  opts: HubMcpOptions & { input: Readable; output: Writable },
): Promise<{ selection: ToolSelection; gate: GateStatus }> {
  const ops = opts.ops ?? (await loadOperations());
  const { server, selection, gate } = createHubMcpServer({ ...opts, ops });
  // Request params that break the protocol schema get -32602 with one line, not the SDK's -32603 and a dump.
  const transport = new FramedStdioTransport(opts.input, opts.output, { checkRequest: checkRequestParams });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  server.onerror = (err) => opts.log(`hub mcp: ${err.message}`);
  await server.connect(transport);
  opts.log(
    `hub mcp: serving ${selection.ops.length} tools (${selection.profile}) and ${RESOURCES.length} resources; ` +
      `gate ${gate.state} at ${gate.manifest}`,
  );
  await closed;
  return { selection, gate };
}
