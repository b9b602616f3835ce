import { newId } from '../coord/index.js';
import { RefusedError } from '../infra/index.js';
import { touchAgent } from './agents.js';
import { findConflicts } from './claims-overlap.js';
import { claimExpiry, claimsDocument, maintain } from './claims-records.js';
import {
  CLAIM_LIMITS,
  type Claim,
  type ClaimConflict,
  type ClaimsDoc,
  ClaimsDocSchema,
} from './claims-schema.js';
import { conceptHints, recordConceptConflicts } from './concepts-hints.js';
import type { ConceptConflict, ConceptHint } from './concepts-schema.js';
import { recordAclEvent } from './events.js';
import { checkAgentId, isLive } from './liveness.js';
import { type AclDeps, updateAcl } from './records.js';

/** A declaration with its scope resolved: repository id, normalized patterns, the component's name. */
export interface DeclareInput {
  repository: string;
  agent_id: string;
  task_id?: string;
  component?: string;
  /** Normalized patterns (resolveClaimScope). */
  patterns: string[];
  ttl?: string;
  /** Grant despite overlaps with other agents' live claims, recording them on the claim. */
  allow_overlap?: boolean;
}

export interface DeclareOutcome {
  claim: Claim;
  /** False when the agent's own live claim (same task and component) was extended or renewed. */
  created: boolean;
  /** Patterns the claim did not hold before. */
  added_patterns: string[];
  /** Overlaps accepted with allow_overlap (empty otherwise: an overlap refuses the declaration). */
  overlaps: ClaimConflict[];
  /** Claims whose expiry this write recorded. */
  expired: Claim[];
}

const sameScope = (c: Claim, input: DeclareInput) =>
  c.agent_id === input.agent_id && c.task_id === input.task_id && c.component === input.component;

/** The RefusedError (409) of a declaration that overlaps live claims of other agents, listing every conflict. */
export function claimRefusal(
  input: DeclareInput,
  conflicts: ClaimConflict[],
  truncated = false,
): RefusedError {
  const first = conflicts[0]!;
  const more =
    conflicts.length > 1 ? ` (and ${truncated ? 'at least ' : ''}${conflicts.length - 1} more overlaps)` : '';
  return new RefusedError(
    `patterns: ${first.reason}${more}; claim other paths, wait for the claim to be released or to expire (${first.expires_at}), or pass --allow-overlap to record an advisory overlap`,
    {
      field: 'patterns',
      value: input.patterns,
      rule: 'claimed_by_another_agent',
      repository: input.repository,
      agent_id: input.agent_id,
      conflicts,
      conflicts_truncated: truncated,
    },
    409,
  );
}

/**
 * The declaration applied to the repository's claims document (pure: it may run more than once). Checks every
 * live claim of other agents for overlap and refuses on any unless `allow_overlap`; the agent's own live claim
 * with the same task and component is extended and renewed instead of duplicated.
 */
export function planDeclare(
  doc: ClaimsDoc,
  input: DeclareInput,
  now: Date,
  newClaimId: string,
): DeclareOutcome {
  const expired = maintain(doc, now);
  const found = findConflicts(doc.claims, input.patterns, { exclude: input.agent_id, now });
  const overlaps = found.conflicts;
  if (overlaps.length > 0 && !input.allow_overlap) throw claimRefusal(input, overlaps, found.truncated);
  const at = now.toISOString();
  const own = doc.claims.find((c) => sameScope(c, input) && isLive(c, now));
  if (own) {
    const added = input.patterns.filter((p) => !own.patterns.includes(p));
    if (own.patterns.length + added.length > CLAIM_LIMITS.maxPatterns)
      throw new RefusedError(
        `patterns: claim ${own.claim_id} would hold ${own.patterns.length + added.length} patterns; a claim holds at most ${CLAIM_LIMITS.maxPatterns}`,
        { field: 'patterns', rule: 'max_patterns', claim_id: own.claim_id, limit: CLAIM_LIMITS.maxPatterns },
        409,
      );
    own.patterns = [...own.patterns, ...added];
    Object.assign(own, claimExpiry(input.ttl ?? own.ttl, now), { updated_at: at, last_heartbeat_at: at });
    if (overlaps.length > 0) own.overlaps = [...(own.overlaps ?? []), ...overlapRecords(overlaps)];
    return { claim: own, created: false, added_patterns: added, overlaps, expired };
  }
  const live = doc.claims.reduce((n, c) => n + (isLive(c, now) ? 1 : 0), 0);
  if (live >= CLAIM_LIMITS.maxLiveClaims)
    throw new RefusedError(
      `repository ${input.repository} already has ${live} live claims, the most one repository holds; release some first`,
      { field: 'repository', value: input.repository, rule: 'max_claims', limit: CLAIM_LIMITS.maxLiveClaims },
      409,
    );
  const claim: Claim = {
    claim_id: newClaimId,
    repository: input.repository,
    agent_id: input.agent_id,
    ...(input.task_id === undefined ? {} : { task_id: input.task_id }),
    ...(input.component === undefined ? {} : { component: input.component }),
    patterns: [...input.patterns],
    status: 'active',
    ...claimExpiry(input.ttl, now),
    created_at: at,
    updated_at: at,
    last_heartbeat_at: at,
    ...(overlaps.length > 0 ? { overlaps: overlapRecords(overlaps) } : {}),
  };
  doc.claims.push(claim);
  return { claim, created: true, added_patterns: [...input.patterns], overlaps, expired };
}

