import * as z from 'zod';

/** Where a node is: waiting on dependencies, startable, stopped with a reason, taken, done, or dropped. */
export const TASK_STATUSES = ['pending', 'ready', 'blocked', 'running', 'completed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Statuses a node never leaves (a write that would move it is refused). */
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['completed', 'cancelled'];

/**
 * Bounds of one graph. A graph is one document: these keep it well under the 8 MiB document limit of the http
 * backend and keep every walk over it cheap (10,000 nodes check for cycles in a few milliseconds).
 */
export const TASK_LIMITS = {
  /** Nodes in one graph. */
  nodes_per_graph: 10_000,
  /** Dependencies of one node. */
  depends_on_per_node: 256,
  /** Dependencies of all nodes of one graph together. */
  edges_per_graph: 100_000,
  /** Characters of a title (graph or node). */
  title_chars: 200,
  /** Characters of a graph or node id (so `<graph>.<node>`, the ACL task id, stays within 128). */
  id_chars: 63,
  /** Characters of a goal, a reason or one acceptance criterion. */
  text_chars: 4000,
  /** Acceptance criteria of a graph. */
  acceptance_items: 50,
  /** Claim patterns of one node. */
  patterns_per_node: 50,
  /** Bytes of an outline (file, stdin or inline text): what one operation request carries (MAX_INPUT_BYTES). */
  outline_bytes: 1024 * 1024,
  /** Bytes of a graph document as compact JSON (the http backend carries up to 8 MiB). */
  graph_bytes: 6 * 1024 * 1024,
  /** Absolute value of a priority. */
  priority_abs: 1_000_000,
  /** Tokens of an estimate or a context budget. */
  tokens: 10_000_000,
} as const;

/** Store collections of this room: one graph per document, one compiled context pack per node. */
export const TASKS_COLLECTION = 'tasks';
export const TASK_CONTEXTS_COLLECTION = 'task-contexts';

/** `tasks/<graph_id>`: the graph and all its nodes. */
export const graphDocument = (graphId: string): string => `${TASKS_COLLECTION}/${graphId}`;
/** `task-contexts/<graph_id>~<node_id>`: the last pack compiled for a node (kept apart: the graph stays small). */
export const contextDocument = (graphId: string, nodeId: string): string =>
  `${TASK_CONTEXTS_COLLECTION}/${graphId}~${nodeId}`;

/** What `bind-acl` took for a node; released together when any step fails. */
export const TaskAclSchema = z.looseObject({
  /** The ACL task id the holdings are recorded under: `<graph_id>.<node_id>`. */
  task_id: z.string().optional(),
  repository: z.string().optional(),
  agent_id: z.string().optional(),
  branch: z.string().optional(),
  branch_id: z.string().optional(),
  lease_id: z.string().optional(),
  worktree_id: z.string().optional(),
  worktree_path: z.string().optional(),
  claim_ids: z.array(z.string()).default(() => []),
  bound_at: z.string().optional(),
});
export type TaskAcl = z.infer<typeof TaskAclSchema>;

/** The last compiled context of a node: a summary here, the pack itself in its own document. */
export const CompiledContextSchema = z.looseObject({
  compiled_at: z.string(),
  estimated_tokens: z.number(),
  /** SHA-256 of the pack's JSON. */
  digest: z.string(),
  /** Store name of the document holding the pack. */
  document: z.string(),
  tier: z.number().optional(),
  budget: z.number().nullable().optional(),
});
export type CompiledContext = z.infer<typeof CompiledContextSchema>;

// Loose records: keys written by later builds or other tools survive a read-modify-write.
export const TaskNodeSchema = z.looseObject({
  node_id: z.string().min(1),
  graph_id: z.string().min(1),
  title: z.string(),
  depends_on: z.array(z.string()).default(() => []),
  status: z.enum(TASK_STATUSES),
  /** `project/repo` of the manifest (or `self`). */
  repository: z.string().optional(),
  /** Catalogued component whose path bind-acl claims when the node names no patterns. */
  component: z.string().optional(),
  /** Globs bind-acl claims. */
  patterns: z.array(z.string()).optional(),
  /** Agent working on it (start, schedule next, bind-acl). */
  agent_id: z.string().optional(),
  priority: z.number().int().default(0),
  estimated_tokens: z.number().int().optional(),
  context_budget: z.number().int().optional(),
  blocker_reason: z.string().optional(),
  cancel_reason: z.string().optional(),
  acl: TaskAclSchema.optional(),
  /** What a requeue took off the node: the holdings of the agent that had it. */
  previous_acl: TaskAclSchema.optional(),
  compiled_context: CompiledContextSchema.optional(),
  created_at: z.string(),
  updated_at: z.string(),
  started_at: z.string().optional(),
  completed_at: z.string().optional(),
});
export type TaskNode = z.infer<typeof TaskNodeSchema>;

export const TaskGraphSchema = z.looseObject({
  graph_id: z.string().min(1),
  title: z.string(),
  goal: z.string().optional(),
  acceptance: z.array(z.string()).default(() => []),
  objective_id: z.string().optional(),
  /** `active` until a person says otherwise (never changed automatically). */
  status: z.string().default('active'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TaskGraph = z.infer<typeof TaskGraphSchema>;

/** `tasks/<graph_id>`: `{graph, nodes}`; an absent document parses with no graph. */
export const TaskGraphDocSchema = z.looseObject({
  graph: TaskGraphSchema.optional(),
  nodes: z.array(TaskNodeSchema).default(() => []),
});
export type TaskGraphDoc = z.infer<typeof TaskGraphDocSchema>;

/** A graph as stored, known to exist. */
export interface StoredGraph {
  graph: TaskGraph;
  nodes: TaskNode[];
}

/** `task-contexts/<graph>~<node>`: the pack compiled for a node and where it came from. */
export const TaskContextDocSchema = z.looseObject({
  graph_id: z.string().optional(),
  node_id: z.string().optional(),
  compiled_at: z.string().optional(),
  estimated_tokens: z.number().optional(),
  digest: z.string().optional(),
  pack: z.unknown().optional(),
});
