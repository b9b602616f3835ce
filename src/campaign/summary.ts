import type { Objective } from '../coord/index.js';
import type { TrainReport } from '../train/index.js';
import {
  type Campaign,
  type CampaignRow,
  type CampaignStatus,
  campaignObjectiveId,
  type Lesson,
  type RowStatus,
} from './schema.js';

/** Counts of a campaign's rows, as `campaign list` shows them. */
export interface CampaignCounts {
  repo_count: number;
  pending_count: number;
  routed_count: number;
  open_mr_count: number;
  merged_count: number;
  blocked_count: number;
}

/** One line of `campaign list`. */
export interface CampaignSummary extends CampaignCounts {
  slug: string;
  title: string;
  status: CampaignStatus;
  file: string;
  updated: string | null;
}

export function countRows(rows: readonly CampaignRow[]): CampaignCounts {
  const n = (s: RowStatus) => rows.filter((r) => r.status === s).length;
  return {
    repo_count: rows.length,
    pending_count: n('pending'),
    routed_count: n('routed'),
    open_mr_count: n('mr-open'),
    merged_count: n('merged'),
    blocked_count: n('blocked'),
  };
}

export function summarize(campaign: Campaign, file: string): CampaignSummary {
  return {
    slug: campaign.slug,
    title: campaign.title,
    status: campaign.status,
    file,
    updated: campaign.updated ?? null,
    ...countRows(campaign.repos),
  };
}

/** What a row's objective says, for rollups (null when `campaign expand` has not made it). */
export interface RowObjective {
  id: string;
  status: string;
  mr_url: string | null;
  approval_id: string | null;
  updated_at: string;
}

export interface StatusRow extends CampaignRow {
  objective: RowObjective | null;
}

/** `campaign status`: the document's fields, its counts, and each row with its objective. */
export interface CampaignStatusView extends CampaignCounts {
  slug: string;
  title: string;
  status: CampaignStatus;
  file: string;
  goal: string | null;
  reference_impl: string | null;
  objective_id: string | null;
  created: string | null;
  updated: string | null;
  work_item: Campaign['work_item'] | null;
  selection: Campaign['selection'];
  repos: StatusRow[];
  lessons: Lesson[];
  /** Rows whose objective names a merge request the row does not (the row may want `campaign set`). */
  mr_hints: Array<{ repo: string; mr_url: string }>;
  /** Rows with an open merge request: the row's `mr`, else its objective's `mr_url` (null when neither names one). */
  open_mrs: Array<{ repo: string; mr: string | null }>;
  /** Blocked rows and why: the row's note, and what landing now would stop at for them (`landing`'s cause). */
  blocked: Array<{ repo: string; note: string | null; landing_cause: string | null }>;
  /**
   * What `campaign land` would do now for the rows not merged (its dry run: each row's branch, target, old and new
   * head, outcome and cause); null when every row is merged or the preview was not asked for.
   */
  landing: TrainReport | null;
}

/** The status view of a campaign, with the objectives `campaign expand` made for its rows. */
export function statusView(
  campaign: Campaign,
  file: string,
  objectives: readonly Objective[],
  landing: TrainReport | null = null,
): CampaignStatusView {
  const byId = new Map(objectives.map((o) => [o.id, o]));
  const repos: StatusRow[] = campaign.repos.map((row) => {
    const o = byId.get(campaignObjectiveId(campaign.slug, row.project, row.repo));
    return {
      ...row,
      objective: o
        ? {
            id: o.id,
            status: o.status,
            mr_url: o.mr_url ?? null,
            approval_id: o.approval_id ?? null,
            updated_at: o.updated_at,
          }
        : null,
    };
  });
  return {
    slug: campaign.slug,
    title: campaign.title,
    status: campaign.status,
    file,
    goal: campaign.goal ?? null,
    reference_impl: campaign.reference_impl ?? null,
    objective_id: campaign.objective_id ?? null,
    created: campaign.created ?? null,
    updated: campaign.updated ?? null,
    work_item: campaign.work_item ?? null,
    selection: campaign.selection,
    ...countRows(campaign.repos),
    repos,
    lessons: campaign.lessons,
    mr_hints: repos.flatMap((r) =>
      r.objective?.mr_url && r.objective.mr_url !== r.mr
        ? [{ repo: `${r.project}/${r.repo}`, mr_url: r.objective.mr_url }]
        : [],
    ),
    open_mrs: repos.flatMap((r) =>
      r.status === 'mr-open'
        ? [{ repo: `${r.project}/${r.repo}`, mr: r.mr ?? r.objective?.mr_url ?? null }]
        : [],
    ),
    blocked: repos.flatMap((r) => {
      if (r.status !== 'blocked') return [];
      const repo = `${r.project}/${r.repo}`;
      const cause = landing?.rows.find((l) => l.repository === repo)?.cause;
      return [
        { repo, note: r.note ?? null, landing_cause: cause ? `${cause.code}: ${cause.message}` : null },
      ];
    }),
    landing,
  };
}
