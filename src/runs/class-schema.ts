import * as z from 'zod';
import { ValidationError } from '../infra/index.js';
import { TIERS } from './run-schema.js';

/** The routing collection: `routing/classes` (the request classes) and `routing/policies` (named policies). */
export const ROUTING_COLLECTION = 'routing';
export const CLASSES_DOCUMENT = `${ROUTING_COLLECTION}/classes`;

/** Where a class's lane stands after `lane eval`. */
export const PROMOTION_STATES = [
  'stable',
  'promoted',
  'ready-needs-executor',
  'capped-mutates',
  'demoted:bounced',
  'demoted:noop',
  'demoted:failed',
] as const;

/** Bounds of the class catalog: one document holds it, so it stays small enough to read on every query. */
export const CLASS_LIMITS = {
  classes: 2000,
  triggers: 32,
  trigger_chars: 200,
  title_chars: 200,
  text_chars: 2000,
  gates: 32,
} as const;

/** Class ids: letters, digits, `.`, `_`, `-` (the earlier product's `REQ-...` ids fit). */
export const CLASS_ID_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function checkClassId(id: string, field = 'id'): string {
  if (!CLASS_ID_RE.test(id))
    throw new ValidationError(
      `${field}: '${id.length > 80 ? `${id.slice(0, 80)}...` : id}' is not a valid class id; use letters, digits, '.', '_' and '-' (at most 64, starting with a letter or digit)`,
      { field, value: id.slice(0, 200), rule: CLASS_ID_RE.source },
    );
  return id;
}

/** What a class's closed runs say (rewritten by `lane eval`). */
export const ClassEvidenceSchema = z.looseObject({
  runs_landed: z.number().int().default(0),
  runs_bounced: z.number().int().default(0),
  runs_noop: z.number().int().default(0),
  runs_abandoned: z.number().int().default(0),
  runs_failed: z.number().int().default(0),
  /** Trailing `landed` runs (abandoned ones skipped), counted since the last tier change. */
  clean_streak: z.number().int().default(0),
  /** Newest closed run considered. */
  last_run: z.string().nullable().default(null),
  /**
   * The run at which the tier last changed: a later evaluation only counts runs after it, so evaluating twice over
   * the same runs never moves a tier twice.
   */
  decided_at_run: z.string().nullable().default(null),
  /** Outcomes other than landed and abandoned, newest first (at most 10). */
  failure_modes: z.array(z.string()).default([]),
});
export type ClassEvidence = z.infer<typeof ClassEvidenceSchema>;

// Stored records are loose: keys written by later builds or other tools survive a read-modify-write.
export const RequestClassSchema = z.looseObject({
  id: z.string(),
  title: z.string(),
  /** Phrases that describe asks of this class; `route query` scores an ask against each. */
  triggers: z.array(z.string()).default([]),
  tier: z.enum(TIERS).default('novel'),
  lane: z.string().optional(),
  /** Whether runs of this class change code or systems (a mutating class never becomes deterministic). */
  mutates: z.boolean().default(true),
  /** What runs a deterministic class without a model (a command, a skill): required to reach `deterministic`. */
  executor: z.string().optional(),
  skill: z.string().optional(),
  artifact: z.string().optional(),
  gates: z.array(z.string()).default([]),
  notes: z.string().optional(),
  promotion_state: z.string().default('stable'),
  evidence: ClassEvidenceSchema.optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type RequestClass = z.infer<typeof RequestClassSchema>;

export const ClassesDocSchema = z.looseObject({ classes: z.array(RequestClassSchema).default([]) });
export type ClassesDoc = z.infer<typeof ClassesDocSchema>;
