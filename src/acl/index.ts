export { type AgentRecord, AgentRecordSchema, listAgents, touchAgent } from './agents.js';
export { type DeclareInput, type DeclareResult, declareClaim, planDeclare } from './claims-declare.js';
export {
  CLAIM_LIST_STATUSES,
  checkClaims,
  heartbeatClaims,
  listClaims,
  type ReleaseOutcome,
  releaseClaims,
} from './claims-lifecycle.js';
export { findConflicts, type PathHit, pathsClaimed } from './claims-overlap.js';
export { folderGlob, normalizePatterns, resolveClaimScope } from './claims-patterns.js';
export { literalBounds, mayMatch, mayOverlap } from './claims-prefilter.js';
export { claimExpiry, claimsDocument, claimView } from './claims-records.js';
export {
  CLAIM_LIMITS,
  CLAIM_STATUSES,
  type Claim,
  type ClaimConflict,
  type ClaimsDoc,
  ClaimsDocSchema,
} from './claims-schema.js';
export {
  type ConceptDeclared,
  type ConceptOwner,
  type ConceptQuery,
  conceptIdOf,
  conceptOwners,
  declareConcept,
  queryConcepts,
} from './concepts.js';
export { CODEOWNERS_PATHS, codeownersPatterns, parseCodeOwners } from './concepts-codeowners.js';
export { conceptConflicts, conceptHints, recordConceptConflicts } from './concepts-hints.js';
export {
  CONCEPT_CATALOG_DOCUMENT,
  type ConceptConflict,
  type ConceptHint,
  ownershipsDocument,
} from './concepts-schema.js';
export { type IngestReport, ingestCodeOwners, type SeedReport, seedFromComponents } from './concepts-sync.js';
export { recordAclEvent } from './events.js';
export { checkGlob } from './glob/index.js';
export { type GuardCheck, guardCheck, installGuard, uninstallGuard } from './guard.js';
export { hookBlock, mergeHook, removeBlock, shQuote } from './guard-hook.js';
export {
  AGENT_ID_RE,
  checkAgentId,
  DEFAULT_ACL_TTL,
  expiryOf,
  type Holding,
  isLive,
} from './liveness.js';
export {
  ACL,
  type AclCollection,
  type AclDeps,
  aclDocument,
  aclDocuments,
  readAcl,
  updateAcl,
} from './records.js';
export {
  type RepoResolveDeps,
  type RepoTarget,
  repoKey,
  resolveRepository,
} from './repository-ref.js';
