import * as z from 'zod';
import { resolveRepository } from '../acl/index.js';
import { ValidationError } from '../infra/index.js';
import {
  createGraph,
  expandGraph,
  type GraphStatus,
  type GraphWrite,
  graphStatus,
  listGraphs,
  listNodes,
  type NodeStatus,
  nodeStatus,
  type OutlineItem,
  type StatusCounts,
  TASK_LIMITS,
  type TaskGraph,
  type TaskNode,
  taskSummary,
} from '../taskgraph/index.js';
import { repoDeps } from './acl-deps.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { coordDeps } from './coord-deps.js';
import { table } from './format.js';
import { PAGE_DEFAULTS, type PageInfo, type PageSpec, pageFields, pageFooter, pageOf } from './paging.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';
import { outlineFields, outlineItems, outlineText, taskFields } from './task-input.js';

const CREATE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/tasks', input: 'body' };
const EXPAND_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/tasks/expand', input: 'body' };

/** What create and expand answer: the graph, the ids added and the ids that became ready. */
export interface GraphWriteView {
  graph: TaskGraph;
  created: string[];
  ready: string[];
}

const view = (w: GraphWrite): GraphWriteView => ({
  graph: w.graph,
  created: w.created.map((n) => n.node_id),
  ready: w.ready,
});

const shortList = (ids: string[]) =>
  ids.length > 10 ? `${ids.slice(0, 10).join(', ')}, ...` : ids.join(', ');
const writeLine = (verb: string, r: GraphWriteView) =>
  `${verb} graph ${r.graph.graph_id} "${r.graph.title}": ${r.created.length} node(s) added${r.ready.length ? `; ready: ${shortList(r.ready)}` : ''}`;

/**
 * The outline's items, checked here, and the outline as text to send where the graph is kept (a hub server
 * parses it again and checks it against its own manifest).
 */
async function readOutline(
  ctx: OpContext,
  input: { from_outline?: string; outline?: string; repository?: string },
  stdin: boolean,
): Promise<{ plain: { outline?: string; repository?: string }; items: OutlineItem[] | undefined }> {
  const text = await outlineText(ctx, input, stdin);
  const items =
    text === undefined
      ? undefined
      : await outlineItems(ctx, { outline: text, repository: input.repository }, false);
  return {
    plain: {
      ...(text === undefined ? {} : { outline: text }),
      ...(input.repository === undefined ? {} : { repository: input.repository }),
    },
    items,
  };
}

