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
} from '@modelcontextprotocol/sdk/types.js';
import { errorMapping } from '../../infra/index.js';
import {
  type AnyOperation,
  createContext,
  createStorePool,
  HUB_VERSION,
  invoke,
  loadOperation,
  loadOperations,
  TOOLSETS_ENABLE_TOOL,
  TOOLSETS_LIST_TOOL,
  workspaceMemo,
} from '../../ops/index.js';
import { DYNAMIC_TOOL_DEFS, listToolsets, toolsetArgument } from './dynamic-tools.js';
import { FramedStdioTransport } from './framing.js';
import { ensureActive, type GateStatus, gateLocation, readGate } from './gate.js';
import { selectTools, type ToolSelection } from './profiles.js';
import { checkRequestParams } from './request-params.js';
import { type ResourceEnv, TextBody } from './resource-env.js';
import { matchResource, RESOURCES } from './resources.js';
import { sessionStartPrompt } from './session-prompt.js';
import { loadToolTable, type ToolEntry } from './tool-table.js';

/** MCP: resource not found (the protocol's own code; hub errors inside a resource use the hub mapping). */
const RESOURCE_NOT_FOUND = -32002;
const SESSION_PROMPT = 'hub_session_start';

export interface HubMcpOptions {
  /** `--root`: the workspace directory (or a manifest file). */
  root: string;
  /** `--tools`: core, full (default), a toolset, or a comma list of profiles, toolsets and tool names. */
  tools?: string;
  /** `--dynamic`: also serve hub_toolsets_list and hub_toolsets_enable, which add toolsets at run time. */
  dynamic?: boolean;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Diagnostics (stderr); never protocol. */
  log: (line: string) => void;
  /** The tool table to serve from; default the build's table (dist/mcp-tools.json). */
  table?: readonly ToolEntry[];
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

/** The client's error for a tool this server does not serve now, saying how to get it. */
function unknownTool(
  name: string,
  known: ToolEntry | undefined,
  profile: string,
  dynamic: boolean,
): RpcError {
  const how = !known
    ? ''
    : dynamic
      ? ` (not served: it is in toolset '${known.toolset}'; call ${TOOLSETS_ENABLE_TOOL} with toolset '${known.toolset}')`
      : ` (profile '${profile}'; it is in toolset '${known.toolset}': restart the server with --tools ${known.toolset}, --tools full or --dynamic)`;
  return new RpcError(ErrorCode.InvalidParams, `unknown tool '${name}'${how}`, {
    code: 'not_found',
    message: `unknown tool '${name}'`,
    ...(known ? { details: { toolset: known.toolset } } : {}),
  });
}

function instructionsFor(gate: GateStatus, dynamic: boolean): string {
  const base =
    'hub: catalog and coordination of a multi-repository workspace. Start with hub_session_begin; map file ' +
    'paths with hub_component_resolve; record progress with hub_objective_upsert. Read hub://workspace/map to orient.' +
    (dynamic
      ? ` More tools come in toolsets: ${TOOLSETS_LIST_TOOL} lists them, ${TOOLSETS_ENABLE_TOOL} adds one.`
      : '');
  if (gate.active) return base;
  return `${base}\nThe gate is ${gate.state}: ${gate.message}. Fix: ${(gate.fix ?? []).join('; ')}. Until then only hub_version_check and hub_version_upgrade work.`;
}

/** The low-level MCP server of hub: every tool and resource handler, before a transport is connected. */
export function createHubMcpServer(opts: HubMcpOptions & { table: readonly ToolEntry[] }): {
  server: Server;
  selection: ToolSelection;
  gate: GateStatus;
  /** The names of the tools served now (grows as toolsets are enabled). */
  served: ReadonlySet<string>;
} {
  const { table } = opts;
  const selection = selectTools(table, opts.tools);
  const served = new Set(selection.entries.map((e) => e.tool.name));
  const dynamic = opts.dynamic === true;
  const loc = gateLocation(opts.root, opts.cwd);
  const gate = readGate(loc, opts.env);
  const byName = new Map(table.map((e) => [e.tool.name, e]));
  // Operations load on their first call (a module each), not at start-up: tools/list needs only the table.
  const loaded = new Map<string, Promise<AnyOperation>>();
  const operationOf = (e: ToolEntry) => {
    let op = loaded.get(e.id);
    if (!op) {
      op = loadOperation(e.module, e.id);
      loaded.set(e.id, op);
    }
    return op;
  };
  let allOps: Promise<AnyOperation[]> | undefined;
  const operations = () => {
    allOps ??= loadOperations();
    return allOps;
  };
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
  const serverFacts = () => ({
    name: 'hub',
    version: HUB_VERSION,
    profile: selection.profile,
    tools: served.size,
    ...(dynamic ? { dynamic: true } : {}),
  });
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
      capabilities: { tools: { listChanged: dynamic }, resources: { listChanged: false }, prompts: {} },
      instructions: instructionsFor(gate, dynamic),
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      ...table.filter((e) => served.has(e.tool.name)).map((e) => e.tool),
      ...(dynamic ? DYNAMIC_TOOL_DEFS : []),
    ],
  }));

  const asResult = (result: unknown): CallToolResult => {
    const text = JSON.stringify(result) ?? 'null';
    const structured = JSON.parse(text) as unknown;
    return {
      content: [{ type: 'text', text }],
      ...(structured && typeof structured === 'object' && !Array.isArray(structured)
        ? { structuredContent: structured as Record<string, unknown> }
        : {}),
    };
  };

  /** Adds a toolset's tools; tells the client its list changed when any tool was new. */
  const enable = async (args: Record<string, unknown> | undefined) => {
    const toolset = toolsetArgument(args);
    const added = table
      .filter((e) => e.toolset === toolset && !served.has(e.tool.name))
      .map((e) => e.tool.name);
    for (const name of added) served.add(name);
    if (added.length > 0) await server.sendToolListChanged();
    return { toolset, added, enabled: true, tools: served.size };
  };

  server.setRequestHandler(CallToolRequestSchema, async (req): Promise<CallToolResult> => {
    const name = req.params.name;
    if (dynamic && name === TOOLSETS_LIST_TOOL) return asResult(await listToolsets(table, served));
    if (dynamic && name === TOOLSETS_ENABLE_TOOL) {
      try {
        return asResult(await enable(req.params.arguments));
      } catch (err) {
        throw fail(name, err);
      }
    }
    const entry = served.has(name) ? byName.get(name) : undefined;
    if (!entry) throw unknownTool(name, byName.get(name), selection.profile, dynamic);
    try {
      const op = await operationOf(entry);
      const ctx = newContext();
      if (entry.gate === 'active') ensureActive(ctx, loc);
      return asResult(await invoke(op, ctx, req.params.arguments ?? {}));
    } catch (err) {
      throw fail(name, err);
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
      const env: ResourceEnv = {
        ctx,
        params: found.params,
        loc,
        ops: await operations(),
        server: serverFacts(),
      };
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
        ops: await operations(),
        server: serverFacts(),
      });
      return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: body.text } }] };
    } catch (err) {
      throw fail(SESSION_PROMPT, err);
    }
  });

  return { server, selection, gate, served };
}

/**
 * Serves MCP on a byte stream pair (stdin/stdout) until the input ends. Only protocol messages are written to
 * `output`; everything else goes to `log`.
 */
export async function serveMcp(
  opts: HubMcpOptions & { input: Readable; output: Writable },
): Promise<{ selection: ToolSelection; gate: GateStatus }> {
  const table = opts.table ?? (await loadToolTable());
  const { server, selection, gate } = createHubMcpServer({ ...opts, table });
  // Request params that break the protocol schema get -32602 with one line, not the SDK's -32603 and a dump.
  const transport = new FramedStdioTransport(opts.input, opts.output, { checkRequest: checkRequestParams });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  server.onerror = (err) => opts.log(`hub mcp: ${err.message}`);
  await server.connect(transport);
  opts.log(
    `hub mcp: serving ${selection.entries.length} tools (${selection.profile}${opts.dynamic ? ', dynamic' : ''}) and ${RESOURCES.length} resources; ` +
      `gate ${gate.state} at ${gate.manifest}`,
  );
  await closed;
  return { selection, gate };
}
