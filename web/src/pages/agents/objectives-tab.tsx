// Objectives grouped by status (in progress, pending, blocked, done, cancelled), newest change first in each
// group; a group shows its first PAGE objectives and more on request, so hundreds of objectives stay light.
import { useState } from 'react';
import { OBJECTIVE_STATUSES, type Objective, type ObjectiveStatus, useObjectives } from '../../api/agents';
import { Badge, type BadgeTone } from '../../components/badge';
import { QueryState } from '../../components/query-state';
import { RelativeTime } from '../../components/relative-time';

const PAGE = 50;

export const STATUS_LABEL: Record<ObjectiveStatus, string> = {
  in_progress: 'In progress',
  pending: 'Pending',
  blocked: 'Blocked',
  done: 'Done',
  cancelled: 'Cancelled',
};

export const STATUS_TONE: Record<ObjectiveStatus, BadgeTone> = {
  in_progress: 'info',
  pending: 'neutral',
  blocked: 'danger',
  done: 'ok',
  cancelled: 'neutral',
};

/** Objectives by status in the display order; unknown statuses (kept by the store) go last under their name. */
export function groupObjectives(
  objectives: readonly Objective[],
): Array<{ status: string; items: Objective[] }> {
  const groups = new Map<string, Objective[]>(OBJECTIVE_STATUSES.map((s) => [s, []]));
  for (const o of objectives) {
    const list = groups.get(o.status) ?? [];
    list.push(o);
    groups.set(o.status, list);
  }
  return [...groups].map(([status, items]) => ({
    status,
    items: items.sort((a, b) => b.updated_at.localeCompare(a.updated_at) || a.id.localeCompare(b.id)),
  }));
}

export function ObjectiveCard({ o, active }: { o: Objective; active?: boolean }) {
  const status = o.status as ObjectiveStatus;
  return (
    <article className="objective" aria-labelledby={`obj-${o.id}`}>
      <header className="objective__header">
        <h4 id={`obj-${o.id}`}>{o.title}</h4>
        <code>{o.id}</code>
        <Badge tone={STATUS_TONE[status] ?? 'neutral'}>{STATUS_LABEL[status] ?? o.status}</Badge>
        {active && <Badge tone="info">active</Badge>}
        <span className="objective__time muted">
          updated <RelativeTime iso={o.updated_at} />
        </span>
      </header>
      {o.repos.length > 0 && (
        <p className="objective__repos">
          {o.repos.map((r) => (
            <code key={r}>{r}</code>
          ))}
        </p>
      )}
      {o.acceptance && (
        <p>
          <span className="muted">Acceptance:</span> {o.acceptance}
        </p>
      )}
      {o.human_notes && (
        <p>
          <span className="muted">Human notes:</span> {o.human_notes}
        </p>
      )}
      {o.agent_notes && (
        <details>
          <summary>Agent notes</summary>
          <pre className="objective__notes">{o.agent_notes}</pre>
        </details>
      )}
    </article>
  );
}

function Group({ status, items }: { status: string; items: Objective[] }) {
  const [shown, setShown] = useState(PAGE);
  const label = STATUS_LABEL[status as ObjectiveStatus] ?? status;
  return (
    <section className="objective-group" aria-labelledby={`group-${status}`}>
      <h3 id={`group-${status}`}>
        {label} <span className="muted">({items.length})</span>
      </h3>
      {items.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <>
          {items.slice(0, shown).map((o) => (
            <ObjectiveCard key={o.id} o={o} />
          ))}
          {items.length > shown && (
            <button type="button" onClick={() => setShown((n) => n + PAGE)}>
              Show {Math.min(PAGE, items.length - shown)} more of {items.length - shown}
            </button>
          )}
        </>
      )}
    </section>
  );
}

export function ObjectivesTab({ refetchInterval }: { refetchInterval: number | false }) {
  const objectives = useObjectives(refetchInterval);
  return (
    <QueryState query={objectives} label="Loading objectives…">
      {(d) =>
        d.objectives.length === 0 ? (
          <p className="muted">
            No objectives yet. Agents and people record them with <code>hub context objective set</code>.
          </p>
        ) : (
          <div className="objective-groups">
            {groupObjectives(d.objectives).map((g) => (
              <Group key={g.status} status={g.status} items={g.items} />
            ))}
          </div>
        )
      }
    </QueryState>
  );
}
