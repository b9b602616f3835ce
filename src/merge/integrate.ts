import { headOf } from '../acl/index.js';
import { readDoc } from '../coord/index.js';
import { HubError, NotFoundError, RefusedError } from '../infra/index.js';
import { blockOf, type MergeBlock } from './blocked.js';
import { conflictFor } from './conflict-commands.js';
import { applyTransition, checkoutOf, type MergeDeps, type MergeTarget } from './deps.js';
import { type MergeEventKind, mergePayload, recordMergeEvent } from './events.js';
import { casRef, gitIdentity, refuseIfCheckedOut, withTempWorktree } from './git.js';
import { mergeStep } from './land.js';
import { type FINISHED_STATUSES, type MergeResult, wrongStatus } from './queue.js';
import { type MergeRequest, MergesDocSchema, mergesDocument } from './records.js';

type Finished = { status: (typeof FINISHED_STATUSES)[number]; result: MergeResult };

/** How to make a missing integration branch: plain git, or a rollup of branches onto a base. */
export function createBranchHint(branch: string, repository: string): string {
  return `create it first (git branch -- ${branch} <base>, or hub merge rollup --repository ${repository} --into ${branch} --base <base> --branch <branch>)`;
}

/** The environment validators and regenerate commands see: the user's, plus what is being merged. */
export function commandEnv(deps: MergeDeps, m: MergeRequest): Record<string, string | undefined> {
  return {
    ...deps.env,
    HUB_MERGE_ID: m.merge_id,
    HUB_MERGE_REPOSITORY: m.repository,
    HUB_MERGE_SOURCE: m.source_branch,
    HUB_MERGE_TARGET: m.target_branch,
  };
}

/**
 * Integrates one queued request (`merge_id`, else the oldest queued one of the repository): refused while the
 * target branch is checked out anywhere (the request stays queued); then claimed atomically (`running`: of two
 * integrators exactly one proceeds), merged in a temporary worktree at the target's head, validated, and the
 * target ref moved by compare-and-swap. The request ends succeeded, conflict, validation_failed or failed, with
 * one event; it is returned as it then stands.
 */
export async function integrateMerge(
  deps: MergeDeps,
  target: MergeTarget,
  opts: { merge_id?: string },
): Promise<MergeRequest> {
  const root = checkoutOf(target, 'merge integrate');
  const doc = await readDoc(deps, mergesDocument(target.key), MergesDocSchema);
  const pending =
    opts.merge_id === undefined
      ? doc.merges.find((m) => m.status === 'queued')
      : doc.merges.find((m) => m.merge_id === opts.merge_id);
  if (!pending)
    throw opts.merge_id === undefined
      ? new NotFoundError(`repository: ${target.id} has no queued merge request`, {
          field: 'repository',
          value: target.id,
          rule: 'a queued merge request',
        })
      : new NotFoundError(`merge_id: '${opts.merge_id}' is not a merge request of ${target.id}`, {
          field: 'merge_id',
          value: opts.merge_id,
          rule: 'an existing merge request',
          repository: target.id,
        });
  if (pending.status !== 'queued') throw wrongStatus(pending, 'integrate', ['queued']);
  await refuseIfCheckedOut(root, pending.target_branch, {
    op: 'merge integrate',
    field: 'into',
    repository: target.id,
  });
  const running = await applyTransition(deps, target, {
    action: 'claim',
    merge_id: pending.merge_id,
    integrator: deps.integrator,
  });
  await recordMergeEvent(deps, 'MergeStarted', target.id, {
    ...mergePayload(running),
    attempt: running.attempts,
  });
  let end: Finished;
  try {
    end = await integrateRunning(deps, root, target, running);
  } catch (err) {
    const e = err instanceof HubError ? err : undefined;
    end = {
      status: 'failed',
      result: {
        error_message: (err as Error).message.slice(0, 4000),
        retryable: e?.details?.rule === 'not_checked_out',
      },
    };
  }
  const done = await applyTransition(deps, target, {
    action: 'finish',
    merge_id: running.merge_id,
    status: end.status,
    result: end.result,
  });
  await recordOutcome(deps, target.id, done);
  return done;
}

export interface IntegrateNextResult {
  merge: MergeRequest;
  /** Queued requests ahead of it that could not proceed here, each with why and the command that frees it. */
  passed_over: MergeBlock[];
}

/**
 * `merge integrate --repository R` without an id: the first queued request (in queue order) that can proceed
 * here. A request whose target is checked out stays queued and is passed over, named in `passed_over` with the
 * command that frees it, so one blocked request never holds up the ones behind it; one that another integrator
 * claimed meanwhile is passed over silently. When every queued request is blocked the call is refused (409) with
 * them all in `details.passed_over`; with none queued it is a not-found error.
 */
