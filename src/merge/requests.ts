import { checkBranchName, headOf } from '../acl/index.js';
import type { CoordDeps } from '../coord/index.js';
import { NotFoundError, ValidationError } from '../infra/index.js';
import { applyTransition, checkoutOf, type MergeDeps, type MergeTarget, readMerge } from './deps.js';
import { mergePayload, recordMergeEvent } from './events.js';
import { refuseIfCheckedOut } from './git.js';
import { createBranchHint, integrateMerge } from './integrate.js';
import { type EnqueueResult, enqueueMerge, RETRYABLE_STATUSES, wrongStatus } from './queue.js';
import type { MergeRequest } from './records.js';

export interface EnqueueRequest {
  source_branch: string;
  target_branch: string;
  node_id?: string;
  graph_id?: string;
  agent_id?: string;
}

/**
 * Checks a request against the checkout before it is queued: both names are branch names (never an option or a
 * path out of refs/heads), the source exists, the target exists (or the error says how to make it), and they
 * differ. Returns both heads.
 */
export async function checkEnqueue(
  target: MergeTarget,
  req: EnqueueRequest,
): Promise<{ source_sha: string; target_sha: string }> {
  const source = checkBranchName(req.source_branch, 'branch');
  const into = checkBranchName(req.target_branch, 'into');
  if (source === into)
    throw new ValidationError(`into: '${into}' is the source branch itself`, {
      field: 'into',
      value: into,
      rule: 'differs from branch',
    });
  const root = checkoutOf(target, 'merge enqueue');
  const source_sha = await headOf(root, source);
  if (!source_sha)
    throw new NotFoundError(`branch: no branch '${source}' in ${target.id}`, {
      field: 'branch',
      value: source,
      rule: 'an existing branch',
      repository: target.id,
    });
  const target_sha = await headOf(root, into);
  if (!target_sha)
    throw new NotFoundError(
      `into: no branch '${into}' in ${target.id}; ${createBranchHint(into, target.id)}`,
      {
        field: 'into',
        value: into,
        rule: 'an existing branch',
        repository: target.id,
      },
    );
  return { source_sha, target_sha };
}

/** Records a checked request in the queue (atomic append) with a MergeEnqueued event when it is new. */
export async function recordEnqueue(
  deps: CoordDeps,
  target: MergeTarget,
  req: EnqueueRequest & { source_sha?: string; target_sha?: string },
): Promise<EnqueueResult> {
  const r = await enqueueMerge(deps, { repository: target.id, key: target.key, ...req });
  if (r.created) await recordMergeEvent(deps, 'MergeEnqueued', target.id, mergePayload(r.merge));
  return r;
}

/**
 * Puts a failed, conflicted or invalid request back in the queue and integrates it again. A request left `running`
 * by an integrator that died (a process of this machine that no longer exists) is taken back too. Refused up front,
 * with the request left as it was, while its target is checked out somewhere.
 */
export async function retryMerge(
  deps: MergeDeps,
  target: MergeTarget,
  mergeId: string,
): Promise<MergeRequest> {
  const root = checkoutOf(target, 'merge retry');
  const m = await readMerge(deps, target, mergeId);
  const stale =
    m.status === 'running' && m.integrator !== undefined && deps.integratorGone?.(m.integrator) === true;
  if (!stale && !RETRYABLE_STATUSES.includes(m.status))
    throw wrongStatus(
      m,
      'retry',
      RETRYABLE_STATUSES,
      m.status === 'running' ? ' (or running with an integrator process of this machine that is gone)' : '',
    );
  await refuseIfCheckedOut(root, m.target_branch, {
    op: 'merge retry',
    field: 'into',
    repository: target.id,
  });
  const queued = await applyTransition(deps, target, {
    action: 'requeue',
    merge_id: mergeId,
    ...(stale ? { integrator: m.integrator } : {}),
  });
  await recordMergeEvent(deps, 'MergeEnqueued', target.id, {
    ...mergePayload(queued),
    requeued_from: m.status,
    ...(stale ? { stale_integrator: m.integrator } : {}),
  });
  return integrateMerge(deps, target, { merge_id: mergeId });
}

/**
 * `merge cancel`: withdraws a queued, failed, conflicted or invalid request (a request whose integration is
 * refused stays queued, so it is cancelled from there). The request is kept, `cancelled`, with who withdrew it,
 * when and why; a succeeded, running or already cancelled one is refused (409) saying why. Needs no checkout: only
 * the queue changes, where it is kept.
 */
export async function cancelMerge(
  deps: MergeDeps,
  target: MergeTarget,
  req: { merge_id: string; by?: string; reason?: string },
): Promise<MergeRequest> {
  const m = await applyTransition(deps, target, {
    action: 'cancel',
    merge_id: req.merge_id,
    ...(req.by === undefined ? {} : { by: req.by }),
    ...(req.reason === undefined ? {} : { reason: req.reason }),
  });
  await recordMergeEvent(deps, 'MergeCancelled', target.id, {
    ...mergePayload(m),
    cancelled_by: m.cancelled_by,
    cancelled_from: m.cancelled_from,
    ...(m.cancel_reason ? { reason: m.cancel_reason } : {}),
  });
  return m;
}
