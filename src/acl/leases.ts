import * as z from 'zod';
import { newId } from '../coord/index.js';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { touchAgent } from './agents.js';
import { pruneEnded } from './branches.js';
import { recordAclEvent } from './events.js';
import {
  dropLapsedPins,
  FenceFieldsSchema,
  grantFence,
  LANDING_PIN_MS,
  type LandingPin,
  pinOn,
} from './fences.js';
import { checkAgentId, DEFAULT_ACL_TTL, expiryOf, isLive } from './liveness.js';
import { ACL, type AclDeps, aclDocument, aclDocuments, readAcl, updateAcl } from './records.js';
import type { RepoTarget } from './repository-ref.js';

export const LEASE_STATUSES = ['active', 'released', 'expired'] as const;
/** Ended leases kept per repository document (oldest dropped first), so the document stays bounded. */
export const MAX_ENDED_LEASES = 200;

/** One lease: an agent working on a task in a repository (optionally on an allocated branch) until its TTL runs out. */
export const LeaseSchema = z.looseObject({
  lease_id: z.string(),
  repository: z.string(),
  agent_id: z.string(),
  task_id: z.string(),
  branch: z.string().nullable().default(null),
  branch_id: z.string().nullable().default(null),
  status: z.enum(LEASE_STATUSES),
  ttl: z.string(),
  expires_at: z.string(),
  acquired_at: z.string(),
  renewed_at: z.string(),
  updated_at: z.string(),
  released_at: z.string().optional(),
  released_by: z.string().optional(),
  /** For an expired lease: when it lapsed (its expires_at then). */
  expired_at: z.string().optional(),
  /**
   * Fencing token: grows with every grant in the repository, so a later lease of the task has a larger one.
   * Absent on leases of older builds.
   */
  fence: z.number().int().min(1).optional(),
});
export type Lease = z.infer<typeof LeaseSchema>;
export const LeasesDocSchema = z.looseObject({
  leases: z.array(LeaseSchema).default([]),
  ...FenceFieldsSchema,
});
type LeasesDoc = z.infer<typeof LeasesDocSchema>;

const holderOf = (l: Lease) => ({
  agent_id: l.agent_id,
  task_id: l.task_id,
  lease_id: l.lease_id,
  since: l.acquired_at,
  expires_at: l.expires_at,
  ...(l.branch ? { branch: l.branch } : {}),
});

/** The refusal of a lease another agent holds live: 409 naming the holder. */
export function leaseHeld(held: Lease, repository: string): RefusedError {
  return new RefusedError(
    `task_id: '${held.task_id}' in ${repository} is leased by agent '${held.agent_id}' until ${held.expires_at}`,
    {
      field: 'task_id',
      value: held.task_id,
      rule: 'one_live_lease_per_repository_task',
      repository,
      holder: holderOf(held),
    },
    409,
  );
}

/** A lease as a reader sees it at `now`: an active lease past its expiry shows `expired` (nothing is written). */
export function leaseView(l: Lease, now: Date): Lease {
  return l.status === 'active' && !isLive(l, now) ? { ...l, status: 'expired', expired_at: l.expires_at } : l;
}

/** Marks the lapsed leases of a document being updated as expired; returns them (for LeaseExpired events). */
function expireLapsed(doc: LeasesDoc, now: Date): Lease[] {
  const out: Lease[] = [];
  for (const l of doc.leases)
    if (l.status === 'active' && !isLive(l, now)) {
      l.status = 'expired';
      l.expired_at = l.expires_at;
      l.updated_at = now.toISOString();
      out.push({ ...l });
    }
  return out;
}

async function recordExpired(deps: AclDeps, repository: string, expired: Lease[]): Promise<void> {
  for (const l of expired)
    await recordAclEvent(deps, 'LeaseExpired', repository, {
      lease_id: l.lease_id,
      agent_id: l.agent_id,
      task_id: l.task_id,
      branch: l.branch,
      expired_at: l.expires_at,
    });
}

export interface AcquireRequest {
  repository: RepoTarget;
  agent_id: string;
  task_id: string;
  /** The branch the lease is on: an active allocation of this agent in the repository. */
  branch?: string;
  ttl?: string;
}

