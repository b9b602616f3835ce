import * as z from 'zod';
import { RefusedError, randomHex } from '../infra/index.js';
import { isLive } from './liveness.js';
import { ACL, type AclDeps, aclDocument, readAcl, updateAcl } from './records.js';

/**
 * Fencing tokens of leases. A lease lapses when its holder stalls past its TTL; the holder may wake up and land
 * stale work over the agent that took the task after it. Every grant therefore carries a `fence`, a number taken
 * from a per-repository sequence in the same atomic update as the grant: it only grows, so within one
 * (repository, task) a later grant always has a larger fence. The sequence and each task's newest grant live in
 * the leases document beside the lease records, so pruning or removing records never lets a fence be reused.
 * Landing work (merge integrate, promote, rollup) compares the fence it carries with the task's newest grant and
 * refuses a stale one; while it moves a ref it pins the fence, and a new grant of that task waits for the pin.
 */

/** The newest grant of one task: what a carried fence is compared with. */
export const FenceGrantSchema = z.looseObject({
  fence: z.number().int().min(1),
  agent_id: z.string(),
  lease_id: z.string(),
  granted_at: z.string(),
});
export type FenceGrant = z.infer<typeof FenceGrantSchema>;

/** A landing in flight: the fence it carries is held as the task's newest until `until` (or its release). */
export const LandingPinSchema = z.looseObject({
  pin_id: z.string(),
  task_id: z.string(),
  fence: z.number().int(),
  /** Who lands (`<host>:<pid>`), and what (a merge request id, or a rollup). */
  by: z.string(),
  what: z.string().optional(),
  until: z.string(),
});
export type LandingPin = z.infer<typeof LandingPinSchema>;

/** The fence fields of a leases document (the records themselves are typed in leases.ts). */
export const FenceFieldsSchema = {
  /** The last fence handed out in this repository; the next grant takes one more. */
  fence_seq: z.number().int().min(0).optional(),
  /** Per task: its newest grant. */
  fences: z.record(z.string(), FenceGrantSchema).optional(),
  /** The largest fence among tasks whose entry was dropped to bound the document (0: none dropped). */
  fence_floor: z.number().int().min(0).optional(),
  landings: z.array(LandingPinSchema).optional(),
};

/** Tasks whose newest grant a repository's leases document keeps; past it the oldest idle ones are dropped. */
export const MAX_FENCED_TASKS = 10_000;
/** How long a landing may hold a task's fence; a crashed integrator's pin lapses after it. */
export const LANDING_PIN_MS = 30_000;

interface FencedLease {
  task_id: string;
  agent_id: string;
  lease_id: string;
  status: string;
  expires_at?: string | null;
  fence?: number | undefined;
  acquired_at: string;
}
interface FencedDoc {
  leases: FencedLease[];
  fence_seq?: number | undefined;
  fences?: Record<string, FenceGrant> | undefined;
  fence_floor?: number | undefined;
  landings?: LandingPin[] | undefined;
}

const own = <T>(rec: Record<string, T> | undefined, key: string): T | undefined =>
  rec !== undefined && Object.hasOwn(rec, key) ? rec[key] : undefined;

/** The task's newest grant: its entry, else the largest fence among its records (documents of older builds). */
function newestGrant(doc: FencedDoc, taskId: string): FenceGrant | undefined {
  const entry = own(doc.fences, taskId);
  let best: FenceGrant | undefined = entry;
  for (const l of doc.leases)
    if (l.task_id === taskId && l.fence !== undefined && (best === undefined || l.fence > best.fence))
      best = { fence: l.fence, agent_id: l.agent_id, lease_id: l.lease_id, granted_at: l.acquired_at };
  return best;
}

/**
 * Stamps a new lease with the next fence of its repository and records it as its task's newest grant; part of the
 * grant's own update. The next fence is above every fence the document knows, so a hand-lowered sequence or
 * records of an older build never make one come back.
 */
export function grantFence(doc: FencedDoc, lease: FencedLease, at: string): number {
  let top = Math.max(doc.fence_seq ?? 0, doc.fence_floor ?? 0);
  for (const l of doc.leases) if (l.fence !== undefined && l.fence > top) top = l.fence;
  for (const g of Object.values(doc.fences ?? {})) if (g.fence > top) top = g.fence;
  const fence = top + 1;
  lease.fence = fence;
  doc.fence_seq = fence;
  doc.fences ??= {};
  doc.fences[lease.task_id] = { fence, agent_id: lease.agent_id, lease_id: lease.lease_id, granted_at: at };
  boundFences(doc);
  return fence;
}