const overlapRecords = (overlaps: ClaimConflict[]) =>
  overlaps.map(({ claim_id, agent_id, pattern, claimed_pattern, witness }) => ({
    claim_id,
    agent_id,
    pattern,
    claimed_pattern,
    witness,
  }));

/** Records the `ClaimExpired` events of claims a write marked expired. */
export async function recordExpiredEvents(deps: AclDeps, expired: readonly Claim[]): Promise<void> {
  for (const c of expired)
    await recordAclEvent(deps, 'ClaimExpired', c.repository, {
      claim_id: c.claim_id,
      agent_id: c.agent_id,
      expired_at: c.expires_at,
    });
}

export interface DeclareResult extends DeclareOutcome {
  /** Advisory: concepts whose ownership overlaps the claim's patterns. */
  concept_hints: ConceptHint[];
  /** Concepts this declaration made several live agents overlap (each recorded as `ConceptConflictHint`). */
  concept_conflicts: ConceptConflict[];
}

/**
 * Declares a claim: one atomic read-modify-write of `claims/<repo key>` (see planDeclare), then its events
 * (`ClaimDeclared`, `ClaimExtended`, `ClaimExpired`; `ClaimRefused` for a refusal; `ConceptConflictHint` when
 * the new patterns make several agents overlap one concept) and the agent's heartbeat.
 */
export async function declareClaim(deps: AclDeps, input: DeclareInput): Promise<DeclareResult> {
  checkAgentId(input.agent_id);
  claimExpiry(input.ttl, deps.now()); // a bad TTL is refused before anything is written
  await touchAgent(deps, input.agent_id);
  const claimId = newId('cl');
  let outcome: DeclareOutcome;
  try {
    outcome = await updateAcl(deps, claimsDocument(input.repository), ClaimsDocSchema, (doc) =>
      planDeclare(doc, input, deps.now(), claimId),
    );
  } catch (err) {
    if (err instanceof RefusedError && err.details?.rule === 'claimed_by_another_agent') {
      const conflicts = err.details.conflicts as ClaimConflict[];
      // The first few conflicts only: a refused declaration should not put a hundred entries in the feed.
      await recordAclEvent(deps, 'ClaimRefused', input.repository, {
        agent_id: input.agent_id,
        patterns: input.patterns,
        conflict_count: conflicts.length,
        conflicts: conflicts.slice(0, 5).map(({ claim_id, agent_id, pattern, claimed_pattern, witness }) => ({
          claim_id,
          agent_id,
          pattern,
          claimed_pattern,
          witness,
        })),
      });
    }
    throw err;
  }
  await recordExpiredEvents(deps, outcome.expired);
  const { claim } = outcome;
  const data = {
    claim_id: claim.claim_id,
    agent_id: claim.agent_id,
    ...(claim.task_id === undefined ? {} : { task_id: claim.task_id }),
    ...(claim.component === undefined ? {} : { component: claim.component }),
    patterns: claim.patterns,
    expires_at: claim.expires_at,
    ...(outcome.overlaps.length > 0 ? { overlaps: overlapRecords(outcome.overlaps) } : {}),
  };
  if (outcome.created) await recordAclEvent(deps, 'ClaimDeclared', claim.repository, data);
  else if (outcome.added_patterns.length > 0)
    await recordAclEvent(deps, 'ClaimExtended', claim.repository, {
      ...data,
      added_patterns: outcome.added_patterns,
    });
  const concept_hints = await conceptHints(deps, claim.repository, claim.patterns);
  const added = new Set(outcome.added_patterns);
  const touched = new Set(
    concept_hints
      .filter((h) => h.overlapping_patterns.some((p) => added.has(p.pattern)))
      .map((h) => h.ownership_id),
  );
  const concept_conflicts =
    touched.size === 0
      ? []
      : await recordConceptConflicts(
          deps,
          claim.repository,
          (o) => touched.has(o.ownership_id),
          claim.agent_id,
        );
  return { ...outcome, concept_hints, concept_conflicts };
}
