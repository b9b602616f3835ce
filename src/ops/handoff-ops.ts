import * as z from 'zod';
import {
  cancelHandoff,
  claimHandoff,
  completeHandoff,
  createHandoff,
  DURATION_RULE,
  HANDOFF_STATUSES,
  type Handoff,
  heartbeatHandoff,
  listHandoffs,
} from '../coord/index.js';
import { coordDeps } from './coord-deps.js';
import { table } from './format.js';
import { defineOp, READ_ONLY, WRITES } from './registry.js';

const idField = z.string().min(1).describe('Handoff id.');
const byField = z.string().min(1).describe('Agent acting on the handoff.');
const ttlField = z
  .string()
  .optional()
  .describe(`Claim TTL: ${DURATION_RULE}; without it the claim does not expire.`);
const noteField = z.string().optional().describe('Note recorded in the handoff events.');

const claimLine = (h: Handoff) =>
  h.status === 'claimed'
    ? `${h.id} claimed by ${h.claimed_by} ${h.claim_expires_at ? `until ${h.claim_expires_at}` : '(no expiry)'}`
    : `${h.id} ${h.status}`;

export const handoffCreate = defineOp({
  id: 'context.handoff.create',
  summary: 'Hand work over: create an open handoff (appended without compare-and-swap).',
  description: 'Reads a JSON object on stdin (flags win); the id is generated when absent.',
  input: z.strictObject({
    id: z.string().min(1).optional().describe('Handoff id ([A-Za-z0-9_.-]+); generated when absent.'),
    // Optional for the CLI only: a required flag could not come from stdin. The domain requires it.
    title: z.string().optional().describe('What is handed over (required).'),
    created_by: z.string().min(1).optional().describe('Agent handing over (default "agent").'),
    payload: z.record(z.string(), z.unknown()).optional().describe('Free-form JSON object for the taker.'),
    note: noteField,
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<Handoff> => createHandoff(coordDeps(ctx), input),
  cli: {
    command: 'context handoff create',
    stdinJson: true,
    human: (h) => `created handoff ${h.id}: ${h.title}`,
  },
  mcp: { tool: 'hub_handoff_create' },
  http: [{ method: 'POST', route: '/v3/ops/handoffs', input: 'body' }],
});

export const handoffList = defineOp({
  id: 'context.handoff.list',
  summary: 'List handoffs; expired claims are released first (recorded as release-expired events).',
  input: z.strictObject({
    status: z.enum(HANDOFF_STATUSES).optional().describe('Only handoffs with this status.'),
  }),
  gate: 'active',
  // Releasing expired claims is housekeeping of the read, not a change the caller asks for.
  attributes: READ_ONLY,
  handler: (ctx, input): Promise<{ handoffs: Handoff[]; released: string[] }> =>
    listHandoffs(coordDeps(ctx), input.status),
  cli: {
    command: 'context handoff list',
    human: (r) =>
      table(
        r.handoffs.map((h) => [h.id, h.status, h.claimed_by ?? '-', h.claim_expires_at ?? '-', h.title]),
        ['ID', 'STATUS', 'HOLDER', 'EXPIRES', 'TITLE'],
      ) || 'no handoffs',
  },
  mcp: { tool: 'hub_handoff_list' },
  http: [{ method: 'GET', route: '/v3/ops/handoffs', input: 'query' }],
});

export const handoffClaim = defineOp({
  id: 'context.handoff.claim',
  summary: 'Claim a handoff for an agent for a TTL; a live claim of another agent is refused.',
  input: z.strictObject({ id: idField, by: byField, ttl: ttlField }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ handoff: Handoff }> => ({
    handoff: await claimHandoff(coordDeps(ctx), input),
  }),
  cli: { command: 'context handoff claim', human: (r) => claimLine(r.handoff) },
  mcp: { tool: 'hub_handoff_claim' },
});

export const handoffHeartbeat = defineOp({
  id: 'context.handoff.heartbeat',
  summary: "Renew the holder's claim for the TTL (default: the claim's own TTL); only the holder may.",
  input: z.strictObject({ id: idField, by: byField, ttl: ttlField }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ handoff: Handoff }> => ({
    handoff: await heartbeatHandoff(coordDeps(ctx), input),
  }),
  cli: { command: 'context handoff heartbeat', human: (r) => claimLine(r.handoff) },
});

export const handoffComplete = defineOp({
  id: 'context.handoff.complete',
  summary: 'Mark a handoff completed; refused while another agent holds a live claim.',
  input: z.strictObject({ id: idField, by: byField, note: noteField }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ handoff: Handoff }> => ({
    handoff: await completeHandoff(coordDeps(ctx), input),
  }),
  cli: {
    command: 'context handoff complete',
    human: (r) => `${r.handoff.id} completed by ${r.handoff.completed_by}`,
  },
  mcp: { tool: 'hub_handoff_complete' },
});

export const handoffCancel = defineOp({
  id: 'context.handoff.cancel',
  summary: 'Cancel a handoff; refused while another agent holds a live claim, unless by its creator.',
  input: z.strictObject({ id: idField, by: byField, note: noteField }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ handoff: Handoff }> => ({
    handoff: await cancelHandoff(coordDeps(ctx), input),
  }),
  cli: {
    command: 'context handoff cancel',
    human: (r) => `${r.handoff.id} cancelled by ${r.handoff.cancelled_by}`,
  },
});
