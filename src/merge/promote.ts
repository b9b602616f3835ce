import { checkBranchName, headOf } from '../acl/index.js';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { applyTransition, checkoutOf, type MergeDeps, type MergeTarget, readMerge } from './deps.js';
import { mergePayload, recordMergeEvent } from './events.js';
import { landRequest, refuseIfStale } from './fence.js';
import { casRef, gitIdentity, refuseIfCheckedOut, withTempWorktree } from './git.js';
import { commandEnv, createBranchHint } from './integrate.js';
import { mergeStep } from './land.js';
import type { MergeRequest, Validation } from './records.js';

export interface PromoteResult {
  merge: MergeRequest;
  into: string;
  /** The target branch commit merged into `into`, and `into` before and after. */
  from_sha: string;
  previous_sha: string;
  commit_sha: string;
  /** True when `into` already contained the target branch (nothing moved). */
  up_to_date: boolean;
  validation: Validation;
}

/**
 * Promotes a succeeded merge: its target (integration) branch, as it now stands, is merged into `into` in a
 * temporary worktree at `into`'s head, validated, and `into` moved by compare-and-swap. Refused while `into` is
 * checked out anywhere, for any other status, on a conflict (files named, nothing moved) and on failed
 * validators (their report in the details). The promotion is recorded on the request; its status stays.
 */
export async function promoteMerge(
  deps: MergeDeps,
  target: MergeTarget,
  input: { merge_id: string; into: string },
): Promise<PromoteResult> {
  const root = checkoutOf(target, 'merge promote');
  const into = checkBranchName(input.into, 'into');
  const m = await readMerge(deps, target, input.merge_id);
  if (m.status !== 'succeeded') {
    const why =
      m.status === 'validation_failed'
        ? 'its validators failed: fix the branch and retry it first'
        : 'only a succeeded merge is promoted';
    throw new RefusedError(
      `merge_id: '${m.merge_id}' is ${m.status}; ${why}`,
      { field: 'merge_id', value: m.merge_id, rule: 'status succeeded', status: m.status },
      409,
    );
  }
  if (into === m.target_branch)
    throw new ValidationError(
      `into: '${into}' is the merge's own target branch; promote into another branch`,
      {
        field: 'into',
        value: into,
        rule: 'not the target branch',
      },
    );
  await refuseIfStale(deps, target, m, 'merge promote');
  const scope = { op: 'merge promote', field: 'into', repository: target.id };
  await refuseIfCheckedOut(root, into, scope);
  const intoSha = await headOf(root, into);
  if (!intoSha)
    throw new NotFoundError(
      `into: the branch '${into}' does not exist in ${target.id}; ${createBranchHint(into, target.id)}`,
      { field: 'into', value: into, rule: 'an existing branch', repository: target.id },
    );
  const fromSha = await headOf(root, m.target_branch);
  if (!fromSha)
    throw new NotFoundError(
      `the merge's target branch '${m.target_branch}' no longer exists in ${target.id}`,
      {
        field: 'merge_id',
        value: m.merge_id,
        rule: 'target branch exists',
      },
    );
  const identity = await gitIdentity(root, deps.env);
  const message = `Merge branch '${m.target_branch}' into ${into} (hub merge promote ${m.merge_id})`;
  const env = { ...commandEnv(deps, m), HUB_MERGE_PROMOTE_INTO: into };
  const step = await withTempWorktree(root, intoSha, deps.tmpRoot, (wt) =>
    mergeStep(wt, fromSha, message, { settings: deps.settings, env, identity }),
  );
  const payload = { ...mergePayload(m), phase: 'promote', into };
  if (step.kind === 'error')
    throw new RefusedError(`merge promote: git could not merge: ${step.message}`, { rule: 'git' }, 409);
  if (step.kind === 'conflict') {
    await recordMergeEvent(deps, 'ConflictDetected', target.id, { ...payload, files: step.files });
    throw new RefusedError(
      `into: merging '${m.target_branch}' into '${into}' conflicts in ${step.files.join(', ')}; nothing was changed`,
      { field: 'into', value: into, rule: 'merge_conflict', files: step.files, message: step.message },
      409,
    );
  }
  if (step.kind === 'validation_failed') {
    await recordMergeEvent(deps, 'MergeValidationFailed', target.id, payload);
    const failed = step.validation.commands.at(-1);
    throw new RefusedError(
      `into: the validators failed on '${m.target_branch}' merged into '${into}' (${failed?.argv.join(' ')} exited ${failed?.exit_code ?? failed?.signal}); nothing was changed`,
      { field: 'into', value: into, rule: 'validators', validation: step.validation },
      409,
    );
  }
  if (step.kind === 'merged') {
    const moved = await landRequest(deps, target, m, 'merge promote', async () => {
      await refuseIfCheckedOut(root, into, scope);
      return casRef(root, into, step.sha, intoSha, `hub merge promote ${m.merge_id}`);
    });
    if (!moved)
      throw new RefusedError(
        `into: the branch '${into}' moved while promoting; nothing was changed: run merge promote again`,
        { field: 'into', value: into, rule: 'ref_moved', retryable: true },
        409,
      );
  }
  const at = deps.now().toISOString();
  const merge = await applyTransition(deps, target, {
    action: 'promoted',
    merge_id: m.merge_id,
    promotion: { into, commit_sha: step.sha, from_sha: fromSha, at },
  });
  await recordMergeEvent(deps, 'MergePromoted', target.id, {
    ...mergePayload(merge),
    promoted_into: into,
    commit_sha: step.sha,
    from_sha: fromSha,
  });
  return {
    merge,
    into,
    from_sha: fromSha,
    previous_sha: intoSha,
    commit_sha: step.sha,
    up_to_date: step.kind === 'up_to_date',
    validation: step.validation,
  };
}
