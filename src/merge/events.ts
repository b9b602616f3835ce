import { type CoordDeps, recordEvent } from '../coord/index.js';
import type { MergeRequest } from './records.js';

/** The event kinds of the merge queue (source `merge`), in the order a request meets them. */
export const MERGE_EVENT_KINDS = [
  'MergeEnqueued',
  'MergeStarted',
  'MergeRegenerated',
  'MergeSucceeded',
  'MergeFailed',
  'ConflictDetected',
  'MergeValidationFailed',
  'MergePromoted',
  'MergeRollup',
  'MergeCancelled',
  'MergeTrain',
] as const;
export type MergeEventKind = (typeof MERGE_EVENT_KINDS)[number];

/** The payload every request event carries: who, what into what, where it stands. */
export function mergePayload(m: MergeRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {
    merge_id: m.merge_id,
    repository: m.repository,
    source_branch: m.source_branch,
    target_branch: m.target_branch,
    status: m.status,
  };
  for (const k of ['node_id', 'graph_id', 'agent_id', 'task_id', 'fence', 'commit_sha'] as const)
    if (m[k] !== undefined) out[k] = m[k];
  return out;
}

/** Appends one merge event to the persisted feed (`context events`, `GET /v3/ops/events`, `hub_events`). */
export async function recordMergeEvent(
  deps: CoordDeps,
  kind: MergeEventKind,
  repository: string,
  data: Record<string, unknown>,
): Promise<void> {
  await recordEvent(deps.store, { source: 'merge', kind, subject: repository, data }, deps.now);
}
