import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import type { AnyOperation } from '../../ops/index.js';

/**
 * When an agent should reach for a tool, in a few words. The operation summary says what it does; this says
 * when, which is what a model needs to pick among many tools. A tool without a line here serves its summary alone.
 */
const WHEN: Record<string, string> = {
  hub_component_list: 'Use to see which components exist.',
  hub_component_show: 'Use when you know a component name and need its directory and dependencies.',
  hub_component_resolve: 'Use first when you hold a file path and need the component that owns it.',
  hub_component_graph: 'Use before changing a component, to see what it affects.',
  hub_component_detect: 'Use to find uncatalogued components.',
  hub_component_init: 'Use to catalog one directory as a component.',
  hub_repo_search: 'Use to find a repository or component by name, tag or description.',
  hub_workspace_repos_list: 'Use to page through repositories.',
  hub_session_begin: 'Call once when you start working.',
  hub_session_digest: 'Use to see recent changes without starting a session.',
  hub_session_update: 'Use to record what this session works on.',
  hub_objective_upsert: 'Use to record progress on your objective.',
  hub_objective_edit: 'Use to change one field of an objective.',
  hub_objective_list: 'Use to see all objectives.',
  hub_context_resume: 'Use at the start to pick up where work stopped.',
  hub_handoff_create: 'Use to hand unfinished work to another agent.',
  hub_handoff_list: 'Use to find work handed over to you.',
  hub_handoff_claim: 'Use before working on a handoff.',
  hub_handoff_complete: 'Use when a claimed handoff is done.',
  hub_approval_request: 'Use before an action that needs a human yes.',
  hub_approval_list: 'Use to see which approvals are waiting.',
  hub_approval_resolve: 'Only when a person told you their decision.',
  hub_events:
    'Use to follow what other agents did; pass next_seq back as after_seq (or next_cursor as since).',
  hub_graph_neighbors:
    'Use to see which repositories one repository depends on or is needed by (declared and from package files).',
  hub_merge_cancel: 'Use when a request should not land, or cannot proceed and holds up the queue.',
  hub_version_check: 'Works without a manifest.',
  hub_version_upgrade: 'Works without a manifest.',
};

/** JSON Schema keywords zod emits that tell a model nothing (they only cost tokens). */
function prune(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(prune);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (k === '$schema') continue;
    if (
      (k === 'maximum' && v === Number.MAX_SAFE_INTEGER) ||
      (k === 'minimum' && v === Number.MIN_SAFE_INTEGER)
    )
      continue;
    if (k === 'propertyNames' && JSON.stringify(v) === '{"type":"string"}') continue;
    if (k === 'additionalProperties' && v && typeof v === 'object' && Object.keys(v).length === 0) continue;
    out[k] = prune(v);
  }
  return out;
}

/** The input JSON Schema of an operation, as an MCP client sees it. */
export function inputSchemaOf(op: AnyOperation): Tool['inputSchema'] {
  const schema = prune(z.toJSONSchema(op.input, { io: 'input' })) as Tool['inputSchema'];
  return { ...schema, type: 'object' };
}

/** The MCP tool of one operation: name, short description, input schema and behaviour hints. */
export function toolOf(op: AnyOperation): Tool {
  const name = op.mcp!.tool;
  const when = WHEN[name];
  return {
    name,
    description: when ? `${op.summary} ${when}` : op.summary,
    inputSchema: inputSchemaOf(op),
    annotations: {
      readOnlyHint: op.attributes.readOnly,
      idempotentHint: op.attributes.idempotent,
      destructiveHint: op.attributes.destructive,
    },
  };
}

/** Operations that have an MCP binding, in registry order. */
export function mcpOperations(ops: readonly AnyOperation[]): AnyOperation[] {
  return ops.filter((op) => op.mcp);
}
