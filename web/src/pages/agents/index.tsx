// The Agents page: sub-tabs Templates (catalog by category, vendor preview, dispatch plan, team overlay init),
// Objectives (grouped by status) and Sessions (digest, active objective). Objectives and Sessions share one
// polling bar (live update, 30s/60s/90s/300s, Refresh now); while live, the server's event push refreshes them as
// soon as something changes, and polling keeps going as the fallback.
import { liveStatusText, useLiveFeed, useRefreshNow } from '../../api/live-hooks';
import { PollingBar, usePolling } from '../../components/polling-bar';
import { Tabs } from '../../components/tabs';
import { useSearchState } from '../../components/use-search-state';
import { ObjectivesTab } from './objectives-tab';
import { SessionsTab } from './sessions-tab';
import { TemplatesTab } from './templates-tab';
import './agents.css';
import { useState } from 'react';
import type { Polling } from '../../components/polling-bar';

const TABS = [
  { id: 'templates', label: 'Templates' },
  { id: 'objectives', label: 'Objectives' },
  { id: 'sessions', label: 'Sessions' },
] as const;
type TabId = (typeof TABS)[number]['id'];

const LIVE_ROUTES = ['/v3/ops/objectives', '/v3/ops/session'];

/** The polling bar and the live feed, for the two tabs that share them. */
function LiveArea({ tab, polling }: { tab: 'objectives' | 'sessions'; polling: Polling }) {
  const snap = useLiveFeed({ live: polling.live, intervalMs: polling.seconds * 1000 });
  const refreshNow = useRefreshNow(LIVE_ROUTES);
  const [refreshing, setRefreshing] = useState(false);
  return (
    <>
      <PollingBar
        polling={polling}
        refreshing={refreshing}
        onRefresh={() => {
          setRefreshing(true);
          void refreshNow().finally(() => setRefreshing(false));
        }}
        status={liveStatusText(snap, polling.live, polling.seconds)}
      />
      {tab === 'objectives' ? (
        <ObjectivesTab refetchInterval={polling.refetchInterval} />
      ) : (
        <SessionsTab refetchInterval={polling.refetchInterval} />
      )}
    </>
  );
}

export default function AgentsPage() {
  const [params, setParams] = useSearchState();
  const polling = usePolling();
  const tab: TabId = TABS.find((t) => t.id === params.get('tab'))?.id ?? 'templates';
  return (
    <section className="agents">
      <h1>Agents</h1>
      <Tabs
        tabs={TABS}
        value={tab}
        label="Agents views"
        onChange={(id) => setParams({ tab: id === 'templates' ? undefined : id })}
      >
        {tab === 'templates' ? <TemplatesTab /> : <LiveArea tab={tab} polling={polling} />}
      </Tabs>
    </section>
  );
}
