import { type DocumentStore, isRouteMissing } from '../state/index.js';
import { DOCS, newId } from './documents.js';
import { recordSequenced } from './events-sequence.js';
import type { CoordEvent, Handoff, Objective } from './schemas.js';

/**
 * The events of objective and handoff changes, built one way for both uses: recorded (with a sequence) by the
 * operation that made the change, and derived from the documents for a change nothing recorded (a document
 * written before changes were recorded, a raw `state put`, an expired claim not yet written). Both carry the same
 * id, so the feed shows a derived event only while no recorded one has its id.
 */

/** An event to persist; id and timestamp are filled in when absent. */
export interface NewCoordEvent {
  id?: string;
  timestamp?: string;
  source: string;
  kind: string;
  subject?: string;
  data?: Record<string, unknown>;
}

/**
 * Records one event in the persisted `coord.events` document with the workspace's next sequence (`seq`), in one
 * atomic update (or compare-and-swap) of the document; through the http backend the hub server assigns it. An id
 * already in the document gets a `~2`, `~3`... suffix, so ids stay unique. A server that keeps only the spec's
 * contract has no route to record events (its events document is read-only): the change that was just written
 * stands, and nothing is recorded (failing would report a write that happened as failed).
 */
export async function recordEvent(
  store: DocumentStore,
  event: NewCoordEvent,
  now: () => Date = () => new Date(),
): Promise<CoordEvent> {
  const record: CoordEvent = {
    id: event.id ?? newId('ev'),
    timestamp: event.timestamp ?? now().toISOString(),
    source: event.source,
    kind: event.kind,
    ...(event.subject === undefined ? {} : { subject: event.subject }),
    data: event.data ?? {},
  };
  if (store.callRoute) {
    try {
      await store.append(DOCS.events, 'events', record);
    } catch (err) {
      if (!isRouteMissing(err)) throw err;
    }
    return record;
  }
  const { seq, id } = await recordSequenced(store, record);
  return { ...record, id: id ?? record.id, ...(seq === undefined ? {} : { seq }) };
}

const HANDOFF_KINDS: Record<string, string> = {
  create: 'HandoffCreated',
  claim: 'HandoffClaimed',
  heartbeat: 'HandoffHeartbeat',
  complete: 'HandoffCompleted',
  cancel: 'HandoffCancelled',
  'release-expired': 'HandoffReleased',
};

const objectiveData = (o: Objective) => ({ objective_id: o.id, title: o.title, status: o.status });

/** ObjectiveCreated, at the objective's created_at. */
export function objectiveCreatedEvent(o: Objective): CoordEvent {
  return {
    id: `objective:${o.id}:created`,
    timestamp: o.created_at,
    source: 'objective',
    kind: 'ObjectiveCreated',
    subject: o.id,
    data: objectiveData(o),
  };
}

/** ObjectiveUpdated, at the objective's updated_at. */
export function objectiveUpdatedEvent(o: Objective): CoordEvent {
  return {
    id: `objective:${o.id}:updated:${o.updated_at}`,
    timestamp: o.updated_at,
    source: 'objective',
    kind: 'ObjectiveUpdated',
    subject: o.id,
    data: objectiveData(o),
  };
}

/** The events of entries `from`.. of a handoff's `events[]`, one each, id `handoff:<id>:<index>`. */
export function handoffEntryEvents(h: Handoff, from = 0): CoordEvent[] {
  const objectiveId = typeof h.payload.objective_id === 'string' ? h.payload.objective_id : undefined;
  const out: CoordEvent[] = [];
  for (let i = from; i < h.events.length; i++) {
    const e = h.events[i]!;
    out.push({
      id: `handoff:${h.id}:${i}`,
      timestamp: e.at,
      source: 'handoff',
      kind: HANDOFF_KINDS[e.action] ?? 'HandoffEvent',
      subject: h.id,
      data: {
        action: e.action,
        by: e.by,
        title: h.title,
        ...(e.note === undefined ? {} : { note: e.note }),
        ...(objectiveId ? { objective_id: objectiveId } : {}),
      },
    });
  }
  return out;
}

/** Records the change an objective write made: ObjectiveCreated, or ObjectiveUpdated. */
export async function recordObjectiveChange(
  store: DocumentStore,
  objective: Objective,
  created: boolean,
): Promise<void> {
  await recordEvent(store, created ? objectiveCreatedEvent(objective) : objectiveUpdatedEvent(objective));
}

/** What a write of the handoffs document added: each changed handoff and the index of its first new entry. */
export interface HandoffEntries {
  handoff: Handoff;
  from: number;
}

/** Records the entries a handoffs write added, in document order (one sequence each). */
export async function recordHandoffEntries(
  store: DocumentStore,
  added: readonly HandoffEntries[],
): Promise<void> {
  for (const { handoff, from } of added)
    for (const e of handoffEntryEvents(handoff, from)) await recordEvent(store, e);
}
