import { parseDuration } from '../coord/index.js';
import { ValidationError } from '../infra/index.js';
import { CLAIM_LIMITS, type Claim, type ClaimsDoc, ClaimsDocSchema } from './claims-schema.js';
import { DEFAULT_ACL_TTL, isLive } from './liveness.js';
import { ACL, aclDocument } from './records.js';
import type { RepoTarget } from './repository-ref.js';
import { repoKey } from './repository-ref.js';

export { ClaimsDocSchema };

/** The store name of a repository's claims: `claims/platform~identity`. */
export function claimsDocument(target: Pick<RepoTarget, 'key'> | string): string {
  return aclDocument(ACL.claims, typeof target === 'string' ? repoKey(target) : target.key);
}

/** `{ttl, expires_at}` of a claim taken or renewed at `now`; a TTL past CLAIM_LIMITS.maxTtlMs is refused. */
export function claimExpiry(ttl: string | undefined, now: Date): { ttl: string; expires_at: string } {
  const given = ttl ?? DEFAULT_ACL_TTL;
  const ms = parseDuration(given, 'ttl');
  if (ms > CLAIM_LIMITS.maxTtlMs)
    throw new ValidationError(
      `ttl: '${given}' is longer than a claim may be held without a heartbeat (at most 7d); renew with claim heartbeat instead`,
      { field: 'ttl', value: given, rule: 'max_ttl', limit: '7d' },
    );
  return { ttl: given, expires_at: new Date(now.getTime() + ms).toISOString() };
}

/** The status a claim has at `now`: an active claim past its expiry is `expired`, whether recorded yet or not. */
export function statusAt(claim: Claim, now: Date): Claim['status'] {
  return claim.status === 'active' && !isLive(claim, now) ? 'expired' : claim.status;
}

/** A claim as it stands at `now` (a view: an unrecorded expiry shows as `expired`). */
export function claimView(claim: Claim, now: Date): Claim {
  const status = statusAt(claim, now);
  return status === claim.status ? claim : { ...claim, status };
}

/**
 * Records, in a document about to be written, the expiry of every active claim past its `expires_at` (expiry is
 * judged at read time everywhere; the next write records it). Returns the claims it marked.
 */
export function recordExpiries(doc: ClaimsDoc, now: Date): Claim[] {
  const at = now.toISOString();
  const marked: Claim[] = [];
  for (const c of doc.claims) {
    if (c.status === 'active' && !isLive(c, now)) {
      c.status = 'expired';
      c.updated_at = at;
      marked.push(c);
    }
  }
  return marked;
}

/** Keeps the newest CLAIM_LIMITS.keepInactive released or expired claims; live ones are never dropped. */
export function pruneInactive(doc: ClaimsDoc): void {
  const inactive = doc.claims.filter((c) => c.status !== 'active');
  if (inactive.length <= CLAIM_LIMITS.keepInactive) return;
  const keep = new Set(
    inactive
      .sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0))
      .slice(0, CLAIM_LIMITS.keepInactive),
  );
  doc.claims = doc.claims.filter((c) => c.status === 'active' || keep.has(c));
}

/** The maintenance every write of a claims document does first: record expiries, then prune. */
export function maintain(doc: ClaimsDoc, now: Date): Claim[] {
  const expired = recordExpiries(doc, now);
  pruneInactive(doc);
  return expired;
}
