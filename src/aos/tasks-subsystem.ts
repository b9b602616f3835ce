import { listAgents } from '../acl/index.js';
import type { CoordDeps } from '../coord/index.js';
import { scheduleStatus } from '../schedule/index.js';
import { listNodes, requeueNode, taskSummary } from '../taskgraph/index.js';
import type { Recoverer } from './recover.js';
import type { AosSubsystem, Finding } from './subsystem.js';

const nodeCommand = (n: { graph_id: string; node_id: string }) =>
  `hub task status --graph-id ${n.graph_id} --node-id ${n.node_id}`;

/**
 * The task graph: node counts by state. The doctor names blocked nodes, running nodes whose agent is no longer
 * live (stalled), and a graph with pending work and nothing ready or running (nothing can move).
 */
export function taskgraphSubsystem(deps: CoordDeps): AosSubsystem {
  return {
    name: 'taskgraph',
    summary: async () => ({ ...(await taskSummary(deps)) }),
    async findings(summary) {
      const out: Finding[] = [];
      for (const n of await listNodes(deps, { status: 'blocked' }))
        out.push({
          severity: 'warning',
          code: 'blocked_task',
          subsystem: 'taskgraph',
          subject: `${n.graph_id}/${n.node_id}`,
          message: `task ${n.graph_id}/${n.node_id} is blocked: ${n.blocker_reason ?? 'no reason given'}`,
          command: nodeCommand(n),
        });
      const live = new Set((await listAgents(deps)).filter((a) => a.live).map((a) => a.agent_id));
      for (const n of await listNodes(deps, { status: 'running' }))
        if (n.agent_id !== undefined && !live.has(n.agent_id))
          out.push({
            severity: 'warning',
            code: 'stalled_task',
            subsystem: 'taskgraph',
            subject: `${n.graph_id}/${n.node_id}`,
            message: `task ${n.graph_id}/${n.node_id} is running for ${n.agent_id}, which is not live`,
            command: `hub aos recover --agent-id ${n.agent_id}`,
          });
      const count = (k: string) => Number(summary[k] ?? 0);
      if (count('pending') > 0 && count('ready') === 0 && count('running') === 0)
        out.push({
          severity: 'info',
          code: 'empty_ready_set',
          subsystem: 'taskgraph',
          message: `${count('pending')} task(s) wait and none is ready or running: a dependency is blocked or cancelled`,
          command: 'hub task list --status pending',
        });
      return out;
    },
  };
}

/** The scheduler: ready count, decisions kept, the newest decision ids and merge pressure (a pure read). */
export function schedulerSubsystem(deps: CoordDeps): AosSubsystem {
  return {
    name: 'scheduler',
    async summary() {
      const s = await scheduleStatus(deps, { recent: 5 });
      return {
        ready_count: s.ready_count,
        decisions_kept: s.decisions_kept,
        recent_decision_ids: s.recent_decisions.map((d) => d.decision_id),
        merge_pressure: s.merge_pressure,
      };
    },
  };
}

/** Recovery puts a dead agent's running nodes back (ready, or pending while a dependency is not done). */
export function tasksRecoverer(deps: CoordDeps): Recoverer {
  return {
    name: 'tasks',
    holders: async () => [
      ...new Set(
        (await listNodes(deps, { status: 'running' })).flatMap((n) => (n.agent_id ? [n.agent_id] : [])),
      ),
    ],
    async recover(agentId, dryRun) {
      const running = await listNodes(deps, { status: 'running', agent_id: agentId });
      const out: Array<Record<string, unknown>> = [];
      for (const n of running) {
        if (dryRun) {
          out.push({ graph_id: n.graph_id, node_id: n.node_id, status: 'requeue' });
          continue;
        }
        const r = await requeueNode(deps, {
          graph_id: n.graph_id,
          node_id: n.node_id,
          reason: `aos recover: agent ${agentId} is not live`,
        });
        out.push({ graph_id: n.graph_id, node_id: n.node_id, status: r.node.status });
      }
      return out;
    },
  };
}