export interface AcquireResult {
  lease: Lease;
  /** False when the agent already held the live lease of this task: it was renewed. */
  acquired: boolean;
  /** The expired lease of another agent (or this one) this one replaced, if any. */
  took_over?: string;
}

/** The branch a lease names, checked: an active allocation in the repository, of this agent. */
async function leasedBranch(
  deps: AclDeps,
  req: AcquireRequest,
): Promise<{ branch: string | null; branch_id: string | null }> {
  if (req.branch === undefined) return { branch: null, branch_id: null };
  const { allocations } = await readAcl(deps, aclDocument(ACL.branches, req.repository.key), BranchesRead);
  const a = allocations.find((x) => x.name === req.branch && x.status === 'active');
  if (!a)
    throw new NotFoundError(
      `branch: '${req.branch}' is not allocated in ${req.repository.id}; allocate it first (branch allocate, or lease acquire --allocate)`,
      { field: 'branch', value: req.branch, rule: 'allocated', repository: req.repository.id },
    );
  if (a.agent_id !== req.agent_id)
    throw new RefusedError(
      `branch: '${req.branch}' is allocated to agent '${a.agent_id}' (task '${a.task_id}'), not '${req.agent_id}'`,
      {
        field: 'branch',
        value: req.branch,
        rule: 'allocated_to_agent',
        holder: { agent_id: a.agent_id, task_id: a.task_id, branch_id: a.branch_id, since: a.created_at },
      },
      409,
    );
  return { branch: a.name, branch_id: a.branch_id };
}
/** Just what a lease needs of the branches document (its own schema lives in branches.ts). */
const BranchesRead = z.looseObject({
  allocations: z
    .array(
      z.looseObject({
        branch_id: z.string(),
        name: z.string(),
        agent_id: z.string(),
        task_id: z.string(),
        status: z.string(),
        created_at: z.string(),
      }),
    )
    .default([]),
});

/**
 * Acquires the lease of (repository, task): one live lease per pair. The check and the write are one atomic update
 * of `leases/<repo key>`. A live lease of another agent is refused (409) naming the holder; this agent's own is
 * renewed (new TTL, and the branch when given). Lapsed leases of the document are recorded expired in the same
 * update (LeaseExpired), so acquiring over an expired lease takes it over. Records LeaseAcquired for a new lease.
 */
export async function acquireLease(deps: AclDeps, req: AcquireRequest): Promise<AcquireResult> {
  checkAgentId(req.agent_id);
  const ttl = req.ttl ?? DEFAULT_ACL_TTL;
  expiryOf(ttl, deps.now());
  const branch = await leasedBranch(deps, req);
  const { result, expired } = await grantWhenUnpinned(() => {
    const now = deps.now();
    const expiry = expiryOf(ttl, now);
    const at = now.toISOString();
    return updateAcl(deps, aclDocument(ACL.leases, req.repository.key), LeasesDocSchema, (doc) => {
      const expired = expireLapsed(doc, now);
      const held = doc.leases.find((l) => l.status === 'active' && l.task_id === req.task_id);
      if (held && held.agent_id !== req.agent_id) throw leaseHeld(held, req.repository.id);
      if (held) {
        Object.assign(held, expiry, { renewed_at: at, updated_at: at });
        if (req.branch !== undefined) Object.assign(held, branch);
        return { result: { lease: { ...held }, acquired: false } as AcquireResult, expired };
      }
      // A landing of the task's current fence is moving a ref: a newer fence waits until it has moved.
      const pin = pinOn(doc, req.task_id, now);
      if (pin) throw new Pinned(pin);
      dropLapsedPins(doc, now);
      const lease: Lease = {
        lease_id: newId('ls'),
        repository: req.repository.id,
        agent_id: req.agent_id,
        task_id: req.task_id,
        ...branch,
        status: 'active',
        ...expiry,
        acquired_at: at,
        renewed_at: at,
        updated_at: at,
      };
      grantFence(doc, lease, at);
      const before = [...expired].reverse().find((l) => l.task_id === req.task_id);
      doc.leases = pruneEnded([...doc.leases, lease], MAX_ENDED_LEASES);
      const out: AcquireResult = { lease, acquired: true, ...(before ? { took_over: before.lease_id } : {}) };
      return { result: out, expired };
    });
  }, req.repository.id);
  await touchAgent(deps, req.agent_id);
  await recordExpired(deps, req.repository.id, expired);
  if (result.acquired) {
    const l = result.lease;
    await recordAclEvent(deps, 'LeaseAcquired', req.repository.id, {
      lease_id: l.lease_id,
      agent_id: l.agent_id,
      task_id: l.task_id,
      branch: l.branch,
      expires_at: l.expires_at,
      ...(result.took_over ? { took_over: result.took_over } : {}),
    });
  }
  return result;
}

