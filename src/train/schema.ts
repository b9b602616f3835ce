import * as z from 'zod';
import { CommandRunSchema } from '../merge/index.js';

/** Most repositories one train lands. */
export const MAX_TRAIN_ROWS = 500;

/** One repository of a train: where its checkout is, the branch to land and the target it lands on. */
export interface TrainRow {
  /** The repository's name in the report (`project/repo`). */
  repository: string;
  /** Its checkout folder (real path); only temporary worktrees of it are made, the checkout is never touched. */
  root: string;
  branch: string;
  into: string;
}

/**
 * Where one repository ended:
 * - `would_merge`, `up_to_date`, `blocked`, `conflict` (dry run: what landing would do now; a conflict is
 *   predicted by `git merge-tree`, which makes no worktree and moves no ref);
 * - `landed` (its target moved), `up_to_date` (the branch was already in it: nothing to move);
 * - `held` (integrated and validated, not moved because another repository failed);
 * - `rolled_back` (moved, then put back by compare-and-swap when a later target could not move);
 * - `conflict`, `validation_failed`, `failed` (this repository stopped the train; `cause` says why);
 * - `moved_elsewhere` (someone else moved its target during the train: not overwritten);
 * - `rollback_blocked` (moved by the train, then moved again by someone else before it could be put back: left
 *   as they set it, and reported).
 */
export const TRAIN_OUTCOMES = [
  'would_merge',
  'up_to_date',
  'blocked',
  'landed',
  'held',
  'rolled_back',
  'conflict',
  'validation_failed',
  'failed',
  'moved_elsewhere',
  'rollback_blocked',
] as const;
export type TrainOutcome = (typeof TRAIN_OUTCOMES)[number];

/** Why a repository stopped the train (or could not be put back). */
export const CAUSE_CODES = [
  'branch_missing',
  'target_missing',
  'target_checked_out',
  'conflict',
  'validation_failed',
  'git_error',
  'target_moved',
  'ref_update_failed',
  'moved_after_landing',
  // A preview's rows (`campaign status`) that no train could take yet:
  'unknown_repository',
  'not_checked_out',
  'not_landable',
] as const;

/** Most files a conflict's cause lists (its message says how many there are). */
export const MAX_CAUSE_FILES = 100;

export const TrainCauseSchema = z.object({
  code: z.enum(CAUSE_CODES),
  message: z.string(),
  files: z.array(z.string()).optional(),
  worktrees: z.array(z.string()).optional(),
});
export type TrainCause = z.infer<typeof TrainCauseSchema>;

const Sha = z.string().nullable();

export const TrainRowReportSchema = z.object({
  repository: z.string(),
  branch: z.string(),
  into: z.string(),
  /** The branch's head that was merged. */
  branch_sha: Sha,
  /** The target before the train. */
  old_sha: Sha,
  /** The integrated commit the target moves to (the old head when the branch was already in it). */
  new_sha: Sha,
  /** Where the target stands when the train ended. */
  target_sha: Sha,
  outcome: z.enum(TRAIN_OUTCOMES),
  cause: TrainCauseSchema.optional(),
  validation: z.object({ ok: z.boolean(), commands: z.array(CommandRunSchema) }).optional(),
});
export type TrainRowReport = z.infer<typeof TrainRowReportSchema>;

export const TrainReportSchema = z.object({
  dry_run: z.boolean(),
  /** True when every target that needed to move moved (a dry run: when landing now would be tried at all). */
  landed: z.boolean(),
  /** Targets moved and left moved. */
  moved: z.number().int(),
  /** Repositories that stopped the train, with the cause in their row. */
  stopped_by: z.array(z.string()),
  /** Repositories whose target the train could not put back (`rollback_blocked`): the train was not atomic. */
  not_restored: z.array(z.string()),
  rows: z.array(TrainRowReportSchema),
  message: z.string(),
});
export type TrainReport = z.infer<typeof TrainReportSchema>;
