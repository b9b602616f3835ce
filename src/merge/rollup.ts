import { checkBaseRef, checkBranchName, headOf, resolveBase } from '../acl/index.js';
import { RefusedError, ValidationError } from '../infra/index.js';
import { checkoutOf, type MergeDeps, type MergeTarget } from './deps.js';
import { recordMergeEvent } from './events.js';
import { branchHeads, casRef, gitIdentity, refuseIfCheckedOut, resetTo, withTempWorktree } from './git.js';
import { mergeStep } from './land.js';
import type { Regenerated, Validation } from './records.js';

/** Most branches one rollup takes. */
export const MAX_ROLLUP_BRANCHES = 200;

export interface RollupMerged {
  branch: string;
  sha: string;
  commit_sha: string;
  regenerated?: Regenerated;
}
export interface RollupSkipped {
  branch: string;
  reason: 'not_found' | 'already_merged' | 'validation_failed' | 'git_error';
  message: string;
  validation?: Validation;
}
export interface RollupConflicted {
  branch: string;
  files: string[];
  message: string;
}

export interface RollupResult {
  repository: string;
  into: string;
  base: string;
  base_sha: string;
  /** The integration branch before (null when the rollup created it) and after. */
  previous_sha: string | null;
  commit_sha: string;
  created: boolean;
  merged: RollupMerged[];
  skipped: RollupSkipped[];
  conflicted: RollupConflicted[];
}

export interface RollupInput {
  into: string;
  /**
   * Revision the integration branch is rebuilt from; default its own head (an existing branch is extended), or
   * the checkout's HEAD when the branch does not exist yet.
   */
  base?: string;
  branches: string[];
}

/**
 * Rebuilds the integration branch `into` from `base` by merging each branch in order in ONE temporary worktree.
 * After each merge the validators run; a failing one resets the worktree to the commit before (the branch is
 * skipped, the rest continue). A conflicted branch is skipped the same way, its files reported (unless every
 * file matches a regenerate rule). `into` moves once at the end, by compare-and-swap, and one MergeRollup
 * event tells what happened. Refused while `into` is checked out anywhere.
 */
export async function rollupBranches(
  deps: MergeDeps,
  target: MergeTarget,
  input: RollupInput,
): Promise<RollupResult> {
  const root = checkoutOf(target, 'merge rollup');
  const into = checkBranchName(input.into, 'into');
  if (input.branches.length === 0)
    throw new ValidationError('branches: name at least one branch to roll up', {
      field: 'branches',
      rule: 'at least one branch',
    });
  if (input.branches.length > MAX_ROLLUP_BRANCHES)
    throw new ValidationError(`branches: ${input.branches.length} branches; at most ${MAX_ROLLUP_BRANCHES}`, {
      field: 'branches',
      value: input.branches.length,
      rule: `at most ${MAX_ROLLUP_BRANCHES}`,
    });
  const seen = new Set<string>();
  for (const b of input.branches) {
    checkBranchName(b, 'branches');
    if (b === into)
      throw new ValidationError(`branches: '${b}' is the integration branch itself`, {
        field: 'branches',
        value: b,
        rule: 'not the integration branch',
      });
    if (seen.has(b))
      throw new ValidationError(`branches: '${b}' is named twice`, {
        field: 'branches',
        value: b,
        rule: 'unique',
      });
    seen.add(b);
  }
  const scope = { op: 'merge rollup', field: 'into', repository: target.id };
  await refuseIfCheckedOut(root, into, scope);
  const previous = await headOf(root, into);
  // No base: an existing integration branch is extended; a new one starts at the checkout's HEAD, as branch
  // allocate and worktree create start a branch (the result and the event say which it was).
  const base = input.base !== undefined ? checkBaseRef(input.base) : previous !== undefined ? into : 'HEAD';
  const baseSha =
    base === into && input.base === undefined ? previous! : await resolveBase(root, base, target.id);
  const identity = await gitIdentity(root, deps.env);
  const out = {
    merged: [] as RollupMerged[],
    skipped: [] as RollupSkipped[],
    conflicted: [] as RollupConflicted[],
  };

  const heads = await branchHeads(root, input.branches);
  const final = await withTempWorktree(root, baseSha, deps.tmpRoot, async (wt) => {
    let head = baseSha;
    for (const branch of input.branches) {
      const sha = heads.get(branch);
      if (!sha) {
        out.skipped.push({ branch, reason: 'not_found', message: `no branch '${branch}' in ${target.id}` });
        continue;
      }
      const env = {
        ...deps.env,
        HUB_MERGE_REPOSITORY: target.id,
        HUB_MERGE_SOURCE: branch,
        HUB_MERGE_TARGET: into,
      };
      const message = `Merge branch '${branch}' into ${into} (hub merge rollup)`;
      const step = await mergeStep(wt, sha, message, { settings: deps.settings, env, identity }, head);
      if (step.kind === 'up_to_date') {
        // Contained already: nothing was merged, so the validators judged the unchanged tree; no reset needed.
        out.skipped.push({ branch, reason: 'already_merged', message: `'${branch}' is already contained` });
      } else if (step.kind === 'merged') {
        out.merged.push({
          branch,
          sha,
          commit_sha: step.sha,
          ...(step.regenerated ? { regenerated: step.regenerated } : {}),
        });
        head = step.sha;
      } else if (step.kind === 'conflict') {
        out.conflicted.push({ branch, files: step.files, message: step.message });
      } else if (step.kind === 'validation_failed') {
        await resetTo(wt, head);
        const failed = step.validation.commands.at(-1);
        out.skipped.push({
          branch,
          reason: 'validation_failed',
          message: `${failed?.argv.join(' ')} exited ${failed?.exit_code ?? failed?.signal}; the merge was undone`,
          validation: step.validation,
        });
      } else if (step.kind === 'error') {
        await resetTo(wt, head);
        out.skipped.push({ branch, reason: 'git_error', message: step.message });
      }
    }
    return head;
  });

  if (final !== previous) {
    await refuseIfCheckedOut(root, into, scope);
    if (!(await casRef(root, into, final, previous, 'hub merge rollup')))
      throw new RefusedError(
        `into: the branch '${into}' changed while rolling up; nothing was changed: run merge rollup again`,
        { field: 'into', value: into, rule: 'ref_moved', retryable: true },
        409,
      );
  }
  const result: RollupResult = {
    repository: target.id,
    into,
    base,
    base_sha: baseSha,
    previous_sha: previous ?? null,
    commit_sha: final,
    created: previous === undefined,
    ...out,
  };
  await recordMergeEvent(deps, 'MergeRollup', target.id, {
    repository: target.id,
    into,
    base,
    base_sha: baseSha,
    previous_sha: result.previous_sha,
    commit_sha: final,
    merged: out.merged.map((m) => m.branch),
    skipped: out.skipped.map((s) => ({ branch: s.branch, reason: s.reason })),
    conflicted: out.conflicted.map((c) => ({ branch: c.branch, files: c.files })),
  });
  return result;
}
