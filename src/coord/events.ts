import { ValidationError } from '../infra/index.js';
import type { DocumentStore } from '../state/index.js';
import { DOCS, newId, parseDoc } from './documents.js';
import { recordSequenced, sequenced } from './events-sequence.js';
import { handoffsView } from './handoffs.js';
import {
  type CoordEvent,
  EventsDocSchema,
  type EventsFeed,
  type Handoff,
  HandoffsDocSchema,
  type Objective,
  ObjectivesDocSchema,
} from './schemas.js';

/** An event to persist; id and timestamp are filled in when absent. */
export interface NewCoordEvent {
  id?: string;
  timestamp?: string;
  source: string;
  kind: string;
  subject?: string;
  data?: Record<string, unknown>;
}

export interface EventsFilter {
  /** ISO timestamp; only events strictly after it are returned. */
  since?: string;
  /**
   * A sequence (`next_seq` of an earlier read): only recorded events with a higher `seq`, and derived events (no
   * sequence) later than the recorded event it names.
   */
  after_seq?: number;
  /** Objective id: events whose subject or `data.objective_id` is it. */
  objective?: string;
  /** Campaign slug: events of objectives whose id starts with `campaign-<slug>-`. */
  campaign?: string;
}

const HANDOFF_KINDS: Record<string, string> = {
  create: 'HandoffCreated',
  claim: 'HandoffClaimed',
  heartbeat: 'HandoffHeartbeat',
  complete: 'HandoffCompleted',
  cancel: 'HandoffCancelled',
  'release-expired': 'HandoffReleased',
};

const ISO_RE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

const time = (s: string) => {
  const t = Date.parse(s);
  return Number.isNaN(t) ? 0 : t;
};

/**
 * Records one event in the persisted `coord.events` document with the workspace's next sequence (`seq`), in one
 * atomic update (or compare-and-swap) of the document; through the http backend the hub server assigns it.
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
  const { seq } = await recordSequenced(store, record);
  return seq === undefined ? record : { ...record, seq };
}

/** ObjectiveCreated at created_at, and ObjectiveUpdated at updated_at when it differs. */
export function objectiveEvents(objectives: readonly Objective[]): CoordEvent[] {
  return objectives.flatMap((o) => {
    const data = { objective_id: o.id, title: o.title, status: o.status };
    const created: CoordEvent = {
      id: `objective:${o.id}:created`,
      timestamp: o.created_at,
      source: 'objective',
      kind: 'ObjectiveCreated',
      subject: o.id,
      data,
    };
    if (o.updated_at === o.created_at) return [created];
    return [
      created,
      {
        id: `objective:${o.id}:updated:${o.updated_at}`,
        timestamp: o.updated_at,
        source: 'objective',
        kind: 'ObjectiveUpdated',
        subject: o.id,
        data,
      },
    ];
  });
}

/** One event per entry of each handoff's `events[]`. */
export function handoffEvents(handoffs: readonly Handoff[]): CoordEvent[] {
  return handoffs.flatMap((h) => {
    const objectiveId = typeof h.payload.objective_id === 'string' ? h.payload.objective_id : undefined;
    return h.events.map((e, i) => ({
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
    }));
  });
}

/** Checks an ISO timestamp filter; returns its time in ms. */
export function parseSince(since: string): number {
  const t = Date.parse(since);
  if (!ISO_RE.test(since.trim()) || Number.isNaN(t)) {
    throw new ValidationError(`since: '${since}' is not an ISO 8601 timestamp (e.g. 2026-01-31T12:00:00Z)`, {
      field: 'since',
      value: since,
      rule: 'iso_timestamp',
    });
  }
  return t;
}

const objectiveOf = (e: CoordEvent) =>
  typeof e.data.objective_id === 'string' ? e.data.objective_id : undefined;

/** Backends whose objectives and handoffs are hub's own documents, so the derived stream applies. */
const DERIVING_BACKENDS = new Set(['local', 'http']);

