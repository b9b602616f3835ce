import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { touchAgent } from './agents.js';
import { recordExpiredEvents } from './claims-declare.js';
import { type FoundConflicts, findConflicts } from './claims-overlap.js';
import { claimExpiry, claimsDocument, claimView, maintain, statusAt } from './claims-records.js';
import { type Claim, ClaimsDocSchema } from './claims-schema.js';
import { recordAclEvent } from './events.js';
import { checkAgentId, isLive } from './liveness.js';
import { ACL, type AclDeps, aclDocuments, readAcl, updateAcl } from './records.js';

/** The claims documents an operation spans: one repository's, or every repository's. */
async function documentsOf(deps: AclDeps, repository: string | undefined): Promise<string[]> {
  return repository === undefined ? aclDocuments(deps, ACL.claims) : [claimsDocument(repository)];
}

/**
 * The documents among `documentsOf` that hold a claim of `agentId` (or the claim `claimId`): a write that spans
 * every repository writes only those.
 */
async function documentsHolding(
  deps: AclDeps,
  repository: string | undefined,
  match: (c: Claim) => boolean,
): Promise<string[]> {
  const names = await documentsOf(deps, repository);
  if (repository !== undefined) return names;
  const out: string[] = [];
  for (const name of names) {
    const { claims } = await readAcl(deps, name, ClaimsDocSchema);
    if (claims.some(match)) out.push(name);
  }
  return out;
}

/** Conflicts of `patterns` with the live claims of other agents in one repository: a pure read. */
export async function checkClaims(
  deps: AclDeps,
  input: { repository: string; patterns: string[]; agent_id?: string },
): Promise<FoundConflicts> {
  const { claims } = await readAcl(deps, claimsDocument(input.repository), ClaimsDocSchema);
  return findConflicts(claims, input.patterns, { exclude: input.agent_id, now: deps.now() });
}

export const CLAIM_LIST_STATUSES = ['active', 'released', 'expired', 'all'] as const;

/** Claims as they stand now (an unrecorded expiry shows `expired`), filtered; a pure read. */
export async function listClaims(
  deps: AclDeps,
  filter: { repository?: string; agent_id?: string; status?: (typeof CLAIM_LIST_STATUSES)[number] },
): Promise<Claim[]> {
  const now = deps.now();
  const want = filter.status ?? 'active';
  const out: Claim[] = [];
  for (const name of await documentsOf(deps, filter.repository)) {
    const { claims } = await readAcl(deps, name, ClaimsDocSchema);
    for (const c of claims) {
      if (filter.agent_id !== undefined && c.agent_id !== filter.agent_id) continue;
      if (want !== 'all' && statusAt(c, now) !== want) continue;
      out.push(claimView(c, now));
    }
  }
  return out.sort(
    (a, b) =>
      a.repository.localeCompare(b.repository) ||
      a.created_at.localeCompare(b.created_at) ||
      a.claim_id.localeCompare(b.claim_id),
  );
}

export interface ReleaseInput {
  claim_id?: string;
  /** The agent releasing: with claim_id it must own the claim (unless force); alone, all its live claims go. */
  agent_id?: string;
  repository?: string;
  force?: boolean;
}

export interface ReleaseOutcome {
  released: Claim[];
  /** Claims named by id that were no longer live (already released or expired): nothing to do. */
  inactive: Claim[];
}

