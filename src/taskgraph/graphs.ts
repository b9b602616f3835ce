import { didYouMean, suggestionText } from '../catalog/index.js';
import { type CoordDeps, listObjectives, updateDoc } from '../coord/index.js';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { recordNodeEvents, recordTaskEvent } from './events.js';
import { checkAcyclic, checkGraphLimits, checkKnownDependencies, refreshReady } from './graph-check.js';
import { checkGraphBytes, updateGraph } from './graph-store.js';
import { checkTaskGraphId, createIdAllocator, titleSlug } from './ids.js';
import type { OutlineItem } from './outline.js';
import {
  graphDocument,
  type StoredGraph,
  TASK_LIMITS,
  type TaskGraph,
  TaskGraphDocSchema,
  type TaskNode,
} from './schema.js';

/** What a write that adds nodes did. */
export interface GraphWrite {
  graph: TaskGraph;
  /** The nodes added, in outline order. */
  created: TaskNode[];
  /** Ids of nodes that became ready. */
  ready: string[];
}

const slot = (i: number) => `nodes[${i}]`;

/**
 * The nodes an outline adds to a graph: ids given (checked, unique) or made from titles (numbered on collision),
 * dependencies resolved (an id of the graph or the outline, or a title unique in the outline; an indented line
 * depends on its parent line). Pure; the caller checks the whole graph afterwards.
 */
export function nodesFromOutline(
  graphId: string,
  existing: readonly TaskNode[],
  items: readonly OutlineItem[],
  at: string,
): TaskNode[] {
  const taken = new Set(existing.map((n) => n.node_id));
  items.forEach((item, i) => {
    if (item.node_id === undefined) return;
    checkTaskGraphId(item.node_id, `${slot(i)}.node_id`, 'node id');
    if (taken.has(item.node_id))
      throw new ValidationError(
        `${slot(i)}.node_id: graph ${graphId} already has a node '${item.node_id}' (node ids are unique in a graph)`,
        { field: `${slot(i)}.node_id`, value: item.node_id, rule: 'unique_node_id' },
      );
    taken.add(item.node_id);
  });
  const allocate = createIdAllocator(taken);
  const ids = items.map((item) => item.node_id ?? allocate(titleSlug(item.title)));
  const known = new Set([...existing.map((n) => n.node_id), ...ids]);
  // A title names a node of this outline only when no other item has it.
  const byTitle = new Map<string, string | null>();
  items.forEach((item, i) => {
    byTitle.set(item.title, byTitle.has(item.title) ? null : ids[i]!);
  });
  return items.map((item, i) => {
    const deps = new Set<string>();
    if (item.parent !== undefined) deps.add(ids[item.parent]!);
    for (const d of item.depends_on ?? []) deps.add(known.has(d) ? d : (byTitle.get(d) ?? d));
    return {
      node_id: ids[i]!,
      graph_id: graphId,
      title: item.title,
      depends_on: [...deps],
      status: 'pending',
      ...(item.repository === undefined ? {} : { repository: item.repository }),
      ...(item.component === undefined ? {} : { component: item.component }),
      ...(item.patterns === undefined ? {} : { patterns: item.patterns }),
      priority: item.priority ?? 0,
      ...(item.estimated_tokens === undefined ? {} : { estimated_tokens: item.estimated_tokens }),
      ...(item.context_budget === undefined ? {} : { context_budget: item.context_budget }),
      created_at: at,
      updated_at: at,
    };
  });
}

/** Adds outline nodes to a stored graph (mutating it) after every check; returns what became ready. */
export function addNodes(g: StoredGraph, items: readonly OutlineItem[], at: string): GraphWrite {
  const id = g.graph.graph_id;
  const created = nodesFromOutline(id, g.nodes, items, at);
  const all = g.nodes.concat(created);
  checkGraphLimits(all, id);
  checkKnownDependencies(all, id);
  checkAcyclic(all);
  g.nodes = all;
  const ready = refreshReady(g.nodes, at);
  if (created.length > 0) g.graph.updated_at = at;
  return { graph: g.graph, created, ready };
}

