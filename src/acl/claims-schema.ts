import * as z from 'zod';

/** What a claim can be: held (`active`, until it expires), given back (`released`) or lapsed (`expired`). */
export const CLAIM_STATUSES = ['active', 'released', 'expired'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

/** Bounds on claims; past them a declaration is refused with the rule named here. */
export const CLAIM_LIMITS = Object.freeze({
  /** Patterns in one declaration and in one merged claim (`max_patterns`). */
  maxPatterns: 64,
  /** Live claims in one repository (`max_claims`): a runaway agent cannot grow a document without bound. */
  maxLiveClaims: 20_000,
  /** Released and expired claims kept per repository, newest first (older ones are dropped on the next write). */
  keepInactive: 500,
  /**
   * Conflicts one check or refusal lists: past it the answer says `conflicts_truncated` instead of deciding the
   * overlap of every remaining claim (10,000 claims that all overlap would otherwise cost seconds to list).
   */
  maxConflicts: 100,
  /** Longest claim TTL (`max_ttl`): a longer one would be the "held forever" claim that TTLs exist to prevent. */
  maxTtlMs: 7 * 86_400_000,
});

/** A pattern pair of a conflict: the requested pattern, the claimed one and a path both match. */
export const OverlapSchema = z.looseObject({
  claim_id: z.string(),
  agent_id: z.string(),
  pattern: z.string(),
  claimed_pattern: z.string(),
  witness: z.string().nullable(),
});

// Stored records are loose: keys written by other tools (whole-document PUT) survive a read-modify-write.
export const ClaimSchema = z.looseObject({
  claim_id: z.string().min(1),
  /** `<project>/<repo>` (or `self`), never the component: overlap is keyed by repository plus patterns. */
  repository: z.string().min(1),
  agent_id: z.string().min(1),
  task_id: z.string().optional(),
  /** The catalogued component the claim was declared for, when it was. */
  component: z.string().optional(),
  /** Repository-relative globs in the glob engine's normal form. */
  patterns: z.array(z.string()),
  status: z.enum(CLAIM_STATUSES),
  ttl: z.string(),
  expires_at: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  last_heartbeat_at: z.string(),
  released_at: z.string().optional(),
  released_by: z.string().optional(),
  /** Overlaps with other agents' live claims that the declarer accepted (`--allow-overlap`). */
  overlaps: z.array(OverlapSchema).optional(),
});
export type Claim = z.infer<typeof ClaimSchema>;

/** `claims/<repo key>`: every claim of one repository. */
export const ClaimsDocSchema = z.looseObject({ claims: z.array(ClaimSchema).default([]) });
export type ClaimsDoc = z.infer<typeof ClaimsDocSchema>;

/** One conflict: a requested pattern and a live claim of another agent that both match `witness`. */
export interface ClaimConflict {
  claim_id: string;
  agent_id: string;
  task_id?: string;
  component?: string;
  /** The requested pattern. */
  pattern: string;
  /** The claim's pattern. */
  claimed_pattern: string;
  /** A real path both match; null only when a stored pattern cannot be read (then it counts as overlapping). */
  witness: string | null;
  expires_at: string;
  /** `src/a/** and src/** (claim cl-… of agent b) both match src/a/x.ts`. */
  reason: string;
}
