// Hooks of the campaign routes the Campaigns page reads (docs/campaigns.md): the list with its counts and one
// campaign's combined status (rows with their objectives, lessons, open merge requests, blocked rows and the
// dry run of `campaign land`). The answer types are the server's own (type-only imports: nothing of the server is
// bundled). Every key starts with `/v3/ops/campaigns`, so invalidating that path refreshes the list and every
// status at once (a campaign event does).
import { useQuery } from '@tanstack/react-query';
import type { CampaignFileProblem } from '../../../src/campaign/files.js';
import type { CampaignStatusView, CampaignSummary } from '../../../src/campaign/summary.js';
import type { TrainReport, TrainRowReport } from '../../../src/train/schema.js';
import { api } from './client';
import { useRoute } from './query';

export type { CampaignStatusView, CampaignSummary, TrainReport, TrainRowReport };
export type RowStatus = CampaignStatusView['repos'][number]['status'];
export type StatusRow = CampaignStatusView['repos'][number];

export const CAMPAIGNS_PATH = '/v3/ops/campaigns';

export interface CampaignList {
  campaigns: CampaignSummary[];
  problems: CampaignFileProblem[];
}

/** GET .../status: the rows with their objectives, open merge requests, blocked rows, and `landing` (the dry run). */
export type CampaignStatusAnswer = CampaignStatusView;

const live = (refetchInterval: number | false) => ({ refetchInterval, staleTime: 0 });

/** GET /v3/ops/campaigns: every campaign with its counts, and the files that could not be read. */
export function useCampaigns(refetchInterval: number | false) {
  return useRoute<CampaignList>(CAMPAIGNS_PATH, undefined, live(refetchInterval));
}

/** GET /v3/ops/campaigns/{slug}/status, keyed under the list's path (one invalidation refreshes both). */
export function useCampaignStatus(slug: string | undefined, refetchInterval: number | false) {
  return useQuery<CampaignStatusAnswer, Error>({
    ...live(refetchInterval),
    queryKey: [CAMPAIGNS_PATH, 'status', slug ?? ''],
    queryFn: ({ signal }) =>
      api<CampaignStatusAnswer>(`${CAMPAIGNS_PATH}/${encodeURIComponent(slug ?? '')}/status`, { signal }),
    enabled: Boolean(slug),
  });
}
