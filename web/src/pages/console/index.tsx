// The Workspace Console: coordination at a glance. Pending approvals (approve or deny, confirmed first), open
// handoffs and file claims with their holders and expiry, worktrees and leases per agent, and the live events
// feed. One polling bar (as on the Agents page) sets how often the lists are read; while live, the server's event
// push refreshes exactly the lists an event changes.
import { useState } from 'react';
import { liveStatusText, useLiveFeed, useRefreshNow } from '../../api/live-hooks';
import { PollingBar, usePolling } from '../../components/polling-bar';
import { AgentHoldings } from './agent-holdings';
import { Approvals } from './approvals';
import { EventsFeed } from './events-feed';
import { HandoffsAndClaims } from './handoffs-claims';
import './console.css';

const ROUTES = [
  '/v3/ops/approvals',
  '/v3/ops/handoffs',
  '/v3/ops/claims',
  '/v3/ops/worktrees',
  '/v3/ops/leases',
  '/v3/ops/agents',
];

export default function ConsolePage() {
  const polling = usePolling();
  const [fresh, setFresh] = useState<ReadonlySet<string>>(() => new Set());
  const snap = useLiveFeed({
    live: polling.live,
    intervalMs: polling.seconds * 1000,
    onEvents: (events) =>
      setFresh((prev) => {
        const next = new Set(prev);
        for (const e of events) next.add(e.id);
        return next;
      }),
  });
  const refreshNow = useRefreshNow(ROUTES);
  const [refreshing, setRefreshing] = useState(false);
  const every = polling.refetchInterval;
  return (
    <section className="console">
      <h1>Workspace Console</h1>
      <PollingBar
        polling={polling}
        refreshing={refreshing}
        onRefresh={() => {
          setRefreshing(true);
          void refreshNow().finally(() => setRefreshing(false));
        }}
        status={liveStatusText(snap, polling.live, polling.seconds)}
      />
      <Approvals refetchInterval={every} />
      <div className="console__grid">
        <div className="console__main">
          <HandoffsAndClaims refetchInterval={every} />
        </div>
        <EventsFeed snap={snap} fresh={fresh} />
      </div>
      <AgentHoldings refetchInterval={every} />
    </section>
  );
}
