import { type CoordDeps, updateDoc } from '../coord/index.js';
import { sha256Hex } from '../infra/index.js';
import { recordTaskEvent } from './events.js';
import { readGraph, updateGraphFromClient } from './graph-store.js';
import { graphOfNode, type NodeRef, nodeIn, transitionRefused } from './locate.js';
import {
  type CompiledContext,
  contextDocument,
  type StoredGraph,
  type TaskAcl,
  TaskContextDocSchema,
  type TaskNode,
  TERMINAL_STATUSES,
} from './schema.js';

/**
 * Refuses binding a node an agent may not take: completed or cancelled, running under another agent, or bound
 * already to another agent (409, naming the holder). Returns the node's own binding when this agent has one.
 */
export function checkBindable(node: TaskNode, agentId: string): TaskAcl | undefined {
  if (TERMINAL_STATUSES.includes(node.status))
    throw transitionRefused(node, 'terminal_status', `a ${node.status} node is not bound to an agent`);
  const holder = node.acl?.agent_id ?? (node.status === 'running' ? node.agent_id : undefined);
  if (holder !== undefined && holder !== agentId)
    throw transitionRefused(
      node,
      'bound_to_other_agent',
      `agent ${holder} holds it; it is requeued when that agent is gone (aos recover)`,
      { holder: { agent_id: holder, ...(node.acl ?? {}) } },
    );
  return node.acl?.agent_id === agentId ? node.acl : undefined;
}

/** A node and its graph, read for bind-acl or context compile (graph found as graphOfNode finds it). */
export async function readNode(
  deps: CoordDeps,
  ref: NodeRef,
): Promise<{ graph: StoredGraph['graph']; node: TaskNode }> {
  const g = await readGraph(deps, await graphOfNode(deps, ref));
  return { graph: g.graph, node: nodeIn(g, ref.node_id) };
}

/**
 * Records what bind-acl took on the node (and the agent), re-checking inside the atomic update that no other
 * agent took the node meanwhile; the caller releases the holdings when this throws. Event TaskBound.
 */
export async function recordBinding(
  deps: CoordDeps,
  input: { graph_id: string; node_id: string; agent_id: string; acl: TaskAcl },
): Promise<TaskNode> {
  const at = deps.now().toISOString();
  const node = await updateGraphFromClient(deps, input.graph_id, (g) => {
    const n = nodeIn(g, input.node_id);
    checkBindable(n, input.agent_id);
    n.acl = { ...input.acl, agent_id: input.agent_id, bound_at: at };
    n.agent_id = input.agent_id;
    n.updated_at = at;
    g.graph.updated_at = at;
    return { ...n };
  });
  await recordTaskEvent(deps, 'TaskBound', input.graph_id, {
    node_id: input.node_id,
    title: node.title,
    agent_id: input.agent_id,
    ...(node.repository ? { repository: node.repository } : {}),
    branch: input.acl.branch,
    lease_id: input.acl.lease_id,
    worktree_id: input.acl.worktree_id,
    claim_ids: input.acl.claim_ids,
  });
  return node;
}

/**
 * Records a pack compiled for a node: the pack in its own document (`task-contexts/<graph>~<node>`, replaced by
 * each compile), and on the node a small summary (time, tokens, SHA-256 of the pack's JSON, the document name).
 */
export async function recordCompiledContext(
  deps: CoordDeps,
  input: {
    graph_id: string;
    node_id: string;
    pack: unknown;
    estimated_tokens: number;
    tier: number;
    budget: number | null;
  },
): Promise<CompiledContext> {
  const compiled_at = deps.now().toISOString();
  const document = contextDocument(input.graph_id, input.node_id);
  const digest = sha256Hex(JSON.stringify(input.pack));
  const summary: CompiledContext = {
    compiled_at,
    estimated_tokens: input.estimated_tokens,
    digest,
    document,
    tier: input.tier,
    budget: input.budget,
  };
  await updateDoc(deps, document, TaskContextDocSchema, (doc) => {
    Object.assign(doc, {
      graph_id: input.graph_id,
      node_id: input.node_id,
      compiled_at,
      estimated_tokens: input.estimated_tokens,
      digest,
      pack: input.pack,
    });
  });
  await updateGraphFromClient(deps, input.graph_id, (g) => {
    const n = nodeIn(g, input.node_id);
    n.compiled_context = summary;
    n.updated_at = compiled_at;
  });
  return summary;
}
