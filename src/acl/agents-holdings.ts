import { type AgentRecord, listAgents } from './agents.js';
import { isLive } from './liveness.js';
import { ACL, type AclCollection, type AclDeps, aclDocuments } from './records.js';

/** The collections whose records an agent holds, as `agent registry` lists them. */
export const HOLDING_COLLECTIONS = [ACL.branches, ACL.leases, ACL.worktrees, ACL.claims] as const;
export type Holdings = Record<(typeof HOLDING_COLLECTIONS)[number], Array<Record<string, unknown>>>;

export interface AgentEntry {
  agent_id: string;
  status: AgentRecord['status'];
  /** Null for an agent that holds records but was never seen (written by an older build). */
  first_seen: string | null;
  last_seen: string | null;
  ttl: string | null;
  expires_at?: string | null;
  note?: string;
  live: boolean;
  /** What the agent holds now: the live records of every ACL collection that name it, by collection. */
  holds: Holdings;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The live records of a collection's documents, by agent. Records are read generically (every list of a document
 * whose items carry `agent_id` and `status`), so claims and worktrees, whose rooms define their own shapes, count
 * the same way: live is `isLive` (status `active`, not past `expires_at`), the one rule every room uses.
 */
async function liveRecordsByAgent(
  deps: AclDeps,
  collection: AclCollection,
): Promise<Map<string, Array<Record<string, unknown>>>> {
  const now = deps.now();
  const out = new Map<string, Array<Record<string, unknown>>>();
  for (const name of await aclDocuments(deps, collection)) {
    const { value } = await deps.store.read(name);
    if (!isObject(value)) continue;
    for (const list of Object.values(value)) {
      if (!Array.isArray(list)) continue;
      for (const item of list) {
        if (!isObject(item) || typeof item.agent_id !== 'string' || typeof item.status !== 'string') continue;
        const expires = item.expires_at;
        const holding = {
          status: item.status,
          expires_at: typeof expires === 'string' ? expires : null,
        };
        if (!isLive(holding, now)) continue;
        const mine = out.get(item.agent_id) ?? [];
        mine.push(item);
        out.set(item.agent_id, mine);
      }
    }
  }
  return out;
}

/**
 * The agents registry with what each agent holds: every agent seen (live or lapsed), and every agent that holds a
 * live record without having been seen (a record written by an older build), sorted by id.
 */
export async function agentsWithHoldings(deps: AclDeps): Promise<AgentEntry[]> {
  const agents = await listAgents(deps);
  const held = new Map<string, Holdings>();
  const empty = (): Holdings => ({ branches: [], leases: [], worktrees: [], claims: [] });
  for (const c of HOLDING_COLLECTIONS)
    for (const [agent, records] of await liveRecordsByAgent(deps, c)) {
      const h = held.get(agent) ?? empty();
      h[c] = records;
      held.set(agent, h);
    }
  const out: AgentEntry[] = agents.map((a) => ({ ...a, holds: held.get(a.agent_id) ?? empty() }));
  for (const [agent, holds] of held)
    if (!agents.some((a) => a.agent_id === agent))
      out.push({
        agent_id: agent,
        status: 'active',
        first_seen: null,
        last_seen: null,
        ttl: null,
        expires_at: null,
        live: false,
        holds,
      });
  return out.sort((a, b) => (a.agent_id < b.agent_id ? -1 : a.agent_id > b.agent_id ? 1 : 0));
}
