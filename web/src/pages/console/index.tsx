// First version of the Workspace Console (the console engineer replaces it): the latest coordination events.
import { useRoute } from '../../api/query';
import { QueryState } from '../../components/query-state';

interface EventsPage {
  events: Array<{ id?: string; type?: string; at?: string; [k: string]: unknown }>;
}

export default function ConsolePage() {
  const events = useRoute<EventsPage>('/v3/ops/events');
  return (
    <section>
      <h1>Console</h1>
      <QueryState query={events} label="Loading events…">
        {(e) =>
          e.events.length === 0 ? (
            <p className="muted">No coordination events yet.</p>
          ) : (
            <ul>
              {e.events.map((ev, i) => (
                <li key={ev.id ?? i}>
                  <code>{ev.type ?? 'event'}</code> {ev.at ?? ''}
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </section>
  );
}
