import {
  type AgentEntry,
  agentsWithHoldings,
  isLive,
  listClaims,
  locateWorktree,
  readAllocations,
  readLeases,
  readWorktreeRecords,
  type WorktreeDeps,
} from '../acl/index.js';
import type { AosSubsystem, Finding } from './subsystem.js';

/** Live leases `aos status` lists with their fences (the count is leases_active; `lease list` pages them all). */
const MAX_LISTED_LEASES = 100;

/** Agents that are not live but still hold live records: what `aos recover` releases. */
export const deadHolders = (agents: AgentEntry[]): AgentEntry[] =>
  agents.filter((a) => !a.live && Object.values(a.holds).some((list) => list.length > 0));

const held = (a: AgentEntry) =>
  Object.entries(a.holds)
    .filter(([, list]) => list.length > 0)
    .map(
      ([c, list]) =>
        `${list.length} ${c === 'branches' ? 'branch' : c.replace(/s$/, '')}${list.length > 1 ? 's' : ''}`,
    )
    .join(', ');

/**
 * The advisory-coordination subsystem: agents, branches, leases, worktrees and claims. The doctor finds agents
 * that died holding records (stale leases, claims and worktrees) and worktrees of this machine that are orphaned
 * (their folder is gone, or their record ended) and says which command deals with each.
 */
export function aclSubsystem(deps: WorktreeDeps): AosSubsystem {
  let agents: AgentEntry[] = [];
  return {
    name: 'acl',
    async summary() {
      const now = deps.now();
      agents = await agentsWithHoldings(deps);
      const leases = await readLeases(deps);
      const worktrees = await readWorktreeRecords(deps);
      const live = leases.filter((l) => isLive(l, now));
      return {
        agents_live: agents.filter((a) => a.live).length,
        agents_lapsed: agents.filter((a) => !a.live).length,
        dead_holders: deadHolders(agents).map((a) => a.agent_id),
        branches_active: (await readAllocations(deps)).filter((b) => b.status === 'active').length,
        leases_active: live.length,
        leases_expired: leases.filter((l) => l.status === 'expired').length,
        // Who holds which task now, and with which fence: what a merge of that task's work is judged by.
        leases_live: live.slice(0, MAX_LISTED_LEASES).map((l) => ({
          lease_id: l.lease_id,
          repository: l.repository,
          task_id: l.task_id,
          agent_id: l.agent_id,
          fence: l.fence ?? null,
          expires_at: l.expires_at,
        })),
        worktrees_active: worktrees.filter((w) => isLive(w, now)).length,
        worktrees_total: worktrees.length,
        claims_active: (await listClaims(deps, { status: 'active' })).length,
      };
    },
    async findings() {
      const now = deps.now();
      const out: Finding[] = [];
      for (const a of deadHolders(agents))
        out.push({
          severity: 'warning',
          code: 'dead_agent_holdings',
          subsystem: 'acl',
          subject: a.agent_id,
          message: `agent ${a.agent_id} is not live (last seen ${a.last_seen ?? 'never'}) and still holds ${held(a)}`,
          command: `hub aos recover --agent-id ${a.agent_id}`,
        });
      for (const a of deadHolders(agents))
        for (const l of a.holds.leases)
          out.push({
            severity: 'warning',
            code: 'stale_lease',
            subsystem: 'acl',
            subject: String(l.lease_id),
            message: `lease ${l.lease_id} of ${l.repository} (task ${l.task_id}) is held until ${l.expires_at} by agent ${a.agent_id}, which is not live`,
            command: `hub aos recover --agent-id ${a.agent_id}`,
          });
      for (const w of await readWorktreeRecords(deps)) {
        if (w.host !== deps.host) continue;
        const state = locateWorktree(w, deps.host).state;
        const why =
          state === 'missing' || state === 'pruned'
            ? `its folder is gone (${state})`
            : !isLive(w, now)
              ? `its record is ${w.status === 'active' ? 'expired' : w.status}`
              : undefined;
        if (why === undefined) continue;
        out.push({
          severity: 'warning',
          code: 'orphan_worktree',
          subsystem: 'acl',
          subject: w.id,
          message: `worktree ${w.id} of ${w.repository} (${w.agent_id}, task ${w.task_id}) is orphaned: ${why}`,
          command: 'hub worktree gc --dry-run',
        });
      }
      return out;
    },
  };
}
