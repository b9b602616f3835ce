import type { ExtraSection } from '../context/index.js';
import { listObjectives } from '../coord/index.js';
import { ValidationError } from '../infra/index.js';
import { readNode, type TaskGraph, type TaskNode } from '../taskgraph/index.js';
import type { OpContext } from './context.js';
import { coordDeps } from './coord-deps.js';

/** The node a compile is for, and what it decides: the repository, the budget and the task section. */
export interface TaskScope {
  graph: TaskGraph;
  node: TaskNode;
  project: string;
  repo: string;
  budget: number | undefined;
  section: ExtraSection;
}

const disagree = (field: string, given: string, node: TaskNode, repository: string) =>
  new ValidationError(
    `${field}: '${given}' disagrees with node ${node.graph_id}/${node.node_id}, which is in ${repository}; leave --${field} out`,
    { field, value: given, rule: 'node_repository', node_repository: repository },
  );

/**
 * Resolves `context compile --task-id [--graph-id]`: the node (unknown ids refused with close ids; a node id in
 * several graphs needs --graph-id), its repository as project/repo (given --project/--repo must agree), its
 * context_budget unless --budget, and a `task` section with the node, its graph's goal and acceptance, and the
 * objective the graph serves.
 */
export async function taskScope(
  ctx: OpContext,
  input: { project?: string; repo?: string; budget?: number; task_id?: string; graph_id?: string },
): Promise<TaskScope | undefined> {
  if (input.task_id === undefined) {
    if (input.graph_id !== undefined)
      throw new ValidationError('task_id: required with graph_id (the node to compile for)', {
        field: 'task_id',
        rule: 'required_with_graph_id',
      });
    return undefined;
  }
  const deps = coordDeps(ctx);
  const { graph, node } = await readNode(deps, { graph_id: input.graph_id, node_id: input.task_id });
  const repository = node.repository;
  const parts = repository?.split('/');
  if (!repository || parts?.length !== 2)
    throw new ValidationError(
      `task_id: node ${node.graph_id}/${node.node_id} names no catalogued repository (${repository ?? 'none'}); give it one when expanding, or pass --project and --repo`,
      { field: 'task_id', value: node.node_id, rule: 'node_repository', repository: repository ?? null },
    );
  const [project, repo] = parts as [string, string];
  if (input.project !== undefined && input.project !== project)
    throw disagree('project', input.project, node, repository);
  if (input.repo !== undefined && input.repo !== repo) throw disagree('repo', input.repo, node, repository);
  const objective =
    graph.objective_id === undefined
      ? null
      : ((await listObjectives(deps)).find((o) => o.id === graph.objective_id) ?? null);
  return {
    graph,
    node,
    project,
    repo,
    budget: input.budget ?? node.context_budget,
    section: {
      key: 'task',
      value: {
        graph_id: node.graph_id,
        task_id: node.node_id,
        title: node.title,
        status: node.status,
        depends_on: node.depends_on,
        priority: node.priority,
        ...(node.estimated_tokens === undefined ? {} : { estimated_tokens: node.estimated_tokens }),
        graph: {
          title: graph.title,
          ...(graph.goal === undefined ? {} : { goal: graph.goal }),
          acceptance: graph.acceptance,
        },
        objective: objective && {
          id: objective.id,
          title: objective.title,
          status: objective.status,
          ...(objective.acceptance ? { acceptance: objective.acceptance } : {}),
        },
      },
    },
  };
}