async function announce(deps: CoordDeps, g: StoredGraph, w: GraphWrite): Promise<void> {
  const id = g.graph.graph_id;
  await recordNodeEvents(deps, 'TaskNodeCreated', id, w.created);
  const byId = new Map(w.created.map((n) => [n.node_id, n]));
  await recordNodeEvents(
    deps,
    'TaskReady',
    id,
    w.ready.map((r) => ({ node_id: r, title: byId.get(r)?.title })),
  );
}

export interface CreateGraphInput {
  graph_id?: string;
  title: string;
  goal?: string;
  acceptance?: string[];
  objective_id?: string;
  /** Nodes to add at once (an outline). */
  items?: readonly OutlineItem[];
}

async function checkObjective(deps: CoordDeps, id: string): Promise<void> {
  const ids = (await listObjectives(deps)).map((o) => o.id);
  if (ids.includes(id)) return;
  const suggestions = didYouMean(id, ids);
  throw new NotFoundError(`objective_id: no objective '${id}'${suggestionText(suggestions)}`, {
    field: 'objective_id',
    value: id,
    rule: 'known_objective',
    suggestions,
  });
}

class GraphExists extends Error {}

/**
 * `task create`: a new graph, atomically (a graph id taken is refused, 409; without `graph_id` the id is the
 * title's slug, numbered when taken), with the outline's nodes when given. Events TaskGraphCreated,
 * TaskNodeCreated and TaskReady.
 */
export async function createGraph(deps: CoordDeps, input: CreateGraphInput): Promise<GraphWrite> {
  if (input.graph_id !== undefined) checkTaskGraphId(input.graph_id, 'graph_id', 'graph id');
  if (input.acceptance && input.acceptance.length > TASK_LIMITS.acceptance_items)
    throw new ValidationError(
      `acceptance: ${input.acceptance.length} criteria; at most ${TASK_LIMITS.acceptance_items}`,
      { field: 'acceptance', value: input.acceptance.length, rule: 'acceptance_items' },
    );
  if (input.objective_id !== undefined) await checkObjective(deps, input.objective_id);
  const base = input.graph_id ?? titleSlug(input.title, 'graph');
  for (let n = 1; n <= 100; n++) {
    const graphId = n === 1 ? base : `${base}-${n}`;
    const at = deps.now().toISOString();
    try {
      const { g, w } = await updateDoc(deps, graphDocument(graphId), TaskGraphDocSchema, (doc) => {
        if (doc.graph) throw new GraphExists();
        const graph: TaskGraph = {
          graph_id: graphId,
          title: input.title,
          ...(input.goal === undefined ? {} : { goal: input.goal }),
          acceptance: input.acceptance ?? [],
          ...(input.objective_id === undefined ? {} : { objective_id: input.objective_id }),
          status: 'active',
          created_at: at,
          updated_at: at,
        };
        const g: StoredGraph = { graph, nodes: [] };
        const w = addNodes(g, input.items ?? [], at);
        doc.graph = g.graph;
        doc.nodes = g.nodes;
        checkGraphBytes(doc, graphId);
        return { g, w };
      });
      await recordTaskEvent(deps, 'TaskGraphCreated', graphId, {
        title: input.title,
        nodes: w.created.length,
        ...(input.objective_id === undefined ? {} : { objective_id: input.objective_id }),
      });
      await announce(deps, g, w);
      return w;
    } catch (err) {
      if (!(err instanceof GraphExists)) throw err;
      if (input.graph_id !== undefined)
        throw new RefusedError(
          `graph_id: a task graph '${graphId}' exists already; expand it (task expand) or choose another id`,
          { field: 'graph_id', value: graphId, rule: 'unique_graph_id' },
          409,
        );
    }
  }
  throw new RefusedError(`graph_id: the ids ${base} to ${base}-100 are all taken; pass --graph-id`, {
    field: 'graph_id',
    value: base,
    rule: 'unique_graph_id',
  });
}

/** `task expand`: adds an outline's nodes to a graph, atomically; events TaskNodeCreated and TaskReady. */
export async function expandGraph(
  deps: CoordDeps,
  input: { graph_id: string; items: readonly OutlineItem[] },
): Promise<GraphWrite> {
  const at = deps.now().toISOString();
  let stored: StoredGraph | undefined;
  const w = await updateGraph(
    deps,
    input.graph_id,
    (g) => {
      stored = g;
      return addNodes(g, input.items, at);
    },
    { grows: true },
  );
  await announce(deps, stored!, w);
  return w;
}
