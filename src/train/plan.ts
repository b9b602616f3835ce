import { ValidationError } from '../infra/index.js';
import {
  type CreateGraphInput,
  checkTaskGraphId,
  type OutlineItem,
  TASK_LIMITS,
} from '../taskgraph/index.js';

/** One repository of a campaign to plan: its `project/repo`, and what its node claims and may spend. */
export interface PlanRow {
  repository: string;
  /** Globs the node's agent claims (default: the whole repository, `**`). */
  patterns?: string[];
  /** Token budget of the node's compiled context (default: the plan's `budget`). */
  budget?: number;
  title?: string;
}

export interface CampaignPlanInput {
  slug: string;
  title: string;
  goal?: string;
  objective_id?: string;
  rows: readonly PlanRow[];
  /** `project/repo` of the reference implementation: its node comes first (priority). */
  reference?: string;
  /** When true, every other node depends on the reference's node (it must land its design first). */
  reference_first?: boolean;
  /** Default token budget of each node. */
  budget?: number;
}

/** Default claim of a campaign node: the change may touch any file of its repository. */
export const DEFAULT_PLAN_PATTERNS: readonly string[] = ['**'];
/** Priority of the reference implementation's node, so the scheduler hands it out first. */
export const REFERENCE_PRIORITY = 100;

const GRAPH_PREFIX = 'campaign-';

/** The task graph id of a campaign: `campaign-<slug>`, cut to the id limit. */
export function campaignGraphId(slug: string): string {
  return `${GRAPH_PREFIX}${slug}`.slice(0, TASK_LIMITS.id_chars).replace(/[-.]+$/, '');
}

/** A node id from `project/repo`: `project-repo`, characters ids cannot hold made `-`, numbered on collision. */
function nodeIds(refs: readonly string[]): string[] {
  const used = new Set<string>();
  return refs.map((ref) => {
    const base =
      ref
        .replace(/[^A-Za-z0-9_-]+/g, '-')
        .replace(/^-+/, '')
        .slice(0, 56)
        .replace(/-+$/, '') || 'repo';
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return id;
  });
}

/**
 * The task graph of a campaign (what `task create` takes): one node per repository, with its repository,
 * patterns and budget, so `aos next --apply` hands each row to an agent with a worktree, lease and claim. The
 * reference implementation's node has the highest priority; with `reference_first` every other node depends on
 * it, so no other row is handed out before the reference is completed.
 */
export function planCampaignGraph(input: CampaignPlanInput): CreateGraphInput {
  if (input.rows.length === 0)
    throw new ValidationError(`repos: campaign '${input.slug}' has no repositories to plan`, {
      field: 'repos',
      rule: 'at least one repository',
    });
  if (input.rows.length > TASK_LIMITS.nodes_per_graph)
    throw new ValidationError(
      `repos: ${input.rows.length} repositories; a task graph holds at most ${TASK_LIMITS.nodes_per_graph} nodes`,
      { field: 'repos', value: input.rows.length, rule: 'nodes_per_graph' },
    );
  const refs = input.rows.map((r) => r.repository);
  if (input.reference !== undefined && !refs.includes(input.reference))
    throw new ValidationError(
      `reference: '${input.reference}' is not one of the campaign's repositories (${refs.slice(0, 10).join(', ')}${refs.length > 10 ? ', ...' : ''})`,
      { field: 'reference', value: input.reference, rule: 'a row of the campaign' },
    );
  if (input.reference_first && input.reference === undefined)
    throw new ValidationError('reference_first: the campaign names no reference implementation', {
      field: 'reference_first',
      rule: 'needs reference',
    });
  const graphId = checkTaskGraphId(campaignGraphId(input.slug), 'graph_id', 'graph id');
  const ids = nodeIds(refs);
  const refIndex = input.reference === undefined ? -1 : refs.indexOf(input.reference);
  const refId = refIndex < 0 ? undefined : ids[refIndex];
  // The reference first, then the rest in the campaign's order.
  const order =
    refIndex < 0 ? refs.map((_, i) => i) : [refIndex, ...refs.flatMap((_, i) => (i === refIndex ? [] : [i]))];
  const items: OutlineItem[] = order.map((i) => {
    const row = input.rows[i]!;
    const isRef = i === refIndex;
    const budget = row.budget ?? input.budget;
    return {
      node_id: ids[i]!,
      title:
        row.title ??
        `${input.title}: ${row.repository}${isRef ? ' (reference implementation)' : ''}`.slice(
          0,
          TASK_LIMITS.title_chars,
        ),
      repository: row.repository,
      patterns: [...(row.patterns && row.patterns.length > 0 ? row.patterns : DEFAULT_PLAN_PATTERNS)],
      priority: isRef ? REFERENCE_PRIORITY : 0,
      ...(budget === undefined ? {} : { context_budget: budget }),
      ...(input.reference_first && !isRef && refId !== undefined ? { depends_on: [refId] } : {}),
    };
  });
  return {
    graph_id: graphId,
    title: input.title.slice(0, TASK_LIMITS.title_chars),
    ...(input.goal === undefined ? {} : { goal: input.goal.slice(0, TASK_LIMITS.text_chars) }),
    ...(input.objective_id === undefined ? {} : { objective_id: input.objective_id }),
    items,
  };
}
