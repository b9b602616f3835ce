import * as z from 'zod';
import { type CoordDeps, readDoc } from '../coord/index.js';

/** The collection of merge requests: one document per repository, `merges/<project>~<repo>`. */
export const MERGES_COLLECTION = 'merges';

/**
 * Where a merge request is: waiting (`queued`), being integrated (`running`), done (`succeeded`), stopped with a
 * reason (`failed`, `conflict`, `validation_failed`) or withdrawn (`cancelled`). The earlier product's states, kept
 * so its users read ours, plus `cancelled` so a request that should not land can leave the queue without being lost.
 */
export const MERGE_STATUSES = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'conflict',
  'validation_failed',
  'cancelled',
] as const;
export type MergeStatus = (typeof MERGE_STATUSES)[number];

/** The states that count as pressure on a repository's queue: work that has not landed nor stopped. */
export const PENDING_MERGE_STATUSES: readonly MergeStatus[] = ['queued', 'running'];

/** One command's run: its argv, how it ended and the tail of its output (secrets redacted). */
export const CommandRunSchema = z.looseObject({
  name: z.string().optional(),
  argv: z.array(z.string()),
  exit_code: z.number().int().nullable(),
  signal: z.string().nullable(),
  timed_out: z.boolean(),
  stdout: z.string(),
  stderr: z.string(),
});
export type CommandRun = z.infer<typeof CommandRunSchema>;

/** The validators' verdict: ok when every command exited 0 (the first failure stops the rest). */
export const ValidationSchema = z.looseObject({
  ok: z.boolean(),
  commands: z.array(CommandRunSchema).default([]),
});
export type Validation = z.infer<typeof ValidationSchema>;

/** A conflict: the sorted unmerged paths, what happened, and the hub commands an agent runs to take it. */
export const ConflictSchema = z.looseObject({
  files: z.array(z.string()),
  message: z.string(),
  /** `hub branch allocate`, `lease acquire`, `worktree create`, `claim declare` and `merge enqueue` lines. */
  acl_commands: z.array(z.string()).default([]),
  /** The git steps in the new worktree between those commands. */
  resolve_steps: z.array(z.string()).default([]),
});
export type MergeConflict = z.infer<typeof ConflictSchema>;

/** Conflicted generated files rebuilt by `merge.regenerate` rules. */
export const RegeneratedSchema = z.looseObject({
  files: z.array(z.string()),
  /** The side each file was taken from before the commands ran (`ours` = the target). */
  side: z.enum(['ours', 'theirs']),
  commands: z.array(CommandRunSchema).default([]),
});
export type Regenerated = z.infer<typeof RegeneratedSchema>;

/** One promotion of a succeeded merge's target into another branch. */
export const PromotionSchema = z.looseObject({
  into: z.string(),
  commit_sha: z.string(),
  /** The target branch commit that was merged into `into`. */
  from_sha: z.string(),
  at: z.string(),
});
export type Promotion = z.infer<typeof PromotionSchema>;

// Stored records are loose: keys written by later builds or other tools survive a read-modify-write.
export const MergeRequestSchema = z.looseObject({
  merge_id: z.string().min(1),
  /** `<project>/<repo>` (or `self`). */
  repository: z.string().min(1),
  source_branch: z.string().min(1),
  target_branch: z.string().min(1),
  status: z.enum(MERGE_STATUSES),
  created_at: z.string(),
  updated_at: z.string(),
  node_id: z.string().optional(),
  graph_id: z.string().optional(),
  agent_id: z.string().optional(),
  /** Heads of both branches when the request was enqueued. */
  source_sha: z.string().optional(),
  target_sha: z.string().optional(),
  /** The target commit the last integration started from, and the merge commit it moved the target to. */
  base_sha: z.string().optional(),
  commit_sha: z.string().optional(),
  /** Integrations started (retries included). */
  attempts: z.number().int().min(0).default(0),
  started_at: z.string().optional(),
  finished_at: z.string().optional(),
  /** Who is integrating (`<host>:<pid>`), while running. */
  integrator: z.string().optional(),
  error_message: z.string().optional(),
  /** True when the failure may pass on a retry (the target moved meanwhile, a branch was checked out). */
  retryable: z.boolean().optional(),
  conflict: ConflictSchema.optional(),
  validation: ValidationSchema.optional(),
  regenerated: RegeneratedSchema.optional(),
  promotions: z.array(PromotionSchema).optional(),
  /** Set by `merge cancel`: who withdrew it (an agent id, or `hub`), when, why, and the status it had. */
  cancelled_by: z.string().optional(),
  cancelled_at: z.string().optional(),
  cancel_reason: z.string().optional(),
  cancelled_from: z.enum(MERGE_STATUSES).optional(),
});
export type MergeRequest = z.infer<typeof MergeRequestSchema>;

/** `merges/<repo key>`: every merge request of one repository, oldest first (queue order). */
export const MergesDocSchema = z.looseObject({ merges: z.array(MergeRequestSchema).default([]) });
export type MergesDoc = z.infer<typeof MergesDocSchema>;

/** The store name of a repository's merge queue: `merges/platform~identity`. */
export const mergesDocument = (repoKey: string): string => `${MERGES_COLLECTION}/${repoKey}`;

/** Every merge request of every repository, in queue order per repository (a pure read). */
export async function readAllMerges(deps: CoordDeps): Promise<MergeRequest[]> {
  const names = deps.store.list ? await deps.store.list(MERGES_COLLECTION) : [];
  const out: MergeRequest[] = [];
  for (const name of names.sort()) out.push(...(await readDoc(deps, name, MergesDocSchema)).merges);
  return out;
}

/**
 * Merge-queue pressure by repository: how many requests are queued or running. The scheduler lowers the score of
 * work in a repository whose queue is long, so agents do not pile more branches onto it.
 */
export async function mergePressure(deps: CoordDeps): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const m of await readAllMerges(deps))
    if (PENDING_MERGE_STATUSES.includes(m.status)) out[m.repository] = (out[m.repository] ?? 0) + 1;
  return out;
}
