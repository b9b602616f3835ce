import * as z from 'zod';
import {
  APPROVAL_DECISIONS,
  type ApprovalRequest,
  approvalListing,
  requestApproval,
  resolveApproval,
  type SetAsideRecord,
} from '../coord/index.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp } from './cli-help.js';
import { coordDeps } from './coord-deps.js';
import { table } from './format.js';
import { pagedList } from './paged-op.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';

const REQUEST_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/approvals', input: 'body' };
const RESOLVE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/approvals/{id}/resolve', input: 'body' };

export const approvalRequest = defineOp({
  id: 'context.approval.request',
  summary: 'Ask a person to approve an action; the same idempotency_key returns the same request.',
  description: 'Reads a JSON object on stdin (flags win): action, requested_by, payload.',
  input: z.strictObject({
    // Optional for the CLI only: a required flag could not come from stdin. The domain requires it.
    action: z.string().optional().describe('What needs approval (required).'),
    requested_by: z.string().min(1).optional().describe('Your agent id (default "agent").'),
    payload: cliHelp(z.record(z.string(), z.unknown()).optional(), 'JSON object with the details.'),
    idempotency_key: cliHelp(z.string().min(1).optional(), 'Key that makes a retried request a no-op.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<{ created: boolean; request: ApprovalRequest }> =>
    applyWhereStored(ctx, REQUEST_ROUTE, input, (deps) => requestApproval(deps, input)),
  cli: {
    command: 'context approval request',
    stdinJson: true,
    human: (r) => `${r.created ? 'requested' : 'already requested'} ${r.request.id}: ${r.request.action}`,
  },
  mcp: { tool: 'hub_approval_request', when: "Use when an action needs a person's yes." },
  http: [REQUEST_ROUTE],
});

export const approvalList = pagedList(
  defineOp({
    id: 'context.approval.list',
    summary: 'List approval requests: pending ones (default) or all.',
    input: z.strictObject({
      status: z.enum(['pending', 'all']).default('pending'),
    }),
    gate: 'active',
    attributes: READ_ONLY,
    handler: (ctx, input): Promise<{ requests: ApprovalRequest[]; set_aside?: SetAsideRecord[] }> =>
      approvalListing(coordDeps(ctx), input.status),
    cli: {
      command: 'context approval list',
      human: (r) =>
        table(
          r.requests.map((q) => [q.id, q.status, q.requested_by, q.created_at, q.action]),
          ['ID', 'STATUS', 'BY', 'CREATED', 'ACTION'],
        ) || 'no approval requests',
    },
    mcp: { tool: 'hub_approval_list', when: 'Use when checking what waits for approval.' },
    http: [{ method: 'GET', route: '/v3/ops/approvals', input: 'query' }],
  }),
  { key: 'requests', noun: 'Requests', order: 'in stored order (oldest first)' },
);

export const approvalResolve = defineOp({
  id: 'context.approval.resolve',
  summary: 'Approve or deny a pending request, once.',
  input: z.strictObject({
    id: cliHelp(z.string().min(1), 'Approval request id.'),
    decision: z.enum(APPROVAL_DECISIONS),
    note: cliHelp(z.string().optional(), 'Why (stored as resolver_note).'),
    by: cliHelp(z.string().min(1).optional(), 'Who decides (stored as resolved_by).'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: (ctx, input): Promise<{ request: ApprovalRequest }> =>
    applyWhereStored(ctx, RESOLVE_ROUTE, input, async (deps) => ({
      request: await resolveApproval(deps, input),
    })),
  cli: { command: 'context approval resolve', human: (r) => `${r.request.id} ${r.request.status}` },
  mcp: {
    tool: 'hub_approval_resolve',
    when: 'Use when a person told you their decision, never on your own.',
  },
  http: [RESOLVE_ROUTE],
});
