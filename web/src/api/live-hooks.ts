// React side of the live events feed: a page subscribes with its polling settings, and new events invalidate the
// react-query entries of the routes they change (so a list refetches at once instead of at the next poll).
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { type CoordEvent, type LiveSnapshot, type LiveSubscriber, liveFeed } from './live-events';

/** The routes an event can change, by its kind (docs/coordination.md lists the kinds). */
export function routesChangedBy(e: Pick<CoordEvent, 'kind' | 'source' | 'subject' | 'data'>): string[] {
  const own = ownRoutes(e);
  // An event about a campaign (its own, a train's, a handoff or approval naming it in `data.campaign`) or about a
  // row's objective (`campaign-<slug>-<project>-<repo>`) also changes the campaign's status and land preview.
  const campaign =
    typeof e.data?.campaign === 'string' ||
    ((e.kind.startsWith('Objective') || e.source === 'objective') && e.subject?.startsWith('campaign-'));
  return campaign && !own.includes(CAMPAIGNS) ? [...own, CAMPAIGNS] : own;
}

const CAMPAIGNS = '/v3/ops/campaigns';

function ownRoutes(e: Pick<CoordEvent, 'kind' | 'source'>): string[] {
  const k = e.kind;
  if (k.startsWith('Campaign') || e.source === 'campaign') return [CAMPAIGNS];
  if (k.startsWith('Objective') || e.source === 'objective') return ['/v3/ops/objectives', '/v3/ops/session'];
  if (k.startsWith('Handoff') || e.source === 'handoff') return ['/v3/ops/handoffs'];
  if (k.startsWith('Approval')) return ['/v3/ops/approvals'];
  if (k.startsWith('Claim')) return ['/v3/ops/claims', '/v3/ops/agents'];
  if (k.startsWith('Lease') || k.startsWith('Branch')) return ['/v3/ops/leases', '/v3/ops/agents'];
  if (k.startsWith('Worktree')) return ['/v3/ops/worktrees', '/v3/ops/agents'];
  return [];
}

/** Invalidates, once per burst, every route a batch of events changes. */
export function invalidateFor(client: QueryClient, events: readonly CoordEvent[]): string[] {
  const paths = [...new Set(events.flatMap(routesChangedBy))];
  for (const p of paths) void client.invalidateQueries({ queryKey: [p] });
  return paths;
}

export interface LiveOptions {
  live: boolean;
  intervalMs: number;
  /** Called with each batch of new events after the invalidations. */
  onEvents?: (events: CoordEvent[]) => void;
}

/** Subscribes this page to the live feed; returns its snapshot (mode, events, errors). */
export function useLiveFeed({ live, intervalMs, onEvents }: LiveOptions): LiveSnapshot {
  const client = useQueryClient();
  const snap = useSyncExternalStore(liveFeed.subscribe, liveFeed.snapshot);
  const callback = useRef(onEvents);
  callback.current = onEvents;
  const sub = useRef<LiveSubscriber | null>(null);
  if (sub.current === null) {
    sub.current = {
      live,
      intervalMs,
      onEvents: (events) => {
        invalidateFor(client, events);
        callback.current?.(events);
      },
    };
  }
  useEffect(() => liveFeed.register(sub.current!), []);
  useEffect(() => {
    sub.current!.live = live;
    sub.current!.intervalMs = intervalMs;
    liveFeed.changed();
  }, [live, intervalMs]);
  return snap;
}

/**
 * Refresh now: reads the feed once (new events invalidate their routes, which starts their fetch), then refetches
 * every given route, joining a fetch already in flight instead of sending a second one.
 */
export function useRefreshNow(paths: readonly string[]): () => Promise<void> {
  const client = useQueryClient();
  // `key` stands for `paths`, which callers may rebuild each render.
  const key = paths.join('\n');
  return useCallback(async () => {
    await liveFeed.refresh();
    await Promise.all(
      key
        .split('\n')
        .map((p) => client.refetchQueries({ queryKey: [p], type: 'active' }, { cancelRefetch: false })),
    );
  }, [client, key]);
}

/** One line for the polling bar: what keeps the page current right now. */
export function liveStatusText(
  snap: Pick<LiveSnapshot, 'mode' | 'streamProblem'>,
  live: boolean,
  seconds: number,
): string {
  if (!live) return 'Paused: press Refresh now, or turn Live update on';
  switch (snap.mode) {
    case 'streaming':
      return `Server push, and polling every ${seconds}s`;
    case 'connecting':
      return `Connecting to the event stream; polling every ${seconds}s`;
    case 'polling':
      return `Polling every ${seconds}s (${snap.streamProblem ?? 'no event stream'})`;
    default:
      return `Polling every ${seconds}s`;
  }
}
