import { fenceOfBranch, landAllFenced, landFenced, staleFence, staleFenceError } from '../acl/index.js';
import { type CoordDeps, readDoc } from '../coord/index.js';
import { HubError } from '../infra/index.js';
import type { MergeDeps, MergeTarget } from './deps.js';
import { type MergeRequest, MergesDocSchema, mergesDocument, type StaleFenceInfo } from './records.js';

/** The fence a request carries, with who and what for the refusal; undefined for an unfenced request. */
function claimOf(m: MergeRequest, op: string) {
  if (m.task_id === undefined || m.fence === undefined) return undefined;
  return {
    task_id: m.task_id,
    fence: m.fence,
    ...(m.agent_id !== undefined ? { agent_id: m.agent_id } : {}),
    what: `merge request '${m.merge_id}'`,
    op,
  };
}

/** Refuses (stale_fence, 409) a request whose task was leased again since its fence was granted. A read. */
export async function refuseIfStale(
  deps: CoordDeps,
  target: MergeTarget,
  m: MergeRequest,
  op: string,
): Promise<void> {
  const claim = claimOf(m, op);
  if (!claim) return;
  const stale = await staleFence(deps, target, claim);
  if (stale) throw staleFenceError(target.id, stale, claim);
}

/** Runs `land` (the ref move) with the request's fence pinned; a request without a fence lands as it is. */
export function landRequest<T>(
  deps: MergeDeps,
  target: MergeTarget,
  m: MergeRequest,
  op: string,
  land: () => Promise<T>,
): Promise<T> {
  const claim = claimOf(m, op);
  return claim ? landFenced(deps, target, { ...claim, by: deps.integrator }, land) : land();
}

/** True for the refusal of a stale fence. */
export const isStaleFence = (err: unknown): err is HubError =>
  err instanceof HubError && err.details?.rule === 'stale_fence';

/** The stale_fence record a refused request keeps: the fence it carried and the task's newer grant. */
export function staleFenceResult(err: HubError): StaleFenceInfo {
  const d = err.details ?? {};
  return {
    task_id: String(d.task_id),
    fence: Number(d.fence),
    ...(d.current ? { current: d.current as NonNullable<StaleFenceInfo['current']> } : {}),
    ...(d.pruned ? { pruned: true } : {}),
  };
}

interface BranchClaim {
  branch: string;
  task_id: string;
  fence: number;
  agent_id?: string;
  what: string;
  op: string;
}

/**
 * The fence each branch of a rollup carries: that of its newest fenced merge request in the repository's queue,
 * else that of the newest fenced lease on it. Refuses (stale_fence, 409) when any of them is stale, before
 * anything is merged; returns the claims to pin while the integration branch moves.
 */
export async function rollupClaims(
  deps: MergeDeps,
  target: MergeTarget,
  branches: readonly string[],
): Promise<BranchClaim[]> {
  const { merges } = await readDoc(deps, mergesDocument(target.key), MergesDocSchema);
  const claims: BranchClaim[] = [];
  for (const branch of branches) {
    const m = [...merges].reverse().find((x) => x.source_branch === branch && x.fence !== undefined);
    const fromLease = m ? undefined : await fenceOfBranch(deps, target.key, branch);
    const found = m
      ? claimOf(m, 'merge rollup')
      : fromLease && { ...fromLease, what: `branch '${branch}'`, op: 'merge rollup' };
    if (!found) continue;
    const claim: BranchClaim = { ...found, branch };
    const stale = await staleFence(deps, target, claim);
    if (stale) throw staleFenceError(target.id, stale, claim);
    claims.push(claim);
  }
  return claims;
}

/** Runs the rollup's ref move with every branch's fence pinned. */
export function landRollup<T>(
  deps: MergeDeps,
  target: MergeTarget,
  claims: BranchClaim[],
  land: () => Promise<T>,
): Promise<T> {
  return landAllFenced(
    deps,
    target,
    claims.map(({ branch: _, ...c }) => ({ ...c, by: deps.integrator })),
    land,
  );
}