export const taskCreate = defineOp({
  id: 'task.create',
  summary: 'Create a task graph, with nodes from an outline.',
  description:
    'Without --graph-id the id is the slug of the title (numbered when taken); a taken --graph-id is refused. ' +
    'Nodes come from --from-outline (a file, or - for standard input) or --outline, as task expand reads them. ' +
    `A graph holds at most ${TASK_LIMITS.nodes_per_graph} nodes. Events TaskGraphCreated, TaskNodeCreated, TaskReady.`,
  input: z.strictObject({
    title: cliHelp(
      z.string().trim().min(1).max(TASK_LIMITS.title_chars),
      'What the graph achieves (at most 200).',
    ),
    graph_id: z.string().min(1).optional().describe('Default: slug of `title`.'),
    goal: cliHelp(z.string().max(TASK_LIMITS.text_chars).optional(), 'The intent, in a few sentences.'),
    acceptance: cliHelp(
      z.array(z.string().max(TASK_LIMITS.text_chars)).max(TASK_LIMITS.acceptance_items).optional(),
      'Acceptance criteria (repeat).',
    ),
    objective_id: cliHelp(z.string().min(1).optional(), 'Objective the graph serves (context objective).'),
    ...outlineFields,
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<GraphWriteView> => {
    const { from_outline, outline, repository, ...graph } = input;
    const read = await readOutline(ctx, { from_outline, outline, repository }, false);
    return applyWhereStored(ctx, CREATE_ROUTE, { ...graph, ...read.plain }, async (deps) =>
      view(await createGraph(deps, { ...graph, items: read.items })),
    );
  },
  cli: { command: 'task create', human: (r) => writeLine('created', r) },
  mcp: { tool: 'hub_task_create', when: 'Use when splitting work into dependent tasks.' },
  http: [CREATE_ROUTE],
});

export const taskExpand = defineOp({
  id: 'task.expand',
  summary: 'Add nodes to a task graph from an outline.',
  description:
    'The outline comes from --from-outline <file> (- or nothing: standard input) or --outline. JSON items are ' +
    'titles or {title, node_id?, depends_on?, repository?, component?, patterns?, priority?, estimated_tokens?, ' +
    'context_budget?}; depends_on names node ids of the graph, or titles unique in the outline. In indented text ' +
    'each line depends on the nearest shallower line above it; leading - * + bullets are stripped. Node ids are ' +
    'given or the title slug, numbered on collision. Cycles and unknown dependencies are refused and nothing is ' +
    `written. Bounds: ${TASK_LIMITS.outline_bytes / 1024 / 1024} MiB of outline, ${TASK_LIMITS.nodes_per_graph} nodes per graph, ` +
    `${TASK_LIMITS.depends_on_per_node} dependencies per node.`,
  input: z.strictObject({ graph_id: taskFields.graph_id, ...outlineFields }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<GraphWriteView> => {
    const { graph_id, ...source } = input;
    const { plain, items } = await readOutline(ctx, source, true);
    if (items === undefined)
      throw new ValidationError(
        'outline: give --from-outline <file>, --outline, or an outline on standard input',
        {
          field: 'outline',
          rule: 'required',
        },
      );
    return applyWhereStored(ctx, EXPAND_ROUTE, { graph_id, ...plain }, async (deps) =>
      view(await expandGraph(deps, { graph_id, items })),
    );
  },
  cli: { command: 'task expand', human: (r) => writeLine('expanded', r) },
  mcp: { tool: 'hub_task_expand', when: 'Use when a task graph needs more nodes.' },
  http: [EXPAND_ROUTE],
});

const DEFAULT_LIMIT = 1000;

const nodeRows = (nodes: TaskNode[]) =>
  table(
    nodes.map((n) => [
      n.graph_id,
      n.node_id,
      n.status,
      String(n.priority),
      n.repository ?? '-',
      n.agent_id ?? '-',
      n.title,
    ]),
    ['GRAPH', 'NODE', 'STATUS', 'PRI', 'REPOSITORY', 'AGENT', 'TITLE'],
  );

async function repositoryId(ctx: OpContext, ref: string | undefined): Promise<string | undefined> {
  return ref === undefined ? undefined : (await resolveRepository(repoDeps(ctx), ref)).id;
}

export const taskReady = defineOp({
  id: 'task.ready',
  summary: 'List ready nodes (dependencies completed), of one graph or all.',
  input: z.strictObject({
    graph_id: taskFields.graph_id.optional(),
    repository: outlineFields.repository.describe('Only nodes of this project/repo.'),
    limit: taskFields.limit,
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<{ ready: TaskNode[]; count: number; truncated: boolean }> => {
    const all = await listNodes(coordDeps(ctx), {
      graph_id: input.graph_id,
      status: 'ready',
      repository: await repositoryId(ctx, input.repository),
    });
    const limit = input.limit ?? DEFAULT_LIMIT;
    return { ready: all.slice(0, limit), count: all.length, truncated: all.length > limit };
  },
  cli: { command: 'task ready', human: (r) => nodeRows(r.ready) || 'no ready nodes' },
  mcp: { tool: 'hub_task_ready', when: 'Use when looking for a task to pick up.' },
  http: [{ method: 'GET', route: '/v3/ops/tasks/ready', input: 'query' }],
});

type GraphSummary = TaskGraph & { counts: StatusCounts };

/** Nodes of task graphs page like every list; a page may hold a whole graph (its node limit). */
const TASK_PAGE: PageSpec = { defaults: PAGE_DEFAULTS, max: TASK_LIMITS.nodes_per_graph };

export const taskList = defineOp({
  id: 'task.list',
  summary: 'List task graphs with counts and their nodes, by status, agent or repository.',
  input: z.strictObject({
    graph_id: taskFields.graph_id.optional(),
    status: taskFields.status,
    agent_id: cliHelp(z.string().min(1).optional(), "Only this agent's nodes."),
    repository: outlineFields.repository.describe('Only nodes of this project/repo.'),
    ...pageFields('Nodes', TASK_PAGE),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<{ graphs: GraphSummary[]; nodes: TaskNode[] } & PageInfo> => {
    const deps = coordDeps(ctx);
    const nodes = await listNodes(deps, {
      graph_id: input.graph_id,
      status: input.status,
      agent_id: input.agent_id,
      repository: await repositoryId(ctx, input.repository),
    });
    const graphs = (await listGraphs(deps)).filter(
      (g) => input.graph_id === undefined || g.graph_id === input.graph_id,
    );
    const { items, page } = pageOf(ctx, input, nodes, TASK_PAGE);
    return { graphs, nodes: items, ...page };
  },
  cli: {
    command: 'task list',
    human: (r) =>
      [
        table(
          r.graphs.map((g) => [
            g.graph_id,
            String(g.counts.ready),
            String(g.counts.running),
            `${g.counts.completed}/${g.counts.total}`,
            g.title,
          ]),
          ['GRAPH', 'READY', 'RUNNING', 'DONE', 'TITLE'],
        ) || 'no task graphs',
        nodeRows(r.nodes),
        pageFooter(r.nodes.length, r, 'nodes'),
      ]
        .filter(Boolean)
        .join('\n\n'),
  },
  mcp: { tool: 'hub_task_list', when: 'Use when you need the state of task graphs.' },
  http: [{ method: 'GET', route: '/v3/ops/tasks', input: 'query' }],
});

type StatusView =
  | ({ kind: 'node' } & NodeStatus)
  | ({ kind: 'graph' } & GraphStatus)
  | { kind: 'all'; summary: StatusCounts; graphs: GraphSummary[] };

function statusHuman(r: StatusView): string {
  if (r.kind === 'node') {
    const n = r.node;
    return [
      `${n.graph_id}/${n.node_id} [${n.status}] ${n.title}`,
      n.repository ? `repository: ${n.repository}` : '',
      n.agent_id ? `agent: ${n.agent_id}` : '',
      n.blocker_reason ? `blocked: ${n.blocker_reason}` : '',
      r.dependencies.length
        ? `depends on: ${r.dependencies.map((d) => `${d.node_id} [${d.status}]`).join(', ')}`
        : '',
      r.stalled_by.length ? `stalled by cancelled: ${r.stalled_by.join(', ')}` : '',
      n.acl?.branch
        ? `bound: ${n.acl.branch} lease ${n.acl.lease_id} worktree ${n.acl.worktree_path ?? n.acl.worktree_id}`
        : '',
    ]
      .filter(Boolean)
      .join('\n');
  }
  const c = r.kind === 'graph' ? r.counts : r.summary;
  const counts = `pending ${c.pending}, ready ${c.ready}, running ${c.running}, blocked ${c.blocked}, completed ${c.completed}, cancelled ${c.cancelled} (of ${c.total})`;
  if (r.kind === 'graph') return `${r.graph.graph_id} "${r.graph.title}": ${counts}`;
  return `${r.graphs.length} graph(s): ${counts}`;
}

export const taskStatus = defineOp({
  id: 'task.status',
  summary: 'One node with its dependencies and dependants, one graph, or every graph counted.',
  description:
    'With --node-id: the node, where its dependencies stand, what waits on it, and stalled_by (cancelled ' +
    'dependencies: a cancelled dependency never counts as completed). With only --graph-id: counts, ready, ' +
    'blocked, running and stalled nodes. With neither: counts over every graph.',
  input: z.strictObject({
    graph_id: taskFields.graph_ref,
    node_id: taskFields.node_id.optional(),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<StatusView> => {
    const deps = coordDeps(ctx);
    if (input.node_id !== undefined)
      return {
        kind: 'node',
        ...(await nodeStatus(deps, { graph_id: input.graph_id, node_id: input.node_id })),
      };
    if (input.graph_id !== undefined) return { kind: 'graph', ...(await graphStatus(deps, input.graph_id)) };
    return { kind: 'all', summary: await taskSummary(deps), graphs: await listGraphs(deps) };
  },
  cli: { command: 'task status', human: (r) => statusHuman(r) },
  mcp: { tool: 'hub_task_status', when: 'Use when asking where a node or graph stands.' },
  http: [{ method: 'GET', route: '/v3/ops/tasks/status', input: 'query' }],
});