/** Drops the oldest entries of tasks with no active lease past MAX_FENCED_TASKS, raising fence_floor over them. */
function boundFences(doc: FencedDoc): void {
  const entries = Object.entries(doc.fences ?? {});
  if (entries.length <= MAX_FENCED_TASKS) return;
  const busy = new Set(doc.leases.filter((l) => l.status === 'active').map((l) => l.task_id));
  const idle = entries.filter(([task]) => !busy.has(task)).sort((a, b) => a[1].fence - b[1].fence);
  const drop = idle.slice(0, entries.length - MAX_FENCED_TASKS);
  for (const [task, g] of drop) {
    delete doc.fences![task];
    doc.fence_floor = Math.max(doc.fence_floor ?? 0, g.fence);
  }
}

/** What a carried fence is, next to the task's newest grant, when it is stale. */
export interface StaleFence {
  task_id: string;
  fence: number;
  /** The task's newest grant; absent when its history was dropped (`pruned`). */
  current?: { fence: number; agent_id: string; lease_id: string; granted_at: string };
  pruned?: boolean;
}

/** A fence carried for a task, and who carries it. */
export interface FenceClaim {
  task_id: string;
  fence: number;
}

function verdict(doc: FencedDoc, claim: FenceClaim): StaleFence | undefined {
  const newest = newestGrant(doc, claim.task_id);
  if (newest !== undefined)
    return newest.fence > claim.fence ? { ...claim, current: { ...newest } } : undefined;
  // The task's entry was dropped to bound the document: whether a newer grant came cannot be told, so it is stale.
  if (claim.fence <= (doc.fence_floor ?? 0)) return { ...claim, pruned: true };
  return undefined;
}

const leasesDoc = (key: string) => aclDocument(ACL.leases, key);

/** Just the parts of a leases document this module reads and writes. */
const FencedDocSchema = z.looseObject({
  leases: z
    .array(
      z.looseObject({
        task_id: z.string(),
        agent_id: z.string(),
        lease_id: z.string(),
        status: z.string(),
        expires_at: z.string().nullable().optional(),
        fence: z.number().int().optional(),
        acquired_at: z.string(),
        branch: z.string().nullable().optional(),
      }),
    )
    .default([]),
  ...FenceFieldsSchema,
});

/** Undefined when `claim` is still the task's newest fence in the repository; else why it is stale (a read). */
export async function staleFence(
  deps: AclDeps,
  repo: { key: string },
  claim: FenceClaim,
): Promise<StaleFence | undefined> {
  return verdict(await readAcl(deps, leasesDoc(repo.key), FencedDocSchema), claim);
}

/** Who carries a stale fence and what for: named in the refusal. */
export interface FenceCarrier {
  agent_id?: string;
  /** What would have landed: `merge request 'x'`, `branch 'y'`. */
  what: string;
  /** The operation refused (`merge integrate`). */
  op: string;
}

/** The refusal of stale work: 409 `stale_fence`, naming both agents and both fences; nothing was moved. */
export function staleFenceError(repository: string, s: StaleFence, carrier: FenceCarrier): RefusedError {
  const who = carrier.agent_id ? ` of agent '${carrier.agent_id}'` : '';
  const why = s.current
    ? `the task has since been leased to agent '${s.current.agent_id}' with fence ${s.current.fence} (lease ${s.current.lease_id})`
    : `the task's lease history was pruned (more than ${MAX_FENCED_TASKS} tasks leased since), so a newer lease cannot be ruled out`;
  return new RefusedError(
    `fence: ${carrier.what}${who} carries fence ${s.fence} of task '${s.task_id}' in ${repository}, but ${why}; ${carrier.op} refused it as stale and nothing was changed (the current holder may enqueue the branch again under its own lease)`,
    {
      field: 'fence',
      value: s.fence,
      rule: 'stale_fence',
      repository,
      task_id: s.task_id,
      fence: s.fence,
      ...(carrier.agent_id ? { agent_id: carrier.agent_id } : {}),
      ...(s.current ? { current: s.current } : { pruned: true }),
    },
    409,
  );
}

/**
 * The fence an agent carries for a task of a repository (by `task_id`, else the task of its lease on `branch`):
 * its live lease's, else its newest lease's (a stalled agent that lost its lease still carries the old fence, so
 * that what it lands is judged by it). Undefined when the agent holds no fenced lease of that task.
 */
