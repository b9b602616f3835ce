import { ValidationError } from '../infra/index.js';
import type { DocumentStore } from '../state/index.js';
import { DOCS, newId, parseDoc } from './documents.js';
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

/** Appends one event to the persisted `coord.events` document (append-only, no compare-and-swap). */
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
  await store.append(DOCS.events, 'events', record);
  return record;
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
 * `since` is exclusive, so passing `next_cursor` back as `since` returns only newer events.
 */
export async function eventsFeed(
  store: DocumentStore,
  filter: EventsFilter = {},
  now: () => Date = () => new Date(),
): Promise<EventsFeed> {
  const sinceMs = filter.since === undefined ? undefined : parseSince(filter.since);
  const persisted = parseDoc(DOCS.events, EventsDocSchema, (await store.read(DOCS.events)).value).events;
  let events = [...persisted];
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
    events = events.concat(objectiveEvents(objectives), handoffEvents(handoffs));
  }
  if (sinceMs !== undefined) events = events.filter((e) => time(e.timestamp) > sinceMs);
  if (filter.objective) {
    const id = filter.objective;
    events = events.filter((e) => e.subject === id || objectiveOf(e) === id);
  }
  if (filter.campaign) {
    const prefix = `campaign-${filter.campaign}-`;
    events = events.filter((e) => [e.subject, objectiveOf(e)].some((s) => s?.startsWith(prefix)));
  }
  events.sort((a, b) => time(a.timestamp) - time(b.timestamp) || a.id.localeCompare(b.id));
  return {
    ok: true,
    schema_version: 1,
    since: filter.since ?? null,
    next_cursor: events.at(-1)?.timestamp ?? filter.since ?? null,
    events,
  };
}
