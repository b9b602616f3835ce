// The Campaigns page: every campaign with its progress, and the one chosen (`/campaigns?campaign=<slug>`, so a
// campaign can be linked and reloaded): its goal, rows, open merge requests, blocked rows, lessons and what
// `campaign land` would do now. It only reads. The polling bar is the Console's; while live, a campaign event on
// the shared events feed (a row set through the CLI, a lesson, an expand) refreshes the list and the status at once.
import { useState } from 'react';
import { CAMPAIGNS_PATH, useCampaignStatus, useCampaigns } from '../../api/campaigns';
import { liveStatusText, useLiveFeed, useRefreshNow } from '../../api/live-hooks';
import { PollingBar, usePolling } from '../../components/polling-bar';
import { QueryState } from '../../components/query-state';
import { useSearchState } from '../../components/use-search-state';
import { CampaignDetail } from './campaign-detail';
import { CampaignListView } from './campaign-list';
import './campaigns.css';

const ROUTES = [CAMPAIGNS_PATH];

export default function CampaignsPage() {
  const polling = usePolling();
  const snap = useLiveFeed({ live: polling.live, intervalMs: polling.seconds * 1000 });
  const refreshNow = useRefreshNow(ROUTES);
  const [refreshing, setRefreshing] = useState(false);
  const [params, setParams] = useSearchState();
  const slug = params.get('campaign') ?? undefined;
  const list = useCampaigns(polling.refetchInterval);
  const status = useCampaignStatus(slug, polling.refetchInterval);
  return (
    <section className="campaigns">
      <h1>Campaigns</h1>
      <PollingBar
        polling={polling}
        refreshing={refreshing}
        onRefresh={() => {
          setRefreshing(true);
          void refreshNow().finally(() => setRefreshing(false));
        }}
        status={liveStatusText(snap, polling.live, polling.seconds)}
      />
      <QueryState query={list} label="Loading campaigns…">
        {(data) => (
          <CampaignListView
            data={data}
            selected={slug}
            filter={params.get('q') ?? ''}
            onFilter={(q) => setParams({ q }, { replace: true })}
            onSelect={(s) => setParams({ campaign: s }, { replace: true })}
          />
        )}
      </QueryState>
      {slug ? (
        <QueryState query={status} label={`Loading ${slug}…`}>
          {(v) => <CampaignDetail v={v} />}
        </QueryState>
      ) : (
        <p className="muted cmp-pick">Pick a campaign above to see its rows, lessons and land preview.</p>
      )}
    </section>
  );
}
