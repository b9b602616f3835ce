import { overlapPairs } from './claims-overlap.js';
import { claimsDocument } from './claims-records.js';
import { type Claim, ClaimsDocSchema } from './claims-schema.js';
import { readConcepts, readOwnerships } from './concepts.js';
import type { Concept, ConceptConflict, ConceptHint, Ownership } from './concepts-schema.js';
import { recordAclEvent } from './events.js';
import { isLive } from './liveness.js';
import { type AclDeps, readAcl } from './records.js';

const nameOf = (catalog: Map<string, Concept>, id: string) => catalog.get(id)?.name ?? id;

/**
 * The advisory concept hints of a claim: every ownership in the repository whose patterns overlap `patterns`.
 * Never a conflict; a pure read.
 */
export async function conceptHints(
  deps: AclDeps,
  repository: string,
  patterns: readonly string[],
): Promise<ConceptHint[]> {
  const ownerships = await readOwnerships(deps, repository);
  if (ownerships.length === 0) return [];
  const catalog = await readConcepts(deps);
  const out: ConceptHint[] = [];
  for (const o of ownerships) {
    const pairs = overlapPairs(patterns, o.patterns);
    if (pairs.length === 0) continue;
    const name = nameOf(catalog, o.concept_id);
    const first = pairs[0]!;
    out.push({
      concept_id: o.concept_id,
      concept_name: name,
      repository,
      ownership_id: o.ownership_id,
      source: o.source,
      overlapping_patterns: pairs.map((p) => ({ pattern: p.a, owned_pattern: p.b, witness: p.witness })),
      reason: `${first.a} touches concept ${name} (${first.b})${first.witness ? `: both match ${first.witness}` : ''}`,
    });
  }
  return out;
}

/** The concept conflict of one ownership against live claims: present when two or more agents overlap it. */
function conflictOf(
  ownership: Ownership,
  claims: readonly Claim[],
  catalog: Map<string, Concept>,
  now: Date,
): ConceptConflict | undefined {
  const overlapping: ConceptConflict['overlapping_patterns'] = [];
  for (const c of claims) {
    if (!isLive(c, now)) continue;
    for (const p of overlapPairs(c.patterns, ownership.patterns))
      overlapping.push({
        pattern: p.a,
        owned_pattern: p.b,
        witness: p.witness,
        claim_id: c.claim_id,
        agent_id: c.agent_id,
      });
  }
  const agents = [...new Set(overlapping.map((o) => o.agent_id))].sort();
  if (agents.length < 2) return undefined;
  return {
    concept_id: ownership.concept_id,
    concept_name: nameOf(catalog, ownership.concept_id),
    repository: ownership.repository,
    agent_ids: agents,
    claim_ids: [...new Set(overlapping.map((o) => o.claim_id))].sort(),
    overlapping_patterns: overlapping,
  };
}

/**
 * Concepts of a repository whose paths several live claiming agents overlap (one entry per ownership). A pure read:
 * the `ConceptConflictHint` event is recorded by the declaration that creates the overlap, never by this.
 */
export async function conceptConflicts(
  deps: AclDeps,
  repository: string,
  only?: (o: Ownership) => boolean,
): Promise<ConceptConflict[]> {
  const ownerships = (await readOwnerships(deps, repository)).filter((o) => !only || only(o));
  if (ownerships.length === 0) return [];
  const [catalog, { claims }] = await Promise.all([
    readConcepts(deps),
    readAcl(deps, claimsDocument(repository), ClaimsDocSchema),
  ]);
  const now = deps.now();
  return ownerships.flatMap((o) => conflictOf(o, claims, catalog, now) ?? []);
}

/**
 * Records `ConceptConflictHint` (source semantic) for each concept conflict that involves `agentId` and one of the
 * `touched` ownerships: called after a claim or concept declaration that may have created the overlap.
 */
export async function recordConceptConflicts(
  deps: AclDeps,
  repository: string,
  touched: (o: Ownership) => boolean,
  agentId?: string,
): Promise<ConceptConflict[]> {
  const found = (await conceptConflicts(deps, repository, touched)).filter(
    (c) => agentId === undefined || c.agent_ids.includes(agentId),
  );
  for (const c of found)
    await recordAclEvent(
      deps,
      'ConceptConflictHint',
      repository,
      {
        concept_id: c.concept_id,
        concept_name: c.concept_name,
        agent_ids: c.agent_ids,
        claim_ids: c.claim_ids,
        overlapping_patterns: c.overlapping_patterns.map((p) => p.owned_pattern),
      },
      'semantic',
    );
  return found;
}
