import * as z from 'zod';
import {
  type AgentEntry,
  agentHeartbeat,
  agentsWithHoldings,
  checkAgentId,
  expiryOf,
  type HeartbeatResult,
} from '../acl/index.js';
import { aclDeps, aclFields } from './acl-deps.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp } from './cli-help.js';
import { table } from './format.js';
import { pagedList } from './paged-op.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';

const HEARTBEAT_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/agents/heartbeat', input: 'body' };

const count = (a: AgentEntry) =>
  Object.entries(a.holds)
    .filter(([, list]) => list.length > 0)
    .map(([c, list]) => `${list.length} ${c}`)
    .join(', ') || '-';

export const agentRegistry = pagedList(
  defineOp({
    id: 'agent.registry',
    summary: 'The agents registry: who is live and what each holds.',
    description:
      'An agent is live until its TTL (default 30m) passes without a call or heartbeat. Holdings are judged by their ' +
      'own expiry. Listing never writes.',
    input: z.strictObject({
      agent_id: cliHelp(z.string().min(1).optional(), 'Only this agent.'),
      live: cliHelp(z.boolean().default(false), 'Only agents live now.'),
    }),
    gate: 'active',
    attributes: READ_ONLY,
    handler: async (ctx, input): Promise<{ agents: AgentEntry[] }> => {
      const agents = (await agentsWithHoldings(aclDeps(ctx)))
        .filter((a) => input.agent_id === undefined || a.agent_id === input.agent_id)
        .filter((a) => !input.live || a.live);
      return { agents };
    },
    cli: {
      command: 'agent registry',
      human: (r) =>
        table(
          r.agents.map((a) => [a.agent_id, a.live ? 'live' : 'lapsed', a.last_seen ?? '-', count(a)]),
          ['AGENT', 'STATE', 'LAST SEEN', 'HOLDS'],
        ) || 'no agents',
    },
    mcp: { tool: 'hub_agent_registry', when: 'Use when asking who is active.' },
    http: [{ method: 'GET', route: '/v3/ops/agents', input: 'query' }],
  }),
  { key: 'agents', noun: 'Agents', order: 'by agent id' },
);

export const agentHeartbeatOp = defineOp({
  id: 'agent.heartbeat',
  summary: 'Mark an agent live for its TTL and renew its live leases and claims.',
  input: z.strictObject({
    agent_id: aclFields.agent_id,
    ttl: aclFields.ttl,
    note: z.string().max(500).optional().describe('What you are doing.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<HeartbeatResult> => {
    checkAgentId(input.agent_id);
    if (input.ttl !== undefined) expiryOf(input.ttl, ctx.now());
    return applyWhereStored(ctx, HEARTBEAT_ROUTE, input, (deps) =>
      agentHeartbeat(deps, input.agent_id, { ttl: input.ttl, note: input.note }),
    );
  },
  cli: {
    command: 'agent heartbeat',
    human: (r) =>
      `${r.agent.agent_id} live until ${r.agent.expires_at}; renewed ${Object.entries(r.renewed)
        .map(([c, list]) => `${list.length} ${c}`)
        .join(', ')}`,
  },
  mcp: { tool: 'hub_agent_heartbeat', when: 'Use when your work outlasts its TTLs.' },
  http: [HEARTBEAT_ROUTE],
});
