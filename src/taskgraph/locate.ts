import { didYouMean, suggestionText } from '../catalog/index.js';
import type { CoordDeps } from '../coord/index.js';
import { AmbiguousError, NotFoundError, RefusedError } from '../infra/index.js';
import { readAllGraphs } from './graph-store.js';
import { checkTaskGraphId } from './ids.js';
import type { StoredGraph, TaskNode } from './schema.js';

/** A node named by id, with its graph when the caller knows it. */
export interface NodeRef {
  graph_id?: string;
  node_id: string;
}

/** Most ids listed in a not-found error's details. */
const LISTED = 50;

/**
 * The graph holding a node: `graph_id` when given (checked), else the one graph among all that has a node of that
 * id; none is a NotFoundError with close ids, several an AmbiguousError naming them (pass --graph-id).
 */
export async function graphOfNode(deps: CoordDeps, ref: NodeRef): Promise<string> {
  checkTaskGraphId(ref.node_id, 'node_id', 'node id');
  if (ref.graph_id !== undefined) return checkTaskGraphId(ref.graph_id, 'graph_id', 'graph id');
  const graphs = await readAllGraphs(deps);
  const holding = graphs.filter((g) => g.nodes.some((n) => n.node_id === ref.node_id));
  if (holding.length === 1) return holding[0]!.graph.graph_id;
  if (holding.length > 1) {
    const ids = holding.map((g) => g.graph.graph_id);
    throw new AmbiguousError(
      `node_id: '${ref.node_id}' is a node of ${ids.length} graphs (${ids.slice(0, 5).join(', ')}); pass --graph-id`,
      { field: 'node_id', value: ref.node_id, rule: 'unambiguous_node', graphs: ids.slice(0, LISTED) },
    );
  }
  const all = graphs.flatMap((g) => g.nodes.map((n) => n.node_id));
  const suggestions = didYouMean(ref.node_id, all);
  throw new NotFoundError(
    `node_id: no task graph has a node '${ref.node_id}'${suggestionText(suggestions)}`,
    { field: 'node_id', value: ref.node_id, rule: 'known_node', suggestions },
  );
}

/** The node of a stored graph; an unknown id is a NotFoundError with close ids of that graph. */
export function nodeIn(g: StoredGraph, nodeId: string): TaskNode {
  const node = g.nodes.find((n) => n.node_id === nodeId);
  if (node) return node;
  const suggestions = didYouMean(
    nodeId,
    g.nodes.map((n) => n.node_id),
  );
  throw new NotFoundError(
    `node_id: graph ${g.graph.graph_id} has no node '${nodeId}'${suggestionText(suggestions)}`,
    { field: 'node_id', value: nodeId, rule: 'known_node', graph_id: g.graph.graph_id, suggestions },
  );
}

/** A refusal of a transition (409), naming the node, its status and what to do instead. */
export function transitionRefused(
  node: TaskNode,
  rule: string,
  message: string,
  extra: Record<string, unknown> = {},
): RefusedError {
  return new RefusedError(
    `node_id: ${node.graph_id}/${node.node_id} is ${node.status}: ${message}`,
    { field: 'node_id', value: node.node_id, graph_id: node.graph_id, status: node.status, rule, ...extra },
    409,
  );
}
