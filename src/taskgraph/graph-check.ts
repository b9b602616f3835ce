import { didYouMean, suggestionText } from '../catalog/index.js';
import { NotFoundError, ValidationError } from '../infra/index.js';
import { TASK_LIMITS, type TaskNode } from './schema.js';

type Edges = Pick<TaskNode, 'node_id' | 'depends_on'>;

/**
 * The first dependency cycle, as node ids in dependency order with the first repeated at the end
 * (`a -> b -> a`: a depends on b, b on a), or null. An iterative depth-first walk with an explicit stack, so a
 * chain of 10,000 nodes cannot overflow the call stack; O(nodes + edges). Unknown ids are skipped (checked apart).
 */
export function findCycle(nodes: readonly Edges[]): string[] | null {
  const index = new Map<string, number>();
  nodes.forEach((n, i) => {
    index.set(n.node_id, i);
  });
  // 0 unvisited, 1 on the current path, 2 done.
  const color = new Uint8Array(nodes.length);
  const pathPos = new Int32Array(nodes.length).fill(-1);
  const stackNode: number[] = [];
  const stackEdge: number[] = [];
  for (let start = 0; start < nodes.length; start++) {
    if (color[start] !== 0) continue;
    stackNode.push(start);
    stackEdge.push(0);
    color[start] = 1;
    pathPos[start] = 0;
    while (stackNode.length > 0) {
      const top = stackNode.length - 1;
      const at = stackNode[top]!;
      const deps = nodes[at]!.depends_on;
      const e = stackEdge[top]!;
      if (e >= deps.length) {
        color[at] = 2;
        pathPos[at] = -1;
        stackNode.pop();
        stackEdge.pop();
        continue;
      }
      stackEdge[top] = e + 1;
      const next = index.get(deps[e]!);
      if (next === undefined || color[next] === 2) continue;
      if (color[next] === 1) {
        const cycle = stackNode.slice(pathPos[next]!).map((i) => nodes[i]!.node_id);
        cycle.push(nodes[next]!.node_id);
        return cycle;
      }
      color[next] = 1;
      pathPos[next] = stackNode.length;
      stackNode.push(next);
      stackEdge.push(0);
    }
  }
  return null;
}

/** Refuses a cycle, naming its nodes in order. */
export function checkAcyclic(nodes: readonly Edges[]): void {
  const cycle = findCycle(nodes);
  if (!cycle) return;
  throw new ValidationError(
    cycle.length === 2
      ? `depends_on: node '${cycle[0]}' depends on itself`
      : `depends_on: dependency cycle ${cycle.join(' -> ')} (each depends on the next)`,
    { field: 'depends_on', value: cycle[0], rule: 'acyclic', cycle },
  );
}

/** Refuses a dependency on an id the graph does not have, suggesting close ids. */
export function checkKnownDependencies(nodes: readonly Edges[], graphId: string): void {
  const ids = new Set(nodes.map((n) => n.node_id));
  for (const n of nodes)
    for (const d of n.depends_on) {
      if (ids.has(d)) continue;
      const suggestions = didYouMean(d, ids);
      throw new NotFoundError(
        `depends_on: node '${n.node_id}' depends on '${d}', which graph ${graphId} does not have${suggestionText(suggestions)}`,
        {
          field: 'depends_on',
          value: d,
          rule: 'known_node',
          node_id: n.node_id,
          graph_id: graphId,
          suggestions,
        },
      );
    }
}

/** Refuses a graph past TASK_LIMITS (nodes, dependencies per node and in all), naming the limit. */
export function checkGraphLimits(nodes: readonly Edges[], graphId: string): void {
  if (nodes.length > TASK_LIMITS.nodes_per_graph)
    throw new ValidationError(
      `nodes: graph ${graphId} would have ${nodes.length} nodes; at most ${TASK_LIMITS.nodes_per_graph} (TASK_LIMITS.nodes_per_graph)`,
      { field: 'nodes', value: nodes.length, rule: 'nodes_per_graph', limit: TASK_LIMITS.nodes_per_graph },
    );
  let edges = 0;
  for (const n of nodes) {
    edges += n.depends_on.length;
    if (n.depends_on.length > TASK_LIMITS.depends_on_per_node)
      throw new ValidationError(
        `depends_on: node '${n.node_id}' has ${n.depends_on.length} dependencies; at most ${TASK_LIMITS.depends_on_per_node} (TASK_LIMITS.depends_on_per_node)`,
        {
          field: 'depends_on',
          value: n.depends_on.length,
          rule: 'depends_on_per_node',
          limit: TASK_LIMITS.depends_on_per_node,
          node_id: n.node_id,
        },
      );
  }
  if (edges > TASK_LIMITS.edges_per_graph)
    throw new ValidationError(
      `depends_on: graph ${graphId} would have ${edges} dependencies; at most ${TASK_LIMITS.edges_per_graph} (TASK_LIMITS.edges_per_graph)`,
      { field: 'depends_on', value: edges, rule: 'edges_per_graph', limit: TASK_LIMITS.edges_per_graph },
    );
}

/**
 * Ready means every dependency is completed. A cancelled dependency does not count as done: its dependants stay
 * pending (reported as stalled) until someone cancels them too or completes them with force.
 */
export function dependenciesDone(node: Edges, byId: ReadonlyMap<string, TaskNode>): boolean {
  for (const d of node.depends_on) if (byId.get(d)?.status !== 'completed') return false;
  return true;
}

/** The dependencies of a node that are cancelled (what stalls it). */
export function cancelledDependencies(node: Edges, byId: ReadonlyMap<string, TaskNode>): string[] {
  return node.depends_on.filter((d) => byId.get(d)?.status === 'cancelled');
}

export const nodesById = (nodes: readonly TaskNode[]): Map<string, TaskNode> =>
  new Map(nodes.map((n) => [n.node_id, n]));

/**
 * Brings stored statuses in line with the rule: pending -> ready when every dependency completed, ready ->
 * pending when one no longer is. Mutates the nodes; returns the ids that became ready, in graph order.
 */
export function refreshReady(nodes: TaskNode[], at: string): string[] {
  const byId = nodesById(nodes);
  const became: string[] = [];
  for (const n of nodes) {
    if (n.status !== 'pending' && n.status !== 'ready') continue;
    const done = dependenciesDone(n, byId);
    if (n.status === 'pending' && done) {
      n.status = 'ready';
      n.updated_at = at;
      became.push(n.node_id);
    } else if (n.status === 'ready' && !done) {
      n.status = 'pending';
      n.updated_at = at;
    }
  }
  return became;
}