/** Releases one claim (its owner, or anyone with force) or every live claim of an agent; records `ClaimReleased`. */
export async function releaseClaims(deps: AclDeps, input: ReleaseInput): Promise<ReleaseOutcome> {
  if (input.agent_id !== undefined) checkAgentId(input.agent_id);
  if (input.claim_id === undefined && input.agent_id === undefined)
    throw new ValidationError('claim_id: give --claim-id, or --agent-id to release all of its claims', {
      field: 'claim_id',
      rule: 'claim_id_or_agent_id',
    });
  if (input.claim_id !== undefined && input.agent_id === undefined && !input.force)
    throw new ValidationError(
      `agent_id: releasing claim ${input.claim_id} needs the owner's --agent-id, or --force`,
      { field: 'agent_id', rule: 'owner_or_force' },
    );
  const out: ReleaseOutcome = { released: [], inactive: [] };
  let found = false;
  const holding = (c: Claim) =>
    input.claim_id !== undefined ? c.claim_id === input.claim_id : c.agent_id === input.agent_id;
  for (const name of await documentsHolding(deps, input.repository, holding)) {
    const step = await updateAcl(deps, name, ClaimsDocSchema, (doc) => {
      const now = deps.now();
      const expired = maintain(doc, now);
      const released: Claim[] = [];
      const inactive: Claim[] = [];
      let hit = false;
      for (const c of doc.claims) {
        if (input.claim_id !== undefined) {
          if (c.claim_id !== input.claim_id) continue;
          hit = true;
          if (!input.force && c.agent_id !== input.agent_id)
            throw new RefusedError(
              `claim ${c.claim_id} is held by agent ${c.agent_id}, not ${input.agent_id}; only its owner releases it (or pass --force)`,
              { field: 'agent_id', value: input.agent_id, rule: 'owner_or_force', holder: c.agent_id },
              409,
            );
        } else if (c.agent_id !== input.agent_id) continue;
        if (!isLive(c, now)) {
          if (input.claim_id !== undefined) inactive.push(c);
          continue;
        }
        const at = now.toISOString();
        Object.assign(c, { status: 'released', released_at: at, updated_at: at });
        c.released_by = input.agent_id ?? 'hub';
        released.push(c);
      }
      return { released, inactive, expired, hit };
    });
    found ||= step.hit;
    out.released.push(...step.released);
    out.inactive.push(...step.inactive);
    await recordExpiredEvents(deps, step.expired);
    for (const c of step.released)
      await recordAclEvent(deps, 'ClaimReleased', c.repository, {
        claim_id: c.claim_id,
        agent_id: c.agent_id,
        released_by: c.released_by,
        ...(input.force && c.agent_id !== input.agent_id ? { forced: true } : {}),
      });
    if (found && input.claim_id !== undefined) break;
  }
  if (input.claim_id !== undefined && !found)
    throw new NotFoundError(
      `claim_id: no claim '${input.claim_id}'${input.repository ? ` in repository ${input.repository}` : ''}`,
      { field: 'claim_id', value: input.claim_id, rule: 'unknown_claim' },
    );
  if (input.agent_id !== undefined) await touchAgent(deps, input.agent_id);
  return out;
}

export interface HeartbeatInput {
  agent_id: string;
  repository?: string;
  claim_id?: string;
  /** The new TTL; default each claim's own. */
  ttl?: string;
}

/**
 * Renews the agent's live claims (one of them with claim_id, in one repository with repository) for the TTL,
 * and the agent's own liveness. A claim that already expired is not revived: another agent may hold its paths
 * now, so it is declared again. Naming such a claim is refused (409).
 */
export async function heartbeatClaims(deps: AclDeps, input: HeartbeatInput): Promise<Claim[]> {
  checkAgentId(input.agent_id);
  if (input.ttl !== undefined) claimExpiry(input.ttl, deps.now());
  const renewed: Claim[] = [];
  let found = false;
  const holding = (c: Claim) =>
    c.agent_id === input.agent_id && (input.claim_id === undefined || c.claim_id === input.claim_id);
  for (const name of await documentsHolding(deps, input.repository, holding)) {
    const step = await updateAcl(deps, name, ClaimsDocSchema, (doc) => {
      const now = deps.now();
      const at = now.toISOString();
      const mine = doc.claims.filter(
        (c) =>
          c.agent_id === input.agent_id && (input.claim_id === undefined || c.claim_id === input.claim_id),
      );
      const named = input.claim_id !== undefined ? mine[0] : undefined;
      if (named && !isLive(named, now))
        throw new RefusedError(
          `claim ${named.claim_id} is ${statusAt(named, now)} (since ${named.released_at ?? named.expires_at}); declare the claim again`,
          { field: 'claim_id', value: named.claim_id, rule: 'claim_live', status: statusAt(named, now) },
          409,
        );
      const live = mine.filter((c) => isLive(c, now));
      for (const c of live)
        Object.assign(c, claimExpiry(input.ttl ?? c.ttl, now), { updated_at: at, last_heartbeat_at: at });
      const expired = maintain(doc, now);
      return { live, expired, hit: mine.length > 0 };
    });
    found ||= step.hit;
    renewed.push(...step.live);
    await recordExpiredEvents(deps, step.expired);
    if (found && input.claim_id !== undefined) break;
  }
  if (input.claim_id !== undefined && !found)
    throw new NotFoundError(
      `claim_id: agent ${input.agent_id} has no claim '${input.claim_id}'${input.repository ? ` in repository ${input.repository}` : ''}`,
      { field: 'claim_id', value: input.claim_id, rule: 'unknown_claim' },
    );
  await touchAgent(deps, input.agent_id, input.ttl === undefined ? {} : { ttl: input.ttl });
  return renewed;
}
