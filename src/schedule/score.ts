import type { TaskNode } from '../taskgraph/index.js';
import type { SchedulePolicy } from './policy.js';

/** A live worktree (the ACL room's record): its repository and its agent. */
export interface LiveWorktree {
  repository: string;
  agent_id: string;
}

/** What a score is judged against, besides the node. */
export interface ScoreContext {
  agentId: string;
  policy: SchedulePolicy;
  worktrees: readonly LiveWorktree[];
  /** Queued and running merges by repository (mergePressure). */
  pressure: Readonly<Record<string, number>>;
  /** Repositories (or `graph:<id>` for nodes without one) of the last `fairness_window` decisions. */
  recent: readonly string[];
}

/** Each weighted term of a score; `pressure` is zero or minus the penalty. */
export interface ScoreTerms {
  priority: number;
  affinity: number;
  cost: number;
  fairness: number;
  pressure: number;
}

export interface Scored {
  node: TaskNode;
  score: number;
  terms: ScoreTerms;
  /** One line per term: what it saw and what it added. */
  reasons: string[];
  /** The tokens the cost term used (estimated_tokens, else context_budget, else 1000). */
  tokens: number;
}

/** Tokens a node is assumed to cost when it says nothing. */
export const DEFAULT_TOKENS = 1000;

const round = (n: number) => Math.round(n * 1e6) / 1e6;
const fmt = (n: number) => String(round(n));

/** The key fairness counts a node under: its repository, else its graph. */
export const fairnessKey = (n: Pick<TaskNode, 'repository' | 'graph_id'>) =>
  n.repository ?? `graph:${n.graph_id}`;

/** Scores one ready node for an agent; every term says why in one line. */
export function scoreNode(node: TaskNode, ctx: ScoreContext): Scored {
  const w = ctx.policy.weights;
  const repo = node.repository;
  const reasons: string[] = [];

  const priority = w.priority * node.priority;
  reasons.push(`priority: ${node.priority} x weight ${w.priority} = ${fmt(priority)}`);

  let warm = 0;
  let why = repo ? `no live worktree of ${repo}` : 'the node names no repository';
  if (node.acl?.agent_id === ctx.agentId) {
    warm = 1;
    why = `bound to ${ctx.agentId} (its worktree ${node.acl.worktree_id ?? 'recorded'})`;
  } else if (repo) {
    const here = ctx.worktrees.filter((t) => t.repository === repo);
    if (here.some((t) => t.agent_id === ctx.agentId)) {
      warm = 1;
      why = `${ctx.agentId} has a live worktree of ${repo}`;
    } else if (here.length > 0) {
      warm = 0.5;
      why = `${here.length} live worktree(s) of ${repo}, none of ${ctx.agentId}`;
    }
  }
  const affinity = w.affinity * warm;
  reasons.push(`affinity: ${why}: ${warm} x weight ${w.affinity} = ${fmt(affinity)}`);

  const tokens = node.estimated_tokens ?? node.context_budget ?? DEFAULT_TOKENS;
  const source =
    node.estimated_tokens !== undefined
      ? 'estimated_tokens'
      : node.context_budget !== undefined
        ? 'context_budget'
        : 'default';
  const cheap = 1 / (1 + tokens / 1000);
  const cost = w.cost * cheap;
  reasons.push(
    `cost: ${tokens} tokens (${source}): 1/(1+${tokens}/1000) = ${fmt(cheap)} x weight ${w.cost} = ${fmt(cost)}`,
  );

  const key = fairnessKey(node);
  const seen = ctx.recent.filter((k) => k === key).length;
  const share = ctx.recent.length === 0 ? 0 : seen / ctx.recent.length;
  const fairness = w.fairness * (1 - share);
  reasons.push(
    `fairness: ${key} had ${seen} of the last ${ctx.recent.length} decisions: (1 - ${fmt(share)}) x weight ${w.fairness} = ${fmt(fairness)}`,
  );

  const queued = repo ? (ctx.pressure[repo] ?? 0) : 0;
  const pressed = queued >= ctx.policy.merge_queue_threshold;
  const pressure = pressed ? -ctx.policy.merge_pressure_penalty : 0;
  reasons.push(
    pressed
      ? `merge pressure: ${repo} has ${queued} merge(s) queued or running (threshold ${ctx.policy.merge_queue_threshold}): -${ctx.policy.merge_pressure_penalty}`
      : `merge pressure: ${repo ?? 'no repository'}: ${queued} queued or running (threshold ${ctx.policy.merge_queue_threshold}): 0`,
  );

  const terms = {
    priority: round(priority),
    affinity: round(affinity),
    cost: round(cost),
    fairness: round(fairness),
    pressure: round(pressure),
  };
  return { node, score: round(priority + affinity + cost + fairness + pressure), terms, reasons, tokens };
}

/** Ranks nodes: score (high first), then tokens (cheap first), then graph id and node id, so ties are stable. */
export function rankNodes(nodes: readonly TaskNode[], ctx: ScoreContext): Scored[] {
  return nodes
    .map((n) => scoreNode(n, ctx))
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.tokens - b.tokens ||
        (a.node.graph_id < b.node.graph_id ? -1 : a.node.graph_id > b.node.graph_id ? 1 : 0) ||
        (a.node.node_id < b.node.node_id ? -1 : a.node.node_id > b.node.node_id ? 1 : 0),
    );
}
