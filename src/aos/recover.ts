import {
  type AgentEntry,
  agentsWithHoldings,
  type Blocker,
  type RepoOf,
  readWorktreeRecords,
  releaseAllocation,
  releaseClaims,
  releaseLease,
  removeWorktree,
  type WorktreeDeps,
} from '../acl/index.js';
import { recordEvent } from '../coord/index.js';
import { RefusedError } from '../infra/index.js';
import { deadHolders } from './acl-subsystem.js';

/**
 * What another room gives back for a dead agent (running task nodes requeued, open runs abandoned): the ops
 * layer adds one per room, so recovery covers every subsystem without this room importing them.
 */
export interface Recoverer {
  name: string;
  /** Agents that hold something in this room (the caller keeps the ones that are not live). */
  holders(): Promise<string[]>;
  recover(agentId: string, dryRun: boolean): Promise<Array<Record<string, unknown>>>;
}

export interface WorktreeRecovery {
  id: string;
  repository: string;
  path: string;
  /** `removed` / `pruned` (or `would_*` when dry), `kept` when work would be lost, `elsewhere` on another machine. */
  action: string;
  reasons: Blocker[];
  host?: string;
}

export interface AgentRecovery {
  agent_id: string;
  last_seen: string | null;
  leases: string[];
  claims: string[];
  branches: string[];
  worktrees: WorktreeRecovery[];
  /** What the other rooms did, by room (`tasks`, `runs`). */
  other: Record<string, Array<Record<string, unknown>>>;
}

export interface RecoverResult {
  dry_run: boolean;
  agents: AgentRecovery[];
}

export interface RecoverOptions {
  /** The agents to recover; default every agent that is not live and still holds something. */
  agentIds?: string[];
  dryRun: boolean;
  /** Recover named agents even while they are live (a person knows the process died). */
  force: boolean;
  recoverers?: readonly Recoverer[];
}

const str = (v: unknown) => String(v);

/** An agent the registry never saw (records written by an older build, or another room's actor). */
const unseen = (id: string): AgentEntry => ({
  agent_id: id,
  status: 'active',
  first_seen: null,
  last_seen: null,
  ttl: null,
  live: false,
  holds: { branches: [], leases: [], worktrees: [], claims: [] },
});

/**
 * `aos recover`: gives back what dead agents held, so their tasks and paths are free again. Leases, claims and
 * branch allocations are released by `hub` (the events say `released_by: hub`, forced) without marking the dead
 * agent seen; git branches stay (their commits are work; `branch cleanup` decides later). Worktrees of this
 * machine are removed only when clean: uncommitted changes, untracked files or unpushed commits keep a worktree
 * (reported with the reasons), never forced. Worktrees of other machines are reported for a recover run there.
 */
export async function recoverAgents(
  deps: WorktreeDeps,
  repoOf: RepoOf,
  opts: RecoverOptions,
): Promise<RecoverResult> {
  const agents = await agentsWithHoldings(deps);
  let chosen: AgentEntry[];
  if (opts.agentIds && opts.agentIds.length > 0) {
    chosen = [];
    for (const id of opts.agentIds) {
      const a = agents.find((x) => x.agent_id === id);
      if (a?.live && !opts.force)
        throw new RefusedError(
          `agent_id: agent ${id} is live until ${a.expires_at}; recover it once it stops (or --force when you know its process is gone)`,
          { field: 'agent_id', value: id, rule: 'agent_not_live', expires_at: a.expires_at },
          409,
        );
      chosen.push(a ?? unseen(id));
    }
  } else {
    chosen = deadHolders(agents);
    // Agents whose only holdings are in other rooms (a running task, an open run) are dead holders too.
    const live = new Set(agents.filter((a) => a.live).map((a) => a.agent_id));
    const known = new Set(chosen.map((a) => a.agent_id));
    for (const r of opts.recoverers ?? [])
      for (const id of await r.holders()) {
        if (live.has(id) || known.has(id)) continue;
        known.add(id);
        const seen = agents.find((a) => a.agent_id === id);
        chosen.push(seen ?? unseen(id));
      }
    chosen.sort((a, b) => a.agent_id.localeCompare(b.agent_id));
  }

  const out: AgentRecovery[] = [];
  for (const agent of chosen) out.push(await recoverOne(deps, repoOf, agent, opts));
  return { dry_run: opts.dryRun, agents: out };
}

async function recoverOne(
  deps: WorktreeDeps,
  repoOf: RepoOf,
  agent: AgentEntry,
  opts: RecoverOptions,
): Promise<AgentRecovery> {
  const id = agent.agent_id;
  const r: AgentRecovery = {
    agent_id: id,
    last_seen: agent.last_seen,
    leases: agent.holds.leases.map((l) => str(l.lease_id)),
    claims: agent.holds.claims.map((c) => str(c.claim_id)),
    branches: agent.holds.branches.map((b) => str(b.name)),
    worktrees: [],
    other: {},
  };
  if (!opts.dryRun) {
    for (const l of agent.holds.leases)
      await releaseLease(deps, {
        repository: await repoOf(str(l.repository)),
        agent_id: id,
        lease_id: str(l.lease_id),
        byHub: true,
      });
    for (const c of agent.holds.claims) await releaseClaims(deps, { claim_id: str(c.claim_id), force: true });
    for (const b of agent.holds.branches)
      await releaseAllocation(deps, {
        repository: await repoOf(str(b.repository)),
        agent_id: id,
        branch_id: str(b.branch_id),
        byHub: true,
        reason: 'aos recover: agent not live',
      });
  }
  for (const w of (await readWorktreeRecords(deps)).filter((x) => x.agent_id === id)) {
    const base = { id: w.id, repository: w.repository, path: w.path };
    if (w.host !== deps.host) {
      r.worktrees.push({ ...base, action: 'elsewhere', reasons: [], host: w.host });
      continue;
    }
    const done = await removeWorktree(deps, repoOf, w, { force: false, dryRun: opts.dryRun });
    r.worktrees.push({
      ...base,
      action: done.action === 'skipped' ? 'kept' : done.action,
      reasons: done.reasons,
    });
  }
  for (const room of opts.recoverers ?? []) r.other[room.name] = await room.recover(id, opts.dryRun);
  if (!opts.dryRun)
    await recordEvent(
      deps.store,
      {
        source: 'aos',
        kind: 'AgentRecovered',
        subject: id,
        data: {
          agent_id: id,
          leases: r.leases,
          claims: r.claims,
          branches: r.branches,
          worktrees: r.worktrees.map((w) => ({ id: w.id, action: w.action })),
          ...Object.fromEntries(Object.entries(r.other).map(([k, v]) => [k, v.length])),
        },
      },
      deps.now,
    );
  return r;
}