/** A grant held back by a landing pin (thrown inside the update, so nothing is written). */
class Pinned extends Error {
  constructor(readonly pin: LandingPin) {
    super('pinned');
  }
}

/**
 * Runs a grant, waiting (short random pauses) while a landing pins the task's fence. A pin lasts as long as one
 * ref update, at most LANDING_PIN_MS (a crashed integrator's); past that wait the grant is refused (409).
 */
async function grantWhenUnpinned<T>(grant: () => Promise<T>, repository: string): Promise<T> {
  const deadline = Date.now() + LANDING_PIN_MS + 1_000;
  for (;;) {
    try {
      return await grant();
    } catch (err) {
      if (!(err instanceof Pinned)) throw err;
      if (Date.now() > deadline)
        throw new RefusedError(
          `task_id: '${err.pin.task_id}' in ${repository} is landing work of fence ${err.pin.fence} (${err.pin.what ?? err.pin.by}) until ${err.pin.until}; try again`,
          {
            field: 'task_id',
            value: err.pin.task_id,
            rule: 'landing_in_progress',
            retryable: true,
            pin: err.pin,
          },
          409,
        );
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
    }
  }
}

/** Which lease a heartbeat or release names: its id, or the task's lease in the repository. */
export interface LeaseRef {
  repository: RepoTarget;
  agent_id: string;
  lease_id?: string;
  task_id?: string;
}

function findLease(doc: LeasesDoc, ref: LeaseRef): Lease {
  if (!ref.lease_id === !ref.task_id)
    throw new ValidationError(
      'lease_id: give lease_id or task_id (with repository), not both and not neither',
      {
        field: 'lease_id',
        rule: 'one_of_lease_id_or_task_id',
      },
    );
  const found = ref.lease_id
    ? doc.leases.find((l) => l.lease_id === ref.lease_id)
    : (doc.leases.find((l) => l.task_id === ref.task_id && l.status === 'active') ??
      [...doc.leases].reverse().find((l) => l.task_id === ref.task_id));
  if (!found) {
    const field = ref.lease_id ? 'lease_id' : 'task_id';
    const value = ref.lease_id ?? ref.task_id;
    throw new NotFoundError(`${field}: no lease '${value}' in ${ref.repository.id}`, {
      field,
      value,
      rule: 'leased',
      repository: ref.repository.id,
    });
  }
  return found;
}

/**
 * Renews a live lease for `ttl` (default: its own TTL). Only its holder may, and only while it is live: a lapsed
 * lease is refused (409) and recorded expired; acquire it again. Renewals are not events (they are frequent and
 * change no holder).
 */
export async function heartbeatLease(
  deps: AclDeps,
  ref: LeaseRef & { ttl?: string },
): Promise<{ lease: Lease }> {
  checkAgentId(ref.agent_id);
  const now = deps.now();
  if (ref.ttl !== undefined) expiryOf(ref.ttl, now);
  let lapsed: Lease[] = [];
  const lease = await updateAcl(deps, aclDocument(ACL.leases, ref.repository.key), LeasesDocSchema, (doc) => {
    const found = findLease(doc, ref);
    if (found.agent_id !== ref.agent_id)
      throw new RefusedError(
        `agent_id: lease '${found.lease_id}' is held by agent '${found.agent_id}', not '${ref.agent_id}'; only its holder renews it`,
        { field: 'agent_id', value: ref.agent_id, rule: 'holder_only', holder: holderOf(found) },
        409,
      );
    if (found.status !== 'active' || !isLive(found, now)) {
      const view = leaseView(found, now);
      throw new RefusedError(
        `lease_id: lease '${found.lease_id}' is ${view.status}${view.status === 'expired' ? ` since ${view.expires_at}` : ''}; acquire it again`,
        { field: 'lease_id', value: found.lease_id, rule: 'lease_live', status: view.status },
        409,
      );
    }
    lapsed = expireLapsed(doc, now);
    const at = now.toISOString();
    Object.assign(found, expiryOf(ref.ttl ?? found.ttl, now), { renewed_at: at, updated_at: at });
    return { ...found };
  });
  await touchAgent(deps, ref.agent_id);
  await recordExpired(deps, ref.repository.id, lapsed);
  return { lease };
}

