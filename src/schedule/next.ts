import { type CoordDeps, newId } from '../coord/index.js';
import { mergePressure } from '../merge/index.js';
import {
  dependenciesDone,
  nodesById,
  readAllGraphs,
  readGraph,
  recordTaskEvent,
  type StoredGraph,
  startInGraph,
  type TaskNode,
  updateGraph,
} from '../taskgraph/index.js';
import { readDecisions, recordDecisions, type ScheduleDecision } from './decisions.js';
import { readPolicy } from './policy.js';
import { fairnessKey, type LiveWorktree, rankNodes, type Scored } from './score.js';

/** Most decisions one `schedule next` makes. */
export const MAX_NEXT_LIMIT = 50;

export interface NextInput {
  agent_id: string;
  graph_id?: string;
  /** How many nodes to pick (1 to 50, default 1). */
  limit?: number;
  /** Rank only: nothing recorded, nothing started. */
  dry_run?: boolean;
  /** Move each picked node to running for the agent (default true); false ranks and records only. */
  start?: boolean;
}

export interface NextResult {
  agent_id: string;
  dry_run: boolean;
  start: boolean;
  decisions: ScheduleDecision[];
  /** Ready nodes this agent may take (ready, not bound to another agent). */
  ready_count: number;
  /** Why there is no decision, when there is none. */
  note?: string;
}

/** A ready node the agent may take: ready, dependencies completed, not bound to another agent. */
function takeable(n: TaskNode, agentId: string, byId: ReadonlyMap<string, TaskNode>): boolean {
  if (n.status !== 'ready') return false;
  if (n.acl?.agent_id !== undefined && n.acl.agent_id !== agentId) return false;
  return dependenciesDone(n, byId);
}

function candidates(graphs: readonly StoredGraph[], agentId: string): TaskNode[] {
  const out: TaskNode[] = [];
  for (const g of graphs) {
    const byId = nodesById(g.nodes);
    for (const n of g.nodes) if (takeable(n, agentId, byId)) out.push(n);
  }
  return out;
}

function decisionOf(s: Scored, agentId: string, at: string, started: boolean): ScheduleDecision {
  const n = s.node;
  const ids = `--graph-id ${n.graph_id} --node-id ${n.node_id} --agent-id ${agentId}`;
  return {
    decision_id: newId('sd'),
    at,
    agent_id: agentId,
    graph_id: n.graph_id,
    node_id: n.node_id,
    title: n.title,
    repository: n.repository ?? null,
    score: s.score,
    terms: { ...s.terms },
    reasons: s.reasons,
    started,
    compile_command: `hub context compile --task-id ${n.node_id} --graph-id ${n.graph_id}`,
    bind_command: `hub task bind-acl ${ids}`,
    ...(started ? {} : { start_command: `hub task start ${ids}` }),
  };
}

/**
 * Claims a ranked node for the agent inside the graph's atomic update: only if it is still takeable there, so two
 * agents asking at once never get the same node (the loser moves on to its next candidate).
 */
async function claim(deps: CoordDeps, node: TaskNode, agentId: string, at: string): Promise<boolean> {
  return updateGraph(deps, node.graph_id, (g) => {
    const n = g.nodes.find((x) => x.node_id === node.node_id);
    if (!n || !takeable(n, agentId, nodesById(g.nodes))) return false;
    startInGraph(g, n, agentId, at);
    n.updated_at = at;
    g.graph.updated_at = at;
    return true;
  });
}

/**
 * `schedule next`: ranks the ready nodes an agent may take (one graph or all) by the policy; picks the best
 * `limit`. By default each pick is started for the agent atomically (running, its agent set) and racing agents get
 * distinct nodes; `start: false` only ranks and records; `dry_run` records nothing. Each decision is recorded
 * with its score and one reason per term (schedule/decisions, newest 500) and a ScheduleDecision event.
 */
export async function scheduleNext(
  deps: CoordDeps,
  input: NextInput,
  worktrees: readonly LiveWorktree[],
): Promise<NextResult> {
  const limit = Math.min(Math.max(input.limit ?? 1, 1), MAX_NEXT_LIMIT);
  const dryRun = input.dry_run === true;
  const start = !dryRun && input.start !== false;
  const [policy, decisions, pressure, graphs] = await Promise.all([
    readPolicy(deps),
    readDecisions(deps),
    mergePressure(deps),
    input.graph_id === undefined ? readAllGraphs(deps) : readGraph(deps, input.graph_id).then((g) => [g]),
  ]);
  const recent = decisions
    .slice(-policy.fairness_window)
    .map((d) => fairnessKey({ ...d, repository: d.repository ?? undefined }));
  const pool = candidates(graphs, input.agent_id);
  const ranked = rankNodes(pool, { agentId: input.agent_id, policy, worktrees, pressure, recent });
  const at = deps.now().toISOString();
  const picked: ScheduleDecision[] = [];
  for (const s of ranked) {
    if (picked.length >= limit) break;
    if (start && !(await claim(deps, s.node, input.agent_id, at))) continue;
    picked.push(decisionOf(s, input.agent_id, at, start));
  }
  if (!dryRun) {
    await recordDecisions(deps, picked);
    for (const d of picked.filter((x) => x.started))
      await recordTaskEvent(deps, 'TaskStarted', d.graph_id, {
        node_id: d.node_id,
        title: d.title,
        agent_id: d.agent_id,
        ...(d.repository ? { repository: d.repository } : {}),
        decision_id: d.decision_id,
      });
  }
  const note =
    picked.length > 0
      ? undefined
      : pool.length === 0
        ? `no ready node${input.graph_id ? ` in graph ${input.graph_id}` : ''} that ${input.agent_id} may take`
        : `all ${pool.length} ready node(s) were taken by other agents meanwhile; ask again`;
  return {
    agent_id: input.agent_id,
    dry_run: dryRun,
    start,
    decisions: picked,
    ready_count: pool.length,
    ...(note ? { note } : {}),
  };
}
