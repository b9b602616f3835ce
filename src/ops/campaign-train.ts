import { type CampaignRow, localBranches, pickCampaignBranch, rowRef } from '../campaign/index.js';
import { HubError } from '../infra/index.js';
import {
  checkRow,
  MAX_TRAIN_ROWS,
  summarizeTrain,
  type TrainReport,
  type TrainRowReport,
} from '../train/index.js';
import type { OpContext } from './context.js';
import { mergeTarget } from './merge-deps.js';
import { runTrain } from './merge-train-ops.js';

// A campaign's rows as rows of the landing train: shared by `campaign land` and the preview of `campaign status`.

/** Default target of `campaign land` when neither the request nor a row names one. */
export const DEFAULT_LAND_INTO = 'main';

export interface CampaignTrainRow {
  repository: string;
  branch: string;
  into: string;
}

/**
 * A row as a train row: its `branch`, else the campaign branch of its checkout (`campaign/<slug>`, else a branch
 * named for the campaign), else `campaign/<slug>` (the train then reports it missing); its `into`, else `into`.
 */
export async function campaignTrainRow(
  row: CampaignRow,
  slug: string,
  into: string | undefined,
  root: string | undefined,
): Promise<CampaignTrainRow> {
  const branch =
    row.branch ??
    (root ? pickCampaignBranch(await localBranches(root), slug) : undefined) ??
    `campaign/${slug}`;
  return { repository: rowRef(row), branch, into: row.into ?? into ?? DEFAULT_LAND_INTO };
}

/** The train rows of `rows` (each resolved to its checkout; a row the workspace cannot resolve is refused). */
export async function campaignTrainRows(
  ctx: OpContext,
  rows: readonly CampaignRow[],
  slug: string,
  into: string | undefined,
): Promise<CampaignTrainRow[]> {
  const out: CampaignTrainRow[] = [];
  for (const row of rows)
    out.push(await campaignTrainRow(row, slug, into, (await mergeTarget(ctx, rowRef(row))).root));
  return out;
}

/**
 * What `campaign land` would do now for the rows not merged, without changing anything: the train's dry run, with
 * a row the workspace does not know, or has not checked out, reported as blocked in its place rather than
 * refusing the whole preview. Null when every row is merged.
 */
export async function landingPreview(
  ctx: OpContext,
  rows: readonly CampaignRow[],
  slug: string,
  into?: string,
): Promise<TrainReport | null> {
  const open = rows.filter((r) => r.status !== 'merged');
  if (open.length === 0) return null;
  const reports: Array<TrainRowReport | number> = [];
  const ready: CampaignTrainRow[] = [];
  const seen = new Map<string, string>();
  for (const row of open) {
    let root: string | undefined;
    try {
      root = (await mergeTarget(ctx, rowRef(row))).root;
    } catch (err) {
      if (!(err instanceof HubError) || err.code === 'internal') throw err;
      reports.push(blocked(await campaignTrainRow(row, slug, into, undefined), 'unknown_repository', err));
      continue;
    }
    const t = await campaignTrainRow(row, slug, into, root);
    if (!root) {
      reports.push(
        blocked(
          t,
          'not_checked_out',
          `${t.repository} is not checked out here; a train merges in its checkout`,
        ),
      );
      continue;
    }
    // A row a train would refuse (its own target, a target twice, past a train's size) is shown blocked with
    // the reason, rather than refusing the whole status.
    const why =
      ready.length >= MAX_TRAIN_ROWS
        ? `a train lands at most ${MAX_TRAIN_ROWS} rows; land the first ones, then this one`
        : refusal(() => checkRow({ ...t, root }, ready.length, seen));
    if (why) {
      reports.push(blocked(t, 'not_landable', why));
      continue;
    }
    reports.push(ready.length);
    ready.push(t);
  }
  const dry = ready.length > 0 ? (await runTrain(ctx, ready, true)).rows : [];
  return summarizeTrain(
    true,
    reports.map((r) => (typeof r === 'number' ? dry[r]! : r)),
  );
}

function blocked(
  t: CampaignTrainRow,
  code: 'unknown_repository' | 'not_checked_out' | 'not_landable',
  why: Error | string,
): TrainRowReport {
  return {
    ...t,
    branch_sha: null,
    old_sha: null,
    new_sha: null,
    target_sha: null,
    outcome: 'blocked',
    cause: { code, message: typeof why === 'string' ? why : why.message },
  };
}

/** The message of the refusal `check` throws (a user's or a file's value), undefined when it passes. */
function refusal(check: () => void): string | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    if (err instanceof HubError && err.code !== 'internal') return err.message;
    throw err;
  }
}
