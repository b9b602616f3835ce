import { type CoordDeps, recordEvent } from '../coord/index.js';

/** The event kinds of this room (source `taskgraph`). */
export const TASK_EVENT_KINDS = [
  'TaskGraphCreated',
  'TaskNodeCreated',
  'TaskReady',
  'TaskStarted',
  'TaskCompleted',
  'TaskBlocked',
  'TaskCancelled',
  'TaskRequeued',
  'TaskBound',
] as const;
export type TaskEventKind = (typeof TASK_EVENT_KINDS)[number];

/**
 * Past this many nodes one write records one event for all of them (`node_ids` holds the first 100, `count`
 * all): the events document is appended one event at a time, and 10,000 appends for one expand would cost more
 * than the expand.
 */
export const PER_NODE_EVENT_LIMIT = 100;

/** Records one event of the task graph room; `subject` is the graph id. */
export async function recordTaskEvent(
  deps: CoordDeps,
  kind: TaskEventKind,
  graphId: string,
  data: Record<string, unknown>,
): Promise<void> {
  await recordEvent(
    deps.store,
    { source: 'taskgraph', kind, subject: graphId, data: { graph_id: graphId, ...data } },
    deps.now,
  );
}

/** One event per node, or one for all of them past PER_NODE_EVENT_LIMIT. */
export async function recordNodeEvents(
  deps: CoordDeps,
  kind: TaskEventKind,
  graphId: string,
  nodes: ReadonlyArray<{ node_id: string; title?: string }>,
  data: Record<string, unknown> = {},
): Promise<void> {
  if (nodes.length === 0) return;
  if (nodes.length > PER_NODE_EVENT_LIMIT) {
    await recordTaskEvent(deps, kind, graphId, {
      ...data,
      node_ids: nodes.slice(0, PER_NODE_EVENT_LIMIT).map((n) => n.node_id),
      count: nodes.length,
      truncated: true,
    });
    return;
  }
  for (const n of nodes)
    await recordTaskEvent(deps, kind, graphId, {
      node_id: n.node_id,
      ...(n.title === undefined ? {} : { title: n.title }),
      ...data,
    });
}
