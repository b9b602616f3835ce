// First version of the Workspace Console (the console engineer replaces it): the coordination events feed,
// loaded once and then kept live by GET /v3/ops/events/stream (Server-Sent Events over fetch).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { useEventStream } from '../../api/event-stream';
import { routeKey, useRoute } from '../../api/query';
import { Badge } from '../../components/badge';
import { QueryState } from '../../components/query-state';

interface CoordEvent {
  id: string;
  timestamp: string;
  source: string;
  kind: string;
  subject?: string;
}

interface EventsPage {
  next_cursor: string | null;
  events: CoordEvent[];
}

const FEED = '/v3/ops/events';

export default function ConsolePage() {
  const client = useQueryClient();
  const events = useRoute<EventsPage>(FEED);
  // New events are appended to the cached feed; the stream starts after what the GET returned.
  const onEvent = useCallback(
    (data: unknown) => {
      const e = data as CoordEvent;
      client.setQueryData<EventsPage>(routeKey(FEED), (page) =>
        !page || page.events.some((x) => x.id === e.id) ? page : { ...page, events: [...page.events, e] },
      );
    },
    [client],
  );
  // The stream starts after the first load's last event, once: a later refetch must not reopen it.
  const since = useRef<string | null | undefined>(undefined);
  if (since.current === undefined && events.data) since.current = events.data.next_cursor;
  const live = useEventStream('/v3/ops/events/stream', {
    query: since.current ? { since: since.current } : undefined,
    enabled: events.isSuccess,
    onEvent,
  });
  return (
    <section>
      <h1>Console</h1>
      <p>
        Live updates:{' '}
        <Badge tone={live.status === 'open' ? 'ok' : live.status === 'retrying' ? 'warn' : 'neutral'}>
          {live.status}
        </Badge>
      </p>
      <QueryState query={events} label="Loading events…">
        {(e) =>
          e.events.length === 0 ? (
            <p className="muted">No coordination events yet.</p>
          ) : (
            <ul aria-label="Events">
              {e.events.map((ev) => (
                <li key={ev.id}>
                  <code>{ev.kind}</code> {ev.subject ?? ''} <span className="muted">{ev.timestamp}</span>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
