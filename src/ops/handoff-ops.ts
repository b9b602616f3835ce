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
  newHandoff,
} from '../coord/index.js';
import { applyWhereStored } from './apply-where-stored.js';
import { coordDeps } from './coord-deps.js';
import { table } from './format.js';
import { pagedList } from './paged-op.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';

/** The spec's append route: the body is one handoff item; the server answers the normalized item. */
const CREATE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/handoffs', input: 'body' };
/** hub's own routes of the claim lease; a state server without them gets the change by compare-and-swap. */
const transition = (verb: string): HttpBinding => ({
  method: 'POST',
  route: `/v3/ops/handoffs/{id}/${verb}`,
  input: 'body',
});
const CLAIM_ROUTE = transition('claim');
const HEARTBEAT_ROUTE = transition('heartbeat');
const COMPLETE_ROUTE = transition('complete');
const CANCEL_ROUTE = transition('cancel');

const isHandoff = (v: unknown): v is Handoff =>
  typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string';

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
    // A whole handoff item (what a state client appends) is taken as well; these are the creator's own and are
    // stamped anew: a new handoff is open, dated now, with one create event.
    status: z.enum(['open']).optional().describe('Of a posted handoff item: a new handoff is open.'),
    created_at: z.string().optional().describe('Of a posted handoff item: replaced by the time of creation.'),
    updated_at: z.string().optional().describe('Of a posted handoff item: replaced by the time of creation.'),
    events: z
      .array(z.looseObject({ action: z.string(), note: z.string().optional() }))
      .max(1)
      .optional()
      .describe('Of a posted handoff item: its create event, whose note is the note when none is given.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<Handoff> => {
    const { status: _s, created_at: _c, updated_at: _u, ...create } = input;
    // The item as the spec's append route takes it, id included, so any contract server stores a whole handoff.
    const item = newHandoff(create, ctx.now());
    const out = await applyWhereStored<unknown>(ctx, CREATE_ROUTE, { ...item }, (deps) =>
      createHandoff(deps, { ...create, id: item.id }),
    );
    return isHandoff(out) ? out : item;
  },
  cli: {
    command: 'context handoff create',
    stdinJson: true,
    human: (h) => `created handoff ${h.id}: ${h.title}`,
  },
  mcp: { tool: 'hub_handoff_create' },
  http: [CREATE_ROUTE],
});

export const handoffList = pagedList(
  defineOp({
    id: 'context.handoff.list',
    summary: 'List handoffs as they stand: an expired claim shows released; listing never writes.',
    description:
      'The release is a release-expired event dated at the expiry; the next write of the handoffs records it.',
    input: z.strictObject({
      status: z.enum(HANDOFF_STATUSES).optional().describe('Only handoffs with this status.'),
    }),
    gate: 'active',
    // A pure view: listing never writes.
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
  }),
  { key: 'handoffs', noun: 'Handoffs', order: 'in stored order (oldest first)' },
);

export const handoffClaim = defineOp({
  id: 'context.handoff.claim',
  summary: 'Claim a handoff for an agent for a TTL; a live claim of another agent is refused.',
  input: z.strictObject({ id: idField, by: byField, ttl: ttlField }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<{ handoff: Handoff }> =>
    applyWhereStored(ctx, CLAIM_ROUTE, input, async (deps) => ({ handoff: await claimHandoff(deps, input) })),
  cli: { command: 'context handoff claim', human: (r) => claimLine(r.handoff) },
  mcp: { tool: 'hub_handoff_claim' },
  http: [CLAIM_ROUTE],
});

export const handoffHeartbeat = defineOp({
  id: 'context.handoff.heartbeat',
  summary: "Renew the holder's claim for the TTL (default: the claim's own TTL); only the holder may.",
  input: z.strictObject({ id: idField, by: byField, ttl: ttlField }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<{ handoff: Handoff }> =>
    applyWhereStored(ctx, HEARTBEAT_ROUTE, input, async (deps) => ({
      handoff: await heartbeatHandoff(deps, input),
    })),
  cli: { command: 'context handoff heartbeat', human: (r) => claimLine(r.handoff) },
  http: [HEARTBEAT_ROUTE],
});

export const handoffComplete = defineOp({
  id: 'context.handoff.complete',
  summary: 'Mark a handoff completed; refused while another agent holds a live claim.',
  input: z.strictObject({ id: idField, by: byField, note: noteField }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<{ handoff: Handoff }> =>
    applyWhereStored(ctx, COMPLETE_ROUTE, input, async (deps) => ({
      handoff: await completeHandoff(deps, input),
    })),
  cli: {
    command: 'context handoff complete',
    human: (r) => `${r.handoff.id} completed by ${r.handoff.completed_by}`,
  },
  mcp: { tool: 'hub_handoff_complete' },
  http: [COMPLETE_ROUTE],
});

export const handoffCancel = defineOp({
  id: 'context.handoff.cancel',
  summary: 'Cancel a handoff; refused while another agent holds a live claim, unless by its creator.',
  input: z.strictObject({ id: idField, by: byField, note: noteField }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<{ handoff: Handoff }> =>
    applyWhereStored(ctx, CANCEL_ROUTE, input, async (deps) => ({
      handoff: await cancelHandoff(deps, input),
    })),
  cli: {
    command: 'context handoff cancel',
    human: (r) => `${r.handoff.id} cancelled by ${r.handoff.cancelled_by}`,
  },
  http: [CANCEL_ROUTE],
});
