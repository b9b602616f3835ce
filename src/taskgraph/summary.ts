import type { CoordDeps } from '../coord/index.js';
import { cancelledDependencies, nodesById } from './graph-check.js';
import { readAllGraphs, readGraph } from './graph-store.js';
import { graphOfNode, type NodeRef, nodeIn } from './locate.js';
import { type StoredGraph, TASK_STATUSES, type TaskGraph, type TaskNode, type TaskStatus } from './schema.js';

export type StatusCounts = Record<TaskStatus, number> & { total: number };

const emptyCounts = (): StatusCounts =>
  Object.assign(Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>, {
    total: 0,
  });

function countNodes(nodes: readonly TaskNode[], into = emptyCounts()): StatusCounts {
  for (const n of nodes) {
    into[n.status]++;
    into.total++;
  }
  return into;
}

/** Nodes by status over every graph: `{pending, ready, blocked, running, completed, cancelled, total}`. */
export async function taskSummary(deps: CoordDeps): Promise<StatusCounts> {
  const counts = emptyCounts();
  for (const g of await readAllGraphs(deps)) countNodes(g.nodes, counts);
  return counts;
}

export interface NodeFilter {
  graph_id?: string;
  status?: TaskStatus;
  agent_id?: string;
  repository?: string;
}

const matches = (n: TaskNode, f: NodeFilter) =>
  (f.status === undefined || n.status === f.status) &&
  (f.agent_id === undefined || n.agent_id === f.agent_id) &&
  (f.repository === undefined || n.repository === f.repository);

async function graphsOf(deps: CoordDeps, graphId?: string): Promise<StoredGraph[]> {
  return graphId === undefined ? readAllGraphs(deps) : [await readGraph(deps, graphId)];
}

/** Nodes of one graph or of all, filtered; graph order, then node order (a pure read). */
export async function listNodes(deps: CoordDeps, filter: NodeFilter = {}): Promise<TaskNode[]> {
  const out: TaskNode[] = [];
  for (const g of await graphsOf(deps, filter.graph_id))
    for (const n of g.nodes) if (matches(n, filter)) out.push(n);
  return out;
}

/** The graphs with their counts (for `task list` without a graph). */
export async function listGraphs(deps: CoordDeps): Promise<Array<TaskGraph & { counts: StatusCounts }>> {
  return (await readAllGraphs(deps)).map((g) => ({ ...g.graph, counts: countNodes(g.nodes) }));
}

export interface NodeStatus {
  graph: TaskGraph;
  node: TaskNode;
  /** Its dependencies with where each stands. */
  dependencies: Array<{ node_id: string; title: string; status: TaskStatus }>;
  /** Nodes that depend on it. */
  dependants: Array<{ node_id: string; title: string; status: TaskStatus }>;
  /** Dependencies not completed yet. */
  waiting_on: string[];
  /** Cancelled dependencies: the node stays pending until someone decides (cancel it, or complete with force). */
  stalled_by: string[];
}

/** One node with its neighbours (a pure read). */
export async function nodeStatus(deps: CoordDeps, ref: NodeRef): Promise<NodeStatus> {
  const g = await readGraph(deps, await graphOfNode(deps, ref));
  const node = nodeIn(g, ref.node_id);
  const byId = nodesById(g.nodes);
  const brief = (n: TaskNode) => ({ node_id: n.node_id, title: n.title, status: n.status });
  return {
    graph: g.graph,
    node,
    dependencies: node.depends_on.flatMap((d) => {
      const n = byId.get(d);
      return n ? [brief(n)] : [];
    }),
    dependants: g.nodes.filter((n) => n.depends_on.includes(node.node_id)).map(brief),
    waiting_on: node.depends_on.filter((d) => byId.get(d)?.status !== 'completed'),
    stalled_by: cancelledDependencies(node, byId),
  };
}

export interface GraphStatus {
  graph: TaskGraph;
  counts: StatusCounts;
  /** Ready node ids, in graph order (at most 100). */
  ready: string[];
  /** Pending nodes with a cancelled dependency (at most 100), and which. */
  stalled: Array<{ node_id: string; cancelled: string[] }>;
  blocked: Array<{ node_id: string; reason: string | null }>;
  running: Array<{ node_id: string; agent_id: string | null }>;
}

const SHOWN = 100;

/** One graph at a glance (a pure read). */
export async function graphStatus(deps: CoordDeps, graphId: string): Promise<GraphStatus> {
  const g = await readGraph(deps, graphId);
  const byId = nodesById(g.nodes);
  const stalled: GraphStatus['stalled'] = [];
  for (const n of g.nodes) {
    if (n.status !== 'pending' || stalled.length >= SHOWN) continue;
    const cancelled = cancelledDependencies(n, byId);
    if (cancelled.length) stalled.push({ node_id: n.node_id, cancelled });
  }
  const of = (s: TaskStatus) => g.nodes.filter((n) => n.status === s).slice(0, SHOWN);
  return {
    graph: g.graph,
    counts: countNodes(g.nodes),
    ready: of('ready').map((n) => n.node_id),
    stalled,
    blocked: of('blocked').map((n) => ({ node_id: n.node_id, reason: n.blocker_reason ?? null })),
    running: of('running').map((n) => ({ node_id: n.node_id, agent_id: n.agent_id ?? null })),
  };
}
