import * as z from 'zod';
import { checkAgentId, DEFAULT_ACL_TTL, expiryOf, isLive } from './liveness.js';
import { ACL, type AclDeps, aclDocument, aclDocuments, readAcl, updateAcl } from './records.js';

/** One agent of the registry (`agents/<agent_id>`): when it was first and last seen, and until when it counts as live. */
export const AgentRecordSchema = z.looseObject({
  agent_id: z.string(),
  status: z.enum(['active', 'gone']).default('active'),
  first_seen: z.string(),
  last_seen: z.string(),
  ttl: z.string().default(DEFAULT_ACL_TTL),
  expires_at: z.string().nullable().optional(),
  /** What the agent last said it was doing (free text: a task id, a note). */
  note: z.string().optional(),
});
export type AgentRecord = z.infer<typeof AgentRecordSchema>;
const AgentDocSchema = z.looseObject({ agent: AgentRecordSchema.optional() });

/**
 * Records that `agentId` was seen now (every claim, lease and worktree call does), extending its liveness by `ttl`
 * (default 30m). Returns the record.
 */
export async function touchAgent(
  deps: AclDeps,
  agentId: string,
  opts: { ttl?: string; note?: string } = {},
): Promise<AgentRecord> {
  checkAgentId(agentId);
  const now = deps.now();
  const at = now.toISOString();
  return updateAcl(deps, aclDocument(ACL.agents, agentId), AgentDocSchema, (doc) => {
    const ttl = opts.ttl ?? doc.agent?.ttl ?? DEFAULT_ACL_TTL;
    const agent: AgentRecord = {
      ...(doc.agent ?? {}),
      agent_id: agentId,
      status: 'active',
      first_seen: doc.agent?.first_seen ?? at,
      last_seen: at,
      ...expiryOf(ttl, now),
      ...(opts.note !== undefined ? { note: opts.note } : {}),
    };
    doc.agent = agent;
    return agent;
  });
}

/** Every agent of the registry with whether it is live at `now`, by id. */
export async function listAgents(deps: AclDeps): Promise<Array<AgentRecord & { live: boolean }>> {
  const now = deps.now();
  const out: Array<AgentRecord & { live: boolean }> = [];
  for (const name of await aclDocuments(deps, ACL.agents)) {
    const { agent } = await readAcl(deps, name, AgentDocSchema);
    if (agent) out.push({ ...agent, live: isLive(agent, now) });
  }
  return out.sort((a, b) => (a.agent_id < b.agent_id ? -1 : a.agent_id > b.agent_id ? 1 : 0));
}