export async function fenceOfAgent(
  deps: AclDeps,
  key: string,
  req: { agent_id: string; task_id?: string; branch?: string },
): Promise<{ task_id: string; fence: number; live: boolean } | undefined> {
  if (req.task_id === undefined && req.branch === undefined) return undefined;
  const now = deps.now();
  const doc = await readAcl(deps, leasesDoc(key), FencedDocSchema);
  const mine = doc.leases.filter(
    (l) =>
      l.agent_id === req.agent_id &&
      l.fence !== undefined &&
      (req.task_id !== undefined ? l.task_id === req.task_id : l.branch === req.branch),
  );
  const live = mine.filter((l) => isLive(l, now));
  const pick = (live.length > 0 ? live : mine).reduce<(typeof mine)[number] | undefined>(
    (best, l) => (best === undefined || l.fence! > best.fence! ? l : best),
    undefined,
  );
  return pick ? { task_id: pick.task_id, fence: pick.fence!, live: live.includes(pick) } : undefined;
}

/** A live pin on the task (of another landing, or of this one) that a new grant must wait for. */
export function pinOn(doc: FencedDoc, taskId: string, now: Date): LandingPin | undefined {
  return (doc.landings ?? []).find((p) => p.task_id === taskId && Date.parse(p.until) > now.getTime());
}

/** Drops lapsed pins (their landing crashed or overran) from a document being updated. */
export function dropLapsedPins(doc: FencedDoc, now: Date): void {
  if (!doc.landings) return;
  doc.landings = doc.landings.filter((p) => Date.parse(p.until) > now.getTime());
  if (doc.landings.length === 0) delete doc.landings;
}

/**
 * Lands fenced work: in one atomic update of the leases document, refuses a stale fence (stale_fence, nothing
 * runs) or pins it; runs `land` (which moves the ref); then releases the pin. While pinned, a new grant of that
 * task waits, so no newer lease can be handed out between the check and the move.
 */
export async function landFenced<T>(
  deps: AclDeps,
  repo: { id: string; key: string },
  claim: FenceClaim & { by: string; agent_id?: string; what?: string; op?: string },
  land: () => Promise<T>,
): Promise<T> {
  const pin_id = `pin-${randomHex(6)}`;
  const name = leasesDoc(repo.key);
  await updateAcl(deps, name, FencedDocSchema, (doc) => {
    const now = deps.now();
    const stale = verdict(doc, claim);
    if (stale)
      throw staleFenceError(repo.id, stale, {
        agent_id: claim.agent_id,
        what: claim.what ?? 'the work',
        op: claim.op ?? 'landing',
      });
    dropLapsedPins(doc, now);
    doc.landings = [
      ...(doc.landings ?? []),
      {
        pin_id,
        task_id: claim.task_id,
        fence: claim.fence,
        by: claim.by,
        ...(claim.what ? { what: claim.what } : {}),
        until: new Date(now.getTime() + LANDING_PIN_MS).toISOString(),
      },
    ];
  });
  try {
    return await land();
  } finally {
    // Best effort: a pin that cannot be released now lapses after LANDING_PIN_MS; the landing's outcome stands.
    await updateAcl(deps, name, FencedDocSchema, (doc) => {
      if (!doc.landings) return;
      doc.landings = doc.landings.filter((p) => p.pin_id !== pin_id);
      if (doc.landings.length === 0) delete doc.landings;
    }).catch(() => undefined);
  }
}

/** Lands work that carries several fences (a rollup of branches): each pinned in turn, all held while it lands. */
export async function landAllFenced<T>(
  deps: AclDeps,
  repo: { id: string; key: string },
  claims: Array<FenceClaim & { by: string; agent_id?: string; what?: string; op?: string }>,
  land: () => Promise<T>,
): Promise<T> {
  const [first, ...rest] = claims;
  if (first === undefined) return land();
  return landFenced(deps, repo, first, () => landAllFenced(deps, repo, rest, land));
}

/** The task and fence of the newest fenced lease on `branch` in a repository (what a rollup of it carries). */
export async function fenceOfBranch(
  deps: AclDeps,
  key: string,
  branch: string,
): Promise<{ task_id: string; fence: number; agent_id: string } | undefined> {
  const doc = await readAcl(deps, leasesDoc(key), FencedDocSchema);
  let best: { task_id: string; fence: number; agent_id: string } | undefined;
  for (const l of doc.leases)
    if (l.branch === branch && l.fence !== undefined && (best === undefined || l.fence > best.fence))
      best = { task_id: l.task_id, fence: l.fence, agent_id: l.agent_id };
  return best;
}
