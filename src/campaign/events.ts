import { type CoordEvent, recordEvent } from '../coord/index.js';
import type { DocumentStore } from '../state/index.js';

/** The `source` of the events campaign changes record. */
export const CAMPAIGN_EVENT_SOURCE = 'campaign';

/** Kinds of campaign events: CampaignCreated, CampaignUpdated, CampaignRowUpdated, CampaignLessonAdded, ... */
export type CampaignEventKind =
  | 'CampaignCreated'
  | 'CampaignUpdated'
  | 'CampaignRowUpdated'
  | 'CampaignLessonAdded'
  | 'CampaignExpanded'
  | 'CampaignBoardSynced';

/**
 * Records a campaign change in the events feed, subject the slug and `data.campaign` the slug, so that
 * `context events --campaign <slug>` finds it next to the events of the campaign's objectives.
 */
export function recordCampaignEvent(
  store: DocumentStore,
  kind: CampaignEventKind,
  slug: string,
  data: Record<string, unknown>,
  now: () => Date,
): Promise<CoordEvent> {
  return recordEvent(
    store,
    { source: CAMPAIGN_EVENT_SOURCE, kind, subject: slug, data: { ...data, campaign: slug } },
    now,
  );
}
