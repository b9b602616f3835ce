import { type AclDeps, listAgents } from '../acl/index.js';
import { closeRun, listRuns } from '../runs/index.js';
import type { Recoverer } from './recover.js';
import type { AosSubsystem, Finding } from './subsystem.js';

/** The run ledger: open runs, and the doctor's word on runs left open by agents that are no longer live. */
export function runsSubsystem(deps: AclDeps): AosSubsystem {
  let orphaned: Array<{ run_id: string; actor: string; opened_at: string }> = [];
  return {
    name: 'runs',
    async summary() {
      const open = await listRuns(deps, { open: true });
      const live = new Set((await listAgents(deps)).filter((a) => a.live).map((a) => a.agent_id));
      orphaned = open
        .filter((r) => !live.has(r.actor))
        .map((r) => ({ run_id: r.run_id, actor: r.actor, opened_at: r.opened_at }));
      return { open: open.length, open_by_lapsed_agents: orphaned.length };
    },
    findings(): Finding[] {
      return orphaned.map((r) => ({
        severity: 'warning',
        code: 'orphan_run',
        subsystem: 'runs',
        subject: r.run_id,
        message: `run ${r.run_id} opened by ${r.actor} at ${r.opened_at} is still open, and ${r.actor} is not live`,
        command: `hub aos recover --agent-id ${r.actor}`,
      }));
    },
  };
}

/** Recovery closes a dead agent's open runs as `abandoned`, by `hub`, so the ledger says what became of them. */
export function runsRecoverer(deps: AclDeps): Recoverer {
  return {
    name: 'runs',
    holders: async () => [...new Set((await listRuns(deps, { open: true })).map((r) => r.actor))],
    async recover(agentId, dryRun) {
      const open = await listRuns(deps, { open: true, actor: agentId });
      if (!dryRun)
        for (const r of open)
          await closeRun(deps, {
            run_id: r.run_id,
            outcome: 'abandoned',
            by: 'hub',
            note: `aos recover: agent ${agentId} is not live`,
          });
      return open.map((r) => ({ run_id: r.run_id, outcome: 'abandoned' }));
    },
  };
}
