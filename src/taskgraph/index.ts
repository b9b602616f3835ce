export { checkBindable, readNode, recordBinding, recordCompiledContext } from './binding.js';
export {
  PER_NODE_EVENT_LIMIT,
  recordNodeEvents,
  recordTaskEvent,
  TASK_EVENT_KINDS,
  type TaskEventKind,
} from './events.js';
export {
  cancelledDependencies,
  checkAcyclic,
  checkGraphLimits,
  checkKnownDependencies,
  dependenciesDone,
  findCycle,
  nodesById,
  refreshReady,
} from './graph-check.js';
export {
  graphIds,
  readAllGraphs,
  readGraph,
  updateGraph,
  updateGraphFromClient,
} from './graph-store.js';
export {
  addNodes,
  type CreateGraphInput,
  createGraph,
  expandGraph,
  type GraphWrite,
  nodesFromOutline,
} from './graphs.js';
export { aclTaskId, checkTaskGraphId, TASK_ID_RULE, titleSlug } from './ids.js';
export { graphOfNode, type NodeRef, nodeIn } from './locate.js';
export { type OutlineItem, outlineItemFields, parseOutline } from './outline.js';
export {
  type CompiledContext,
  contextDocument,
  graphDocument,
  type StoredGraph,
  TASK_CONTEXTS_COLLECTION,
  TASK_LIMITS,
  TASK_STATUSES,
  TASKS_COLLECTION,
  type TaskAcl,
  type TaskGraph,
  type TaskGraphDoc,
  TaskGraphDocSchema,
  type TaskNode,
  TaskNodeSchema,
  type TaskStatus,
  TERMINAL_STATUSES,
} from './schema.js';
export {
  type GraphStatus,
  graphStatus,
  listGraphs,
  listNodes,
  type NodeFilter,
  type NodeStatus,
  nodeStatus,
  type StatusCounts,
  taskSummary,
} from './summary.js';
export {
  blockNode,
  cancelNode,
  completeNode,
  requeueNode,
  startInGraph,
  startNode,
  type TransitionResult,
} from './transitions.js';