/**
 * The events feed: derived objective and handoff events plus `coord.events` on the local backend and on a hub
 * server reached through the http backend (whose documents are the server's, so the feed is the one the server
 * serves); only `coord.events` on the direct memory and cloud backends, as the spec says. Sorted by timestamp;
 * `since` is exclusive, so passing `next_cursor` back as `since` returns only newer events; `after_seq` with
 * `next_seq` does the same by sequence, which also returns an event recorded later in the same millisecond.
 */
export async function eventsFeed(
  store: DocumentStore,
  filter: EventsFilter = {},
  now: () => Date = () => new Date(),
): Promise<EventsFeed> {
  const sinceMs = filter.since === undefined ? undefined : parseSince(filter.since);
  const doc = parseDoc(DOCS.events, EventsDocSchema, (await store.read(DOCS.events)).value);
  let recorded = sequenced(doc.events, doc.last_seq).events;
  let derived: CoordEvent[] = [];
  if (DERIVING_BACKENDS.has(store.backend)) {
    const objectives = parseDoc(
      DOCS.objectives,
      ObjectivesDocSchema,
      (await store.read(DOCS.objectives)).value,
    ).objectives;
    // As every listing shows them: an expired claim's release is an event from its expiry on, written or not.
    const stored = parseDoc(DOCS.handoffs, HandoffsDocSchema, (await store.read(DOCS.handoffs)).value);
    const { handoffs } = handoffsView(stored, now()).view;
    // concat, not push(...): a long list spread as arguments overflows the stack.
    derived = objectiveEvents(objectives).concat(handoffEvents(handoffs));
  }
  if (filter.after_seq !== undefined) {
    const after = filter.after_seq;
    // Derived events have no sequence: they count as seen up to the newest recorded event already seen.
    let anchor = Number.NEGATIVE_INFINITY;
    for (const e of recorded) if (e.seq <= after) anchor = Math.max(anchor, time(e.timestamp));
    recorded = recorded.filter((e) => e.seq > after);
    derived = derived.filter((e) => time(e.timestamp) > anchor);
  }
  const keep = (e: CoordEvent) => {
    if (sinceMs !== undefined && time(e.timestamp) <= sinceMs) return false;
    if (filter.objective && e.subject !== filter.objective && objectiveOf(e) !== filter.objective)
      return false;
    if (filter.campaign) {
      const prefix = `campaign-${filter.campaign}-`;
      return [e.subject, objectiveOf(e)].some((s) => s?.startsWith(prefix));
    }
    return true;
  };
  recorded = recorded.filter(keep).sort((a, b) => a.seq - b.seq);
  derived = derived.filter(keep).sort(byTime);
  const events = mergeByTime(recorded, derived);
  const lastSeq = recorded.at(-1)?.seq ?? filter.after_seq;
  const newest = events.reduce<CoordEvent | undefined>(
    (m, e) => (m === undefined || byTime(e, m) > 0 ? e : m),
    undefined,
  );
  return {
    ok: true,
    schema_version: 1,
    since: filter.since ?? null,
    next_cursor: newest?.timestamp ?? filter.since ?? null,
    next_seq: lastSeq ?? null,
    events,
  };
}

const byTime = (a: CoordEvent, b: CoordEvent) =>
  time(a.timestamp) - time(b.timestamp) || a.id.localeCompare(b.id);

/**
 * One list, oldest first: recorded events keep their sequence order (a later sequence from a machine whose clock
 * is behind still comes after), derived events go in by timestamp before the first recorded event later than them.
 */
function mergeByTime(recorded: CoordEvent[], derived: CoordEvent[]): CoordEvent[] {
  if (derived.length === 0) return recorded;
  if (recorded.length === 0) return derived;
  const out: CoordEvent[] = [];
  let j = 0;
  for (const r of recorded) {
    while (j < derived.length && byTime(derived[j]!, r) < 0) out.push(derived[j++]!);
    out.push(r);
  }
  while (j < derived.length) out.push(derived[j++]!);
  return out;
}
