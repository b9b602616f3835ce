import * as z from 'zod';
import { checkAgentId, touchAgent } from '../acl/index.js';
import type { CoordDeps } from '../coord/index.js';
import {
  blockNode,
  cancelNode,
  completeNode,
  requeueNode,
  startNode,
  type TransitionResult,
} from '../taskgraph/index.js';
import { applyWhereStored } from './apply-where-stored.js';
import type { OpContext } from './context.js';
import { defineOp, type HttpBinding, WRITES } from './registry.js';
import { taskFields } from './task-input.js';

const route = (verb: string): HttpBinding => ({
  method: 'POST',
  route: `/v3/ops/tasks/${verb}`,
  input: 'body',
});
const START_ROUTE = route('start');
const COMPLETE_ROUTE = route('complete');
const BLOCK_ROUTE = route('block');
const CANCEL_ROUTE = route('cancel');
const REQUEUE_ROUTE = route('requeue');

const nodeRef = { graph_id: taskFields.graph_ref, node_id: taskFields.node_id };
const actingAgent = taskFields.agent_id.optional();

/**
 * Runs a transition where the graph is kept (a hub server's route on the http backend), after checking the agent
 * id here; an agent that acts is touched in the agents registry (it is alive).
 */
function applyTransition(
  ctx: OpContext,
  binding: HttpBinding,
  input: Record<string, unknown> & { agent_id?: string },
  run: (deps: CoordDeps) => Promise<TransitionResult>,
): Promise<TransitionResult> {
  if (input.agent_id !== undefined) checkAgentId(input.agent_id);
  return applyWhereStored(ctx, binding, input, async (deps) => {
    const r = await run(deps);
    if (input.agent_id !== undefined) await touchAgent(deps, input.agent_id);
    return r;
  });
}

const line = (verb: string, r: TransitionResult) => {
  const n = r.node;
  const head = r.changed
    ? `${verb} ${n.graph_id}/${n.node_id}`
    : `${n.graph_id}/${n.node_id} already ${n.status}`;
  const who = n.agent_id ? ` (agent ${n.agent_id})` : '';
  const ready = r.ready.length ? `\nnow ready: ${r.ready.join(', ')}` : '';
  return `${head} [${n.status}]${who}: ${n.title}${ready}`;
};

export const taskStart = defineOp({
  id: 'task.start',
  summary: 'Start a ready node for an agent; unmet dependencies need `force`.',
  description:
    'A blocked node, or a node running under (or bound to) another agent, is refused (409, naming the holder) ' +
    'unless --force, which takes it over. Starting your own running node again changes nothing. Event TaskStarted.',
  input: z.strictObject({ ...nodeRef, agent_id: taskFields.agent_id, force: taskFields.force }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<TransitionResult> =>
    applyTransition(ctx, START_ROUTE, input, (deps) => startNode(deps, input)),
  cli: { command: 'task start', human: (r) => line('started', r) },
  mcp: { tool: 'hub_task_start', when: 'Use when beginning a node.' },
  http: [START_ROUTE],
});

export const taskComplete = defineOp({
  id: 'task.complete',
  summary: 'Complete a running or ready node; dependants with every dependency completed become ready.',
  description:
    'A pending or blocked node, or one running under another agent than --agent-id, needs --force. Events ' +
    'TaskCompleted, and TaskReady for each dependant that became ready.',
  input: z.strictObject({ ...nodeRef, agent_id: actingAgent, force: taskFields.force }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<TransitionResult> =>
    applyTransition(ctx, COMPLETE_ROUTE, input, (deps) => completeNode(deps, input)),
  cli: { command: 'task complete', human: (r) => line('completed', r) },
  mcp: { tool: 'hub_task_complete', when: "Use when a node's work is done." },
  http: [COMPLETE_ROUTE],
});

export const taskBlock = defineOp({
  id: 'task.block',
  summary: 'Block a pending, ready or running node with a reason.',
  input: z.strictObject({ ...nodeRef, reason: taskFields.reason, agent_id: actingAgent }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<TransitionResult> =>
    applyTransition(ctx, BLOCK_ROUTE, input, (deps) => blockNode(deps, input)),
  cli: { command: 'task block', human: (r) => `${line('blocked', r)}\nreason: ${r.node.blocker_reason}` },
  mcp: { tool: 'hub_task_block', when: 'Use when a node cannot go on for now.' },
  http: [BLOCK_ROUTE],
});

export const taskCancel = defineOp({
  id: 'task.cancel',
  summary: 'Cancel a node not completed; its dependants stay pending until someone decides.',
  input: z.strictObject({ ...nodeRef, reason: taskFields.reason.optional(), agent_id: actingAgent }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<TransitionResult> =>
    applyTransition(ctx, CANCEL_ROUTE, input, (deps) => cancelNode(deps, input)),
  cli: { command: 'task cancel', human: (r) => line('cancelled', r) },
  mcp: { tool: 'hub_task_cancel', when: 'Use when a node should not be done.' },
  http: [CANCEL_ROUTE],
});

export const taskRequeue = defineOp({
  id: 'task.requeue',
  summary: 'Put a running or blocked node back (ready or pending), clearing its agent and bindings.',
  description:
    'For an agent that died or gave up: the node can be scheduled, bound and started by another agent. What it ' +
    'held (branch, lease, worktree, claims) moves to previous_acl; release it with aos recover. Event TaskRequeued.',
  input: z.strictObject({ ...nodeRef, reason: taskFields.reason }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<TransitionResult> =>
    applyTransition(ctx, REQUEUE_ROUTE, input, (deps) => requeueNode(deps, input)),
  cli: { command: 'task requeue', human: (r) => line('requeued', r) },
  mcp: { tool: 'hub_task_requeue', when: 'Use when a node must be redone.' },
  http: [REQUEUE_ROUTE],
});
