import { didYouMean, suggestionText } from '../catalog/index.js';
import { type CoordDeps, readDoc, updateDoc } from '../coord/index.js';
import { HubError, NotFoundError, StateConflictError, ValidationError } from '../infra/index.js';
import {
  graphDocument,
  type StoredGraph,
  TASK_LIMITS,
  TASKS_COLLECTION,
  type TaskGraphDoc,
  TaskGraphDocSchema,
} from './schema.js';

/** The ids of every stored graph (the store's `list` of the tasks collection), sorted. */
export async function graphIds(deps: CoordDeps): Promise<string[]> {
  if (!deps.store.list)
    throw new HubError('internal', `the ${deps.store.backend} state backend cannot list documents`, {
      backend: deps.store.backend,
    });
  const prefix = `${TASKS_COLLECTION}/`;
  return (await deps.store.list(TASKS_COLLECTION)).map((n) => n.slice(prefix.length));
}

/** An unknown graph id, with close ids. */
export async function graphNotFound(deps: CoordDeps, graphId: string): Promise<NotFoundError> {
  const suggestions = didYouMean(graphId, await graphIds(deps));
  return new NotFoundError(`graph_id: no task graph '${graphId}'${suggestionText(suggestions)}`, {
    field: 'graph_id',
    value: graphId,
    rule: 'known_graph',
    suggestions,
  });
}

/** One stored graph; an unknown id is a NotFoundError with close ids. */
export async function readGraph(deps: CoordDeps, graphId: string): Promise<StoredGraph> {
  const doc = await readDoc(deps, graphDocument(graphId), TaskGraphDocSchema);
  if (!doc.graph) throw await graphNotFound(deps, graphId);
  return { graph: doc.graph, nodes: doc.nodes };
}

/** Every stored graph, in id order (a pure read). */
export async function readAllGraphs(deps: CoordDeps): Promise<StoredGraph[]> {
  const out: StoredGraph[] = [];
  for (const id of await graphIds(deps)) {
    const doc = await readDoc(deps, graphDocument(id), TaskGraphDocSchema);
    if (doc.graph) out.push({ graph: doc.graph, nodes: doc.nodes });
  }
  return out;
}

/** Thrown inside an update when the graph is absent; turned into a NotFoundError with suggestions outside it. */
class MissingGraph extends Error {}

/** Refuses a graph document past TASK_LIMITS.graph_bytes (the http backend carries at most 8 MiB). */
export function checkGraphBytes(doc: TaskGraphDoc, graphId: string): void {
  const bytes = Buffer.byteLength(JSON.stringify(doc), 'utf8');
  if (bytes > TASK_LIMITS.graph_bytes)
    throw new ValidationError(
      `nodes: graph ${graphId} would take ${bytes} bytes; at most ${TASK_LIMITS.graph_bytes} (TASK_LIMITS.graph_bytes): split the work into several graphs`,
      { field: 'nodes', value: bytes, rule: 'graph_bytes', limit: TASK_LIMITS.graph_bytes },
    );
}

/**
 * The atomic read-modify-write of one graph (`updateDoc`: under the local backend's inter-process lock, queued
 * on memory, compare-and-swap with retries elsewhere). `fn` mutates the stored graph and returns the result; it
 * may run more than once, so it must be pure. Nothing is written when it throws. `grows` checks the size.
 */
export async function updateGraph<R>(
  deps: CoordDeps,
  graphId: string,
  fn: (g: StoredGraph) => R,
  opts: { grows?: boolean } = {},
): Promise<R> {
  try {
    return await updateDoc(deps, graphDocument(graphId), TaskGraphDocSchema, (doc) => {
      if (!doc.graph) throw new MissingGraph();
      const r = fn(doc as StoredGraph);
      if (opts.grows) checkGraphBytes(doc, graphId);
      return r;
    });
  } catch (err) {
    if (err instanceof MissingGraph) throw await graphNotFound(deps, graphId);
    throw err;
  }
}

const CLIENT_ROUNDS = 8;
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `updateGraph` for work that must happen on this machine (a compiled pack, the worktree bind-acl made), so it
 * cannot be sent to a hub server's route: on the http backend a compare-and-swap conflict is retried after a
 * random pause, up to 8 rounds, so agents writing one graph at once all land. Elsewhere it is atomic anyway.
 */
export async function updateGraphFromClient<R>(
  deps: CoordDeps,
  graphId: string,
  fn: (g: StoredGraph) => R,
): Promise<R> {
  for (let round = 1; ; round++) {
    try {
      return await updateGraph(deps, graphId, fn);
    } catch (err) {
      if (!(err instanceof StateConflictError) || round >= CLIENT_ROUNDS) throw err;
      await pause(Math.floor(Math.random() * 20 * round));
    }
  }
}
