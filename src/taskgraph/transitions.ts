import type { CoordDeps } from '../coord/index.js';
import { ValidationError } from '../infra/index.js';
import { recordNodeEvents, recordTaskEvent, type TaskEventKind } from './events.js';
import { cancelledDependencies, dependenciesDone, nodesById, refreshReady } from './graph-check.js';
import { updateGraph } from './graph-store.js';
import { graphOfNode, type NodeRef, nodeIn, transitionRefused } from './locate.js';
import { type StoredGraph, TASK_LIMITS, type TaskNode, TERMINAL_STATUSES } from './schema.js';

/** What a transition did. */
export interface TransitionResult {
  graph_id: string;
  node: TaskNode;
  /** False when the node already stood where the transition leads (nothing written for it). */
  changed: boolean;
  /** Ids of nodes that became ready. */
  ready: string[];
  /** Set when the node was taken from another agent (start --force). */
  took_over?: string;
}

function checkReason(reason: string | undefined, field = 'reason'): void {
  if (reason !== undefined && reason.length > TASK_LIMITS.text_chars)
    throw new ValidationError(`${field}: ${reason.length} characters; at most ${TASK_LIMITS.text_chars}`, {
      field,
      value: reason.length,
      rule: 'text_chars',
    });
}

function refuseTerminal(node: TaskNode, verb: string): void {
  if (TERMINAL_STATUSES.includes(node.status))
    throw transitionRefused(node, 'terminal_status', `a ${node.status} node cannot be ${verb}`);
}

type Step = (node: TaskNode, g: StoredGraph, at: string) => { changed: boolean; took_over?: string };

/** Applies `step` to one node inside the graph's atomic update, then refreshes readiness. */
async function transition(
  deps: CoordDeps,
  ref: NodeRef,
  step: Step,
  event: { kind: TaskEventKind; data: (n: TaskNode, r: TransitionResult) => Record<string, unknown> },
): Promise<TransitionResult> {
  const graphId = await graphOfNode(deps, ref);
  const at = deps.now().toISOString();
  const r = await updateGraph(deps, graphId, (g): TransitionResult => {
    const node = nodeIn(g, ref.node_id);
    const { changed, took_over } = step(node, g, at);
    if (changed) {
      node.updated_at = at;
      g.graph.updated_at = at;
    }
    const ready = refreshReady(g.nodes, at);
    return {
      graph_id: graphId,
      node: { ...node },
      changed,
      ready,
      ...(took_over ? { took_over } : {}),
    };
  });
  if (r.changed)
    await recordTaskEvent(deps, event.kind, graphId, {
      node_id: r.node.node_id,
      title: r.node.title,
      ...(r.node.repository ? { repository: r.node.repository } : {}),
      ...event.data(r.node, r),
    });
  await recordNodeEvents(
    deps,
    'TaskReady',
    graphId,
    r.ready.map((node_id) => ({ node_id })),
  );
  return r;
}

/**
 * Moves a node to `running` for an agent: from ready; from pending (dependencies not complete) or blocked only
 * with `force`. Its own agent starting it again changes nothing; another agent's running or bound node is
 * refused (409, naming the holder) unless `force`, which takes it over. Pure on the stored graph.
 */
export function startInGraph(
  g: StoredGraph,
  node: TaskNode,
  agentId: string,
  at: string,
  force = false,
): { changed: boolean; took_over?: string } {
  refuseTerminal(node, 'started');
  const holder = node.status === 'running' ? node.agent_id : node.acl?.agent_id;
  if (holder !== undefined && holder !== agentId && !force)
    throw transitionRefused(
      node,
      node.status === 'running' ? 'running_elsewhere' : 'bound_to_other_agent',
      `agent ${holder} ${node.status === 'running' ? 'is working on it' : 'holds its branch, lease and worktree (bind-acl)'}; pass --force to take it over`,
      { holder: { agent_id: holder } },
    );
  if (node.status === 'running' && node.agent_id === agentId) return { changed: false };
  if (node.status === 'blocked' && !force)
    throw transitionRefused(
      node,
      'blocked',
      `blocked (${node.blocker_reason ?? 'no reason given'}); requeue it, or pass --force to start it anyway`,
    );
  if (node.status === 'pending' && !force) {
    const byId = nodesById(g.nodes);
    const open = node.depends_on.filter((d) => byId.get(d)?.status !== 'completed');
    const cancelled = cancelledDependencies(node, byId);
    throw transitionRefused(
      node,
      'dependencies_incomplete',
      `its dependencies ${open.join(', ')} are not completed${cancelled.length ? ` (${cancelled.join(', ')} cancelled)` : ''}; pass --force to start it anyway`,
      { waiting_on: open },
    );
  }
  const took_over = holder !== undefined && holder !== agentId ? holder : undefined;
  node.status = 'running';
  node.agent_id = agentId;
  node.started_at = at;
  delete node.blocker_reason;
  return { changed: true, ...(took_over ? { took_over } : {}) };
}

