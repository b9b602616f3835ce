import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { recordEvent } from './change-events.js';
import { type CoordDeps, DOCS, newId, readDocSettingAside, updateDoc } from './documents.js';
import { type ApprovalDecision, type ApprovalRequest, ApprovalsDocSchema } from './schemas.js';
import type { SetAsideRecord } from './set-aside.js';

/** `{campaign}` when the payload names one, so `context events --campaign` finds the request. */
const campaignOf = (payload: Record<string, unknown>) =>
  typeof payload.campaign === 'string' ? { campaign: payload.campaign } : {};

export interface ApprovalRequestInput {
  /** Required; typed optional because stdin JSON may be the only source. */
  action?: string;
  requested_by?: string;
  payload?: Record<string, unknown>;
  /** A retried request with the same key returns the first one instead of queueing a duplicate. */
  idempotency_key?: string;
}

export interface ResolveInput {
  id: string;
  decision: ApprovalDecision;
  note?: string;
  by?: string;
}

/** Queues an approval request (status pending); the same idempotency key returns the existing request. */
export async function requestApproval(
  deps: CoordDeps,
  input: ApprovalRequestInput,
): Promise<{ created: boolean; request: ApprovalRequest }> {
  const action = input.action?.trim();
  if (!action)
    throw new ValidationError('action: required, non-empty', { field: 'action', rule: 'required' });
  const id = newId('apr');
  const out = await updateDoc(deps, DOCS.approvals, ApprovalsDocSchema, (doc) => {
    const key = input.idempotency_key;
    const existing = key === undefined ? undefined : doc.requests.find((r) => r.idempotency_key === key);
    if (existing) return { created: false, request: existing };
    const request: ApprovalRequest = {
      id,
      action,
      requested_by: input.requested_by?.trim() || 'agent',
      payload: input.payload ?? {},
      status: 'pending',
      ...(key === undefined ? {} : { idempotency_key: key }),
      created_at: deps.now().toISOString(),
    };
    doc.requests.push(request);
    return { created: true, request };
  });
  if (out.created) {
    await recordEvent(
      deps.store,
      {
        source: 'approval',
        kind: 'ApprovalRequested',
        subject: out.request.id,
        data: { action, requested_by: out.request.requested_by, ...campaignOf(out.request.payload) },
      },
      deps.now,
    );
  }
  return out;
}

/** Pending requests (default) or the whole queue. */
export async function listApprovals(
  deps: CoordDeps,
  status: 'pending' | 'all' = 'pending',
): Promise<ApprovalRequest[]> {
  return (await approvalListing(deps, status)).requests;
}

/** listApprovals, and (only when there are some) the stored records set aside as invalid. */
export async function approvalListing(
  deps: CoordDeps,
  status: 'pending' | 'all' = 'pending',
): Promise<{ requests: ApprovalRequest[]; set_aside?: SetAsideRecord[] }> {
  const { doc, setAside } = await readDocSettingAside(deps, DOCS.approvals, ApprovalsDocSchema);
  const requests = status === 'all' ? doc.requests : doc.requests.filter((r) => r.status === 'pending');
  return { requests, ...(setAside.length > 0 ? { set_aside: setAside } : {}) };
}

/** Records a decision once; resolving an already resolved request is refused. */
export async function resolveApproval(deps: CoordDeps, input: ResolveInput): Promise<ApprovalRequest> {
  const request = await updateDoc(deps, DOCS.approvals, ApprovalsDocSchema, (doc) => {
    const r = doc.requests.find((x) => x.id === input.id);
    if (!r)
      throw new NotFoundError(`approval request '${input.id}' not found`, { field: 'id', value: input.id });
    if (r.status !== 'pending') {
      throw new RefusedError(
        `approval request '${r.id}' is already ${r.status}${r.resolved_at ? ` (at ${r.resolved_at})` : ''}`,
        { id: r.id, status: r.status, rule: 'resolve_once' },
        409,
      );
    }
    r.status = input.decision;
    r.decision = input.decision;
    r.resolved_at = deps.now().toISOString();
    if (input.by) r.resolved_by = input.by;
    if (input.note !== undefined) r.resolver_note = input.note;
    return r;
  });
  await recordEvent(
    deps.store,
    {
      source: 'approval',
      kind: 'ApprovalResolved',
      subject: request.id,
      data: {
        action: request.action,
        decision: input.decision,
        ...(input.by ? { by: input.by } : {}),
        ...campaignOf(request.payload),
      },
    },
    deps.now,
  );
  return request;
}
