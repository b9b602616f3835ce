// The live events feed: newest first, virtualised (the browser keeps the newest 5,000), filterable by kind,
// source or subject; events that arrived while the page was open carry a "new" mark.
import { useDeferredValue, useId, useMemo, useState } from 'react';
import type { CoordEvent, LiveSnapshot } from '../../api/live-events';
import { Badge, type BadgeTone } from '../../components/badge';
import { ErrorBanner } from '../../components/error-banner';
import { Loading } from '../../components/loading';
import { RelativeTime } from '../../components/relative-time';
import { type Column, VirtualTable } from '../../components/virtual-table';

const SOURCE_TONE: Record<string, BadgeTone> = {
  objective: 'info',
  handoff: 'neutral',
  approval: 'warn',
  acl: 'ok',
};

/** The few data fields that say who did what, in one line. */
export function eventSummary(e: CoordEvent): string {
  const d = e.data ?? {};
  const pick = (k: string) =>
    typeof d[k] === 'string' || typeof d[k] === 'number' ? String(d[k]) : undefined;
  const parts = [
    pick('agent_id') ?? pick('by') ?? pick('requested_by') ?? pick('resolved_by'),
    pick('title') ?? pick('action') ?? pick('name') ?? pick('task_id'),
    pick('decision') ?? pick('status'),
  ].filter((x): x is string => Boolean(x));
  return parts.join(' · ');
}

export function EventsFeed({ snap, fresh }: { snap: LiveSnapshot; fresh: ReadonlySet<string> }) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const term = useDeferredValue(filter.trim().toLowerCase());
  const rows = useMemo(() => {
    const newestFirst = [...snap.events].reverse();
    if (!term) return newestFirst;
    return newestFirst.filter((e) =>
      [e.kind, e.source, e.subject ?? '', eventSummary(e)].some((s) => s.toLowerCase().includes(term)),
    );
  }, [snap.events, term]);
  const columns: Column<CoordEvent>[] = [
    {
      key: 'at',
      header: 'When',
      width: '6.5rem',
      render: (e) => (
        <>
          <RelativeTime iso={e.timestamp} />
          {fresh.has(e.id) && (
            <>
              {' '}
              <Badge tone="info">new</Badge>
            </>
          )}
        </>
      ),
    },
    {
      key: 'kind',
      header: 'Event',
      width: '11rem',
      render: (e) => (
        <span title={e.source}>
          <Badge tone={SOURCE_TONE[e.source] ?? 'neutral'}>{e.kind}</Badge>
        </span>
      ),
    },
    {
      key: 'what',
      header: 'Subject',
      render: (e) => {
        const summary = eventSummary(e);
        return (
          <span title={JSON.stringify(e.data ?? {}, null, 2)}>
            <code>{e.subject ?? '—'}</code> {summary && <span className="muted">{summary}</span>}
          </span>
        );
      },
    },
  ];
  return (
    <section className="panel console__events" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>
        Events <span className="muted">({snap.events.length})</span>
      </h2>
      <label className="filter" htmlFor={`${id}-filter`}>
        Filter{' '}
        <input
          id={`${id}-filter`}
          type="search"
          value={filter}
          placeholder="kind, source, subject, agent"
          onChange={(e) => setFilter(e.target.value)}
        />
      </label>
      {snap.error && !snap.loaded ? (
        <ErrorBanner error={snap.error} />
      ) : !snap.loaded ? (
        <Loading label="Loading events…" />
      ) : (
        <VirtualTable
          rows={rows}
          columns={columns}
          rowKey={(e) => e.id}
          label="Coordination events, newest first"
          height="55vh"
          empty={term ? 'No event matches the filter.' : 'No coordination events yet.'}
        />
      )}
    </section>
  );
}
