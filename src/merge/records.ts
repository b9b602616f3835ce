import * as z from 'zod';
import { type CoordDeps, readDoc } from '../coord/index.js';

/** The collection of merge requests: one document per repository, `merges/<project>~<repo>`. */
export const MERGES_COLLECTION = 'merges';

/**
 * Where a merge request is: waiting (`queued`), being integrated (`running`), done (`succeeded`) or stopped with a
 * reason (`failed`, `conflict`, `validation_failed`). The earlier product's states, kept so its users read ours.
 */
export const MERGE_STATUSES = [
  'queued',
  'running',
  'succeeded',
  'failed',
  'conflict',
  'validation_failed',
] as const;
export type MergeStatus = (typeof MERGE_STATUSES)[number];

/** The states that count as pressure on a repository's queue: work that has not landed nor stopped. */
export const PENDING_MERGE_STATUSES: readonly MergeStatus[] = ['queued', 'running'];

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