export async function integrateNext(deps: MergeDeps, target: MergeTarget): Promise<IntegrateNextResult> {
  const root = checkoutOf(target, 'merge integrate');
  const doc = await readDoc(deps, mergesDocument(target.key), MergesDocSchema);
  const passed_over: MergeBlock[] = [];
  for (const m of doc.merges) {
    if (m.status !== 'queued') continue;
    const block = await blockOf(root, m);
    if (block) {
      passed_over.push(block);
      continue;
    }
    try {
      return { merge: await integrateMerge(deps, target, { merge_id: m.merge_id }), passed_over };
    } catch (err) {
      const details = err instanceof HubError ? err.details : undefined;
      // Claimed by another integrator since the read, or its target checked out since: try the next one.
      if (details?.rule === 'not_checked_out') {
        const late = await blockOf(root, m);
        if (late) passed_over.push(late);
        continue;
      }
      if (typeof details?.status === 'string' && details.status !== 'queued') continue;
      throw err;
    }
  }
  if (passed_over.length > 0)
    throw new RefusedError(
      `repository: every queued merge request of ${target.id} is blocked here: ${passed_over.map((b) => `${b.merge_id}: ${b.message}`).join('; ')}`,
      { field: 'repository', value: target.id, rule: 'not_checked_out', passed_over },
      409,
    );
  throw new NotFoundError(`repository: ${target.id} has no queued merge request`, {
    field: 'repository',
    value: target.id,
    rule: 'a queued merge request',
  });
}

const KIND: Record<Finished['status'], MergeEventKind> = {
  succeeded: 'MergeSucceeded',
  failed: 'MergeFailed',
  conflict: 'ConflictDetected',
  validation_failed: 'MergeValidationFailed',
};

async function recordOutcome(deps: MergeDeps, repository: string, m: MergeRequest): Promise<void> {
  const base = mergePayload(m);
  if (m.regenerated && m.status !== 'conflict')
    await recordMergeEvent(deps, 'MergeRegenerated', repository, {
      ...base,
      files: m.regenerated.files,
      commands: m.regenerated.commands.map((c) => c.argv.join(' ')),
    });
  const extra =
    m.status === 'conflict'
      ? { files: m.conflict?.files ?? [], message: m.conflict?.message }
      : m.status === 'failed'
        ? { error_message: m.error_message, retryable: m.retryable ?? false }
        : m.status === 'validation_failed'
          ? { failed_command: m.validation?.commands.at(-1)?.argv.join(' ') }
          : {};
  await recordMergeEvent(deps, KIND[m.status as Finished['status']], repository, { ...base, ...extra });
}

async function integrateRunning(
  deps: MergeDeps,
  root: string,
  target: MergeTarget,
  m: MergeRequest,
): Promise<Finished> {
  const failed = (error_message: string, retryable = false): Finished => ({
    status: 'failed',
    result: { error_message, retryable },
  });
  const targetSha = await headOf(root, m.target_branch);
  if (!targetSha)
    return failed(
      `into: the branch '${m.target_branch}' does not exist in ${target.id}; ${createBranchHint(m.target_branch, target.id)}`,
    );
  const sourceSha = await headOf(root, m.source_branch);
  if (!sourceSha)
    return failed(`branch: the branch '${m.source_branch}' does not exist in ${target.id} any more`);
  const identity = await gitIdentity(root, deps.env);
  const message = `Merge branch '${m.source_branch}' into ${m.target_branch} (hub merge ${m.merge_id})`;
  const step = await withTempWorktree(root, targetSha, deps.tmpRoot, (wt) =>
    mergeStep(wt, sourceSha, message, { settings: deps.settings, env: commandEnv(deps, m), identity }),
  );
  const base = { base_sha: targetSha };
  if (step.kind === 'error') return { status: 'failed', result: { ...base, error_message: step.message } };
  const regen = step.regenerated ? { regenerated: step.regenerated } : {};
  if (step.kind === 'conflict') {
    const conflict = conflictFor(
      {
        repository: target.id,
        merge_id: m.merge_id,
        source_branch: m.source_branch,
        target_branch: m.target_branch,
        files: step.files,
        agent_id: m.agent_id,
        branchPrefix: deps.branchPrefix,
      },
      step.message,
    );
    return { status: 'conflict', result: { ...base, conflict, ...regen } };
  }
  if (step.kind === 'validation_failed')
    return { status: 'validation_failed', result: { ...base, validation: step.validation, ...regen } };
  const done = { ...base, commit_sha: step.sha, validation: step.validation, ...regen };
  if (step.kind === 'up_to_date') return { status: 'succeeded', result: done };
  // Checked again: a checkout made during the merge must not have its branch moved under it.
  await refuseIfCheckedOut(root, m.target_branch, {
    op: 'merge integrate',
    field: 'into',
    repository: target.id,
  });
  if (await casRef(root, m.target_branch, step.sha, targetSha, `hub merge ${m.merge_id}`)) {
    return { status: 'succeeded', result: done };
  }
  const now = await headOf(root, m.target_branch);
  return failed(
    `into: the branch '${m.target_branch}' moved from ${targetSha.slice(0, 12)} to ${now?.slice(0, 12) ?? '(deleted)'} while merging; nothing was changed: retry (hub merge retry --merge-id ${m.merge_id})`,
    true,
  );
}