export function startNode(
  deps: CoordDeps,
  input: NodeRef & { agent_id: string; force?: boolean },
): Promise<TransitionResult> {
  return transition(deps, input, (node, g, at) => startInGraph(g, node, input.agent_id, at, input.force), {
    kind: 'TaskStarted',
    data: (n, r) => ({ agent_id: n.agent_id, ...(r.took_over ? { took_over: r.took_over } : {}) }),
  });
}

/**
 * Completes a node: from running or ready; pending or blocked only with `force`. A running node of another agent
 * is refused unless `force`. Dependants whose dependencies are now all completed become ready (TaskReady each).
 */
export function completeNode(
  deps: CoordDeps,
  input: NodeRef & { agent_id?: string; force?: boolean },
): Promise<TransitionResult> {
  const step: Step = (node, g) => {
    if (node.status === 'completed') return { changed: false };
    refuseTerminal(node, 'completed');
    const force = input.force === true;
    if (
      node.status === 'running' &&
      input.agent_id &&
      node.agent_id &&
      node.agent_id !== input.agent_id &&
      !force
    )
      throw transitionRefused(
        node,
        'running_elsewhere',
        `agent ${node.agent_id} is working on it; pass --force to complete it anyway`,
        { holder: { agent_id: node.agent_id } },
      );
    if (node.status === 'blocked' && !force)
      throw transitionRefused(
        node,
        'blocked',
        `blocked (${node.blocker_reason ?? 'no reason given'}); pass --force to complete it anyway`,
      );
    if (node.status === 'pending' && !force && !dependenciesDone(node, nodesById(g.nodes)))
      throw transitionRefused(
        node,
        'dependencies_incomplete',
        'its dependencies are not completed; pass --force to complete it anyway',
      );
    node.status = 'completed';
    return { changed: true };
  };
  return transition(
    deps,
    input,
    (node, g, at) => {
      const r = step(node, g, at);
      if (r.changed) node.completed_at = at;
      return r;
    },
    {
      kind: 'TaskCompleted',
      data: (n) => ({
        ...((input.agent_id ?? n.agent_id) ? { agent_id: input.agent_id ?? n.agent_id } : {}),
      }),
    },
  );
}

/** Blocks a node (pending, ready or running) with a reason; a blocked node gets the new reason. */
export function blockNode(
  deps: CoordDeps,
  input: NodeRef & { reason: string; agent_id?: string },
): Promise<TransitionResult> {
  checkReason(input.reason);
  if (input.reason.trim() === '')
    throw new ValidationError('reason: say why the node is blocked', { field: 'reason', rule: 'non_empty' });
  return transition(
    deps,
    input,
    (node) => {
      refuseTerminal(node, 'blocked');
      if (node.status === 'blocked' && node.blocker_reason === input.reason) return { changed: false };
      node.status = 'blocked';
      node.blocker_reason = input.reason;
      return { changed: true };
    },
    {
      kind: 'TaskBlocked',
      data: () => ({ reason: input.reason, ...(input.agent_id ? { agent_id: input.agent_id } : {}) }),
    },
  );
}

/**
 * Cancels a node that is not completed. Its dependants stay pending: a cancelled dependency is not a completed
 * one (task status lists them as stalled).
 */
export function cancelNode(
  deps: CoordDeps,
  input: NodeRef & { reason?: string; agent_id?: string },
): Promise<TransitionResult> {
  checkReason(input.reason);
  return transition(
    deps,
    input,
    (node) => {
      if (node.status === 'cancelled') return { changed: false };
      refuseTerminal(node, 'cancelled');
      node.status = 'cancelled';
      if (input.reason) node.cancel_reason = input.reason;
      return { changed: true };
    },
    {
      kind: 'TaskCancelled',
      data: () => ({
        ...(input.reason ? { reason: input.reason } : {}),
        ...(input.agent_id ? { agent_id: input.agent_id } : {}),
      }),
    },
  );
}

/**
 * Puts a running (or blocked) node back: ready when its dependencies are completed, else pending. Clears its
 * agent and moves its ACL holdings to `previous_acl` (what the agent held, for whoever recovers them), so
 * another agent can bind and start it. Used when the agent died (`aos recover`). Event TaskRequeued.
 */
export function requeueNode(deps: CoordDeps, input: NodeRef & { reason: string }): Promise<TransitionResult> {
  checkReason(input.reason);
  let previous: string | undefined;
  return transition(
    deps,
    input,
    (node, g) => {
      refuseTerminal(node, 'requeued');
      if (node.status !== 'running' && node.status !== 'blocked') return { changed: false };
      previous = node.agent_id;
      node.status = dependenciesDone(node, nodesById(g.nodes)) ? 'ready' : 'pending';
      delete node.agent_id;
      delete node.blocker_reason;
      delete node.started_at;
      if (node.acl) {
        node.previous_acl = node.acl;
        delete node.acl;
      }
      return { changed: true };
    },
    {
      kind: 'TaskRequeued',
      data: (n) => ({
        reason: input.reason,
        status: n.status,
        ...(previous ? { previous_agent_id: previous } : {}),
      }),
    },
  );
}
