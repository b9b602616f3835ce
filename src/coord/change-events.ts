import { type DocumentStore, isRouteMissing } from '../state/index.js';
import { newId } from './documents.js';
import { MAX_EVENT_BYTES, recordSequenced } from './events-sequence.js';
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
 * Records one event in the workspace's events log with its next sequence (`seq`), assigned in the same atomic
 * step as the append; through the http backend the hub server assigns it. An id already among the newest events
 * gets a `~2`, `~3`... suffix. A server that keeps only the spec's
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
  return recordFitted(store, fitEvent(record));
}

async function recordFitted(store: DocumentStore, record: CoordEvent): Promise<CoordEvent> {
  let out: Awaited<ReturnType<typeof recordSequenced>>;
  try {
    out = await recordSequenced(store, record);
  } catch (err) {
    if (store.callRoute && isRouteMissing(err)) return record;
    throw err;
  }
  return { ...record, id: out.id ?? record.id, ...(out.seq === undefined ? {} : { seq: out.seq }) };
}

/** Room left in MAX_EVENT_BYTES for what recording adds: `seq`, and a `~n` suffix on a repeated id. */
const RECORD_ROOM = 256;
/** Length texts of a clipped event keep (first pass), then the scalars of a data that is still too large. */
const CLIP_TEXT = 1024;
const CLIP_SCALAR = 256;

const clipText = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max)}…`);

/** `v` with every string longer than `max` cut to `max` (data is an operation's input: bounded in depth). */
function clipStrings(v: unknown, max: number): unknown {
  if (typeof v === 'string') return clipText(v, max);
  if (Array.isArray(v)) return v.map((x) => clipStrings(x, max));
  if (typeof v === 'object' && v !== null)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clipStrings(x, max)]));
  return v;
}

/**
 * The event within MAX_EVENT_BYTES: as given when it fits; else its texts clipped (`data.clipped: true`); else only
 * the short scalars of its data. The documents an event is about (objectives, handoffs, ACL records) keep the whole
 * text; the feed only needs to say what happened, and one long note must not fail the operation that wrote it.
 */
export function fitEvent(record: CoordEvent): CoordEvent {
  const limit = MAX_EVENT_BYTES - RECORD_ROOM;
  const fits = (e: CoordEvent) => JSON.stringify(e).length <= limit;
  if (fits(record)) return record;
  const head = {
    ...record,
    id: clipText(record.id, CLIP_SCALAR),
    source: clipText(record.source, CLIP_SCALAR),
    kind: clipText(record.kind, CLIP_SCALAR),
    ...(record.subject === undefined ? {} : { subject: clipText(record.subject, CLIP_TEXT) }),
  };
  const clipped = { ...head, data: { ...(clipStrings(record.data, CLIP_TEXT) as object), clipped: true } };
  if (fits(clipped)) return clipped;
  const scalars: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record.data)) {
    if (k.length > CLIP_SCALAR) continue;
    if (typeof v === 'string') scalars[k] = clipText(v, CLIP_SCALAR);
    else if (typeof v === 'number' || typeof v === 'boolean' || v === null) scalars[k] = v;
  }
  const small = { ...head, data: { ...scalars, clipped: true } };
  return fits(small) ? small : { ...head, data: { clipped: true } };
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
  const campaign = typeof h.payload.campaign === 'string' ? h.payload.campaign : undefined;
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
        ...(campaign ? { campaign } : {}),
      },
    });
  }
  return out;
}

/** The event of an objective write, as recorded: ObjectiveCreated, or ObjectiveUpdated (fitted to its bound). */
export function objectiveChangeEvent(objective: Objective, created: boolean): CoordEvent {
  return fitEvent(created ? objectiveCreatedEvent(objective) : objectiveUpdatedEvent(objective));
}

/** The events of the entries a handoffs write added, in document order, as recorded. */
export function handoffChangeEvents(added: readonly HandoffEntries[]): CoordEvent[] {
  return added.flatMap(({ handoff, from }) => handoffEntryEvents(handoff, from).map(fitEvent));
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