export interface ReleaseLeaseResult {
  lease: Lease;
  /** False when the lease had already ended (released or expired): nothing changed. */
  released: boolean;
}

/** Releases a lease: its holder, or anyone with `force`. An ended lease is returned unchanged. Records LeaseReleased. */
export async function releaseLease(
  deps: AclDeps,
  ref: LeaseRef & { force?: boolean; byHub?: boolean },
): Promise<ReleaseLeaseResult> {
  checkAgentId(ref.agent_id);
  // Recovery releases for a dead holder: recorded as released by `hub`, and the dead agent is not marked seen.
  const releaser = ref.byHub ? 'hub' : ref.agent_id;
  const now = deps.now();
  const at = now.toISOString();
  let lapsed: Lease[] = [];
  const result = await updateAcl(
    deps,
    aclDocument(ACL.leases, ref.repository.key),
    LeasesDocSchema,
    (doc) => {
      lapsed = expireLapsed(doc, now);
      const found = findLease(doc, ref);
      if (found.status !== 'active') return { lease: { ...found }, released: false };
      if (found.agent_id !== releaser && !ref.force && !ref.byHub)
        throw new RefusedError(
          `agent_id: lease '${found.lease_id}' is held by agent '${found.agent_id}', not '${ref.agent_id}'; only its holder releases it (or --force)`,
          { field: 'agent_id', value: ref.agent_id, rule: 'holder_or_force', holder: holderOf(found) },
          409,
        );
      Object.assign(found, {
        status: 'released',
        released_at: at,
        released_by: releaser,
        updated_at: at,
      });
      doc.leases = pruneEnded(doc.leases, MAX_ENDED_LEASES);
      return { lease: { ...found }, released: true };
    },
  );
  if (!ref.byHub) await touchAgent(deps, ref.agent_id);
  await recordExpired(deps, ref.repository.id, lapsed);
  if (result.released) {
    const l = result.lease;
    await recordAclEvent(deps, 'LeaseReleased', ref.repository.id, {
      lease_id: l.lease_id,
      agent_id: l.agent_id,
      task_id: l.task_id,
      branch: l.branch,
      released_by: releaser,
      forced: l.agent_id !== releaser,
    });
  }
  return result;
}

/** Every lease of one repository document (or of all when `key` is undefined), as seen at `now`. */
export async function readLeases(deps: AclDeps, key?: string): Promise<Lease[]> {
  const now = deps.now();
  const names = key === undefined ? await aclDocuments(deps, ACL.leases) : [aclDocument(ACL.leases, key)];
  const out: Lease[] = [];
  for (const name of names)
    for (const l of (await readAcl(deps, name, LeasesDocSchema)).leases) out.push(leaseView(l, now));
  return out;
}

/**
 * Renews every live lease `agentId` holds, in every repository, each for its own TTL (agent heartbeat). Each
 * repository document is one atomic update; a lease that lapsed meanwhile is left to expire. Returns the renewed
 * leases.
 */
export async function renewAgentLeases(deps: AclDeps, agentId: string): Promise<Lease[]> {
  const renewed: Lease[] = [];
  for (const name of await aclDocuments(deps, ACL.leases)) {
    const now = deps.now();
    const doc = await readAcl(deps, name, LeasesDocSchema);
    if (!doc.leases.some((l) => l.agent_id === agentId && isLive(l, now))) continue;
    const at = now.toISOString();
    const done = await updateAcl(deps, name, LeasesDocSchema, (d) => {
      const out: Lease[] = [];
      for (const l of d.leases)
        if (l.agent_id === agentId && isLive(l, now)) {
          Object.assign(l, expiryOf(l.ttl, now), { renewed_at: at, updated_at: at });
          out.push({ ...l });
        }
      return out;
    });
    renewed.push(...done);
  }
  return renewed;
}
