import * as z from 'zod';
import {
  cancelHandoff,
  claimHandoff,
  completeHandoff,
  createHandoff,
  HANDOFF_STATUSES,
  type Handoff,
  heartbeatHandoff,
  listHandoffs,
  newHandoff,
} from '../coord/index.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp, unlisted } from './cli-help.js';
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

const idField = cliHelp(z.string().min(1), 'Handoff id.');
const byField = cliHelp(z.string().min(1).describe('Your agent id.'), 'Agent acting on the handoff.');
const ttlField = z.string().optional().describe('e.g. 30m, 2h, 1d (digits: seconds); none: no expiry.');
const noteField = z.string().optional().describe('Recorded with the event.');

const claimLine = (h: Handoff) =>
  h.status === 'claimed'
    ? `${h.id} claimed by ${h.claimed_by} ${h.claim_expires_at ? `until ${h.claim_expires_at}` : '(no expiry)'}`
    : `${h.id} ${h.status}`;

export const handoffCreate = defineOp({
  id: 'context.handoff.create',
  summary: 'Create an open handoff of work for another agent to claim.',
  description: 'Reads a JSON object on stdin (flags win); the id is generated when absent.',
  input: z.strictObject({
    id: z.string().min(1).optional().describe('Default: generated.'),
    // Optional for the CLI only: a required flag could not come from stdin. The domain requires it.
    title: z.string().optional().describe('What is handed over (required).'),
    created_by: z.string().min(1).optional().describe('Your agent id (default "agent").'),
    payload: cliHelp(z.record(z.string(), z.unknown()).optional(), 'Free-form JSON object for the taker.'),
    note: noteField,
    // A whole handoff item (what a state client appends) is taken as well; these are the creator's own and are
    // stamped anew: a new handoff is open, dated now, with one create event.
    status: unlisted(
      cliHelp(z.enum(['open']).optional(), 'Of a posted handoff item: a new handoff is open.'),
    ),
    created_at: unlisted(
      cliHelp(z.string().optional(), 'Of a posted handoff item: replaced by the time of creation.'),
    ),
    updated_at: unlisted(
      cliHelp(z.string().optional(), 'Of a posted handoff item: replaced by the time of creation.'),
    ),
    events: unlisted(
      cliHelp(
        z
          .array(z.looseObject({ action: z.string(), note: z.string().optional() }))
          .max(1)
          .optional(),
        'Of a posted handoff item: its create event, whose note is the note when none is given.',
      ),
    ),
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
  mcp: { tool: 'hub_handoff_create', when: 'Use when you leave work unfinished.' },
  http: [CREATE_ROUTE],
});

export const handoffList = pagedList(
  defineOp({
    id: 'context.handoff.list',
    summary: 'List handoffs; an expired claim shows released.',
    description:
      'The release is a release-expired event dated at the expiry; the next write of the handoffs records it.',
    input: z.strictObject({
      status: cliHelp(z.enum(HANDOFF_STATUSES).optional(), 'Only handoffs with this status.'),
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
    mcp: { tool: 'hub_handoff_list', when: 'Use when looking for work handed to you.' },
    http: [{ method: 'GET', route: '/v3/ops/handoffs', input: 'query' }],
  }),
  { key: 'handoffs', noun: 'Handoffs', order: 'in stored order (oldest first)' },
);

export const handoffClaim = defineOp({
  id: 'context.handoff.claim',
  summary: "Claim a handoff for a TTL; another agent's live claim refuses it.",
  input: z.strictObject({ id: idField, by: byField, ttl: ttlField }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<{ handoff: Handoff }> =>
    applyWhereStored(ctx, CLAIM_ROUTE, input, async (deps) => ({ handoff: await claimHandoff(deps, input) })),
  cli: { command: 'context handoff claim', human: (r) => claimLine(r.handoff) },
  mcp: { tool: 'hub_handoff_claim', when: 'Use when you take a handoff over.' },
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
  summary: "Mark a handoff completed; refused while another agent's claim is live.",
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
  mcp: { tool: 'hub_handoff_complete', when: 'Use when your claimed handoff is done.' },
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
