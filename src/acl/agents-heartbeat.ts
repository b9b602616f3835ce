import { type AgentRecord, touchAgent } from './agents.js';
import { heartbeatClaims } from './claims-lifecycle.js';
import { renewAgentLeases } from './leases.js';
import type { AclDeps } from './records.js';

/** Renews every live record of one collection that an agent holds; returns the renewed records. */
export type HoldingRenewer = (deps: AclDeps, agentId: string) => Promise<Array<Record<string, unknown>>>;

/**
 * What an agent heartbeat renews besides the agent itself, by collection. Leases renew here; a room whose records
 * should live as long as their agent does adds its renewer to this list. Claims renew here too, so an agent that
 * only heartbeats keeps its paths; a dead agent's claims still lapse with their TTL.
 */
export const HEARTBEAT_RENEWERS: Readonly<Record<string, HoldingRenewer>> = {
  leases: (deps, agentId) => renewAgentLeases(deps, agentId) as Promise<Array<Record<string, unknown>>>,
  claims: (deps, agentId) =>
    heartbeatClaims(deps, { agent_id: agentId }) as unknown as Promise<Array<Record<string, unknown>>>,
};

export interface HeartbeatResult {
  agent: AgentRecord;
  /** The records renewed, by collection (each for its own TTL). */
  renewed: Record<string, Array<Record<string, unknown>>>;
}

/**
 * The `aos heartbeat`-style liveness of an agent: marks it seen now for `ttl` (default: its own, else 30m) and
 * renews every live holding it has (HEARTBEAT_RENEWERS), so one call a while keeps all of an agent's work held.
 */
export async function agentHeartbeat(
  deps: AclDeps,
  agentId: string,
  opts: { ttl?: string; note?: string } = {},
): Promise<HeartbeatResult> {
  const agent = await touchAgent(deps, agentId, opts);
  const renewed: Record<string, Array<Record<string, unknown>>> = {};
  for (const [collection, renew] of Object.entries(HEARTBEAT_RENEWERS))
    renewed[collection] = await renew(deps, agentId);
  return { agent, renewed };
}
