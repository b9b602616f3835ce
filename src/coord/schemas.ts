import * as z from 'zod';
import type { SetAsideRecord } from './set-aside.js';

/** Objective statuses; `in_progress` is what resume prefers. */
export const OBJECTIVE_STATUSES = ['pending', 'in_progress', 'blocked', 'done', 'cancelled'] as const;
export type ObjectiveStatus = (typeof OBJECTIVE_STATUSES)[number];

/** Fields `objective edit` may change; anything else is refused. */
export const EDITABLE_OBJECTIVE_FIELDS = [
  'title',
  'status',
  'repos',
  'acceptance',
  'human_notes',
  'agent_notes',
] as const;
export type EditableObjectiveField = (typeof EDITABLE_OBJECTIVE_FIELDS)[number];

export const HANDOFF_STATUSES = ['open', 'claimed', 'completed', 'cancelled'] as const;
export type HandoffStatus = (typeof HANDOFF_STATUSES)[number];

export const APPROVAL_STATUSES = ['pending', 'approved', 'denied'] as const;
export const APPROVAL_DECISIONS = ['approved', 'denied'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** Slug rule of objective ids (and of generated handoff and approval ids). */
export const ID_RE = /^[A-Za-z0-9_.-]+$/;
export const IdSchema = z.string().regex(ID_RE, 'must match [A-Za-z0-9_.-]+');

const Timestamp = z.string().min(1);

// Stored records are loose: keys written by other tools (whole-document PUT) survive a read-modify-write.
export const ObjectiveSchema = z.looseObject({
  id: IdSchema,
  title: z.string(),
  status: z.enum(OBJECTIVE_STATUSES),
  repos: z.array(z.string()).default([]),
  acceptance: z.string().optional(),
  human_notes: z.string().optional(),
  agent_notes: z.string().optional(),
  created_at: Timestamp,
  updated_at: Timestamp,
  mr_url: z.string().optional(),
  approval_id: z.string().optional(),
});
export type Objective = z.infer<typeof ObjectiveSchema>;
export const ObjectivesDocSchema = z.looseObject({ objectives: z.array(ObjectiveSchema).default([]) });
export type ObjectivesDoc = z.infer<typeof ObjectivesDocSchema>;

export const HandoffEventSchema = z.looseObject({
  at: Timestamp,
  by: z.string(),
  action: z.string(),
  note: z.string().optional(),
});
export type HandoffEvent = z.infer<typeof HandoffEventSchema>;

export const HandoffSchema = z.looseObject({
  id: IdSchema,
  title: z.string(),
  created_by: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  status: z.enum(HANDOFF_STATUSES),
  payload: z.record(z.string(), z.unknown()).default({}),
  claimed_by: z.string().optional(),
  claimed_at: z.string().optional(),
  /** The TTL as given (`30m`); absent for a claim that does not expire. */
  claim_ttl: z.string().optional(),
  /** ISO time the claim lapses; null for a claim without a TTL. */
  claim_expires_at: z.string().nullable().optional(),
  last_heartbeat_at: z.string().optional(),
  completed_by: z.string().optional(),
  completed_at: z.string().optional(),
  cancelled_by: z.string().optional(),
  cancelled_at: z.string().optional(),
  events: z.array(HandoffEventSchema).default([]),
});
export type Handoff = z.infer<typeof HandoffSchema>;
export const HandoffsDocSchema = z.looseObject({ handoffs: z.array(HandoffSchema).default([]) });
export type HandoffsDoc = z.infer<typeof HandoffsDocSchema>;

export const ApprovalRequestSchema = z.looseObject({
  id: IdSchema,
  action: z.string(),
  requested_by: z.string(),
  payload: z.record(z.string(), z.unknown()).default({}),
  status: z.enum(APPROVAL_STATUSES),
  idempotency_key: z.string().optional(),
  created_at: Timestamp,
  decision: z.enum(APPROVAL_DECISIONS).optional(),
  resolved_at: z.string().optional(),
  resolved_by: z.string().optional(),
  resolver_note: z.string().optional(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequestSchema>;
export const ApprovalsDocSchema = z.looseObject({ requests: z.array(ApprovalRequestSchema).default([]) });
export type ApprovalsDoc = z.infer<typeof ApprovalsDocSchema>;

/** One row of the events feed, derived or persisted in `coord.events`. */
export const CoordEventSchema = z.looseObject({
  id: z.string(),
  timestamp: Timestamp,
  source: z.string(),
  kind: z.string(),
  subject: z.string().optional(),
  data: z.record(z.string(), z.unknown()).default({}),
  /** Position in the workspace's recorded events (1, 2, 3...); absent on derived events. */
  seq: z.number().int().positive().optional(),
});
export type CoordEvent = z.infer<typeof CoordEventSchema>;
export const EventsDocSchema = z.looseObject({
  events: z.array(CoordEventSchema).default([]),
  /** The highest sequence ever assigned (stays when old events are removed). */
  last_seq: z.number().int().nonnegative().optional(),
});

/** Envelope of the events feed (WorkspaceEventsResult). */
export interface EventsFeed {
  ok: true;
  schema_version: 1;
  since: string | null;
  next_cursor: string | null;
  /** The highest `seq` returned (else the `after_seq` given, else null): pass it back as `after_seq`. */
  next_seq: number | null;
  /**
   * The oldest sequence the document still holds (null when it holds none): a poller whose `after_seq` is below
   * `first_seq - 1` missed the events in between, dropped when the document reached its size bound.
   */
  first_seq: number | null;
  /** True when `limit` cut the answer: more events follow (ask again from `next_seq` or `next_cursor`). */
  truncated: boolean;
  events: CoordEvent[];
  /** Stored records the feed could not read (one breaking its schema), left out; absent when there are none. */
  set_aside?: SetAsideRecord[];
}
