import * as z from 'zod';
import { newId } from '../coord/index.js';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { touchAgent } from './agents.js';
import { checkBranchName, shown } from './branches-names.js';
import { recordAclEvent } from './events.js';
import { checkAgentId } from './liveness.js';
import { ACL, type AclDeps, aclDocument, aclDocuments, readAcl, updateAcl } from './records.js';
import type { RepoTarget } from './repository-ref.js';

export const BRANCH_STATUSES = ['active', 'released'] as const;
/** Released allocations kept per repository document (oldest dropped first), so the document stays bounded. */
export const MAX_ENDED_ALLOCATIONS = 200;

/** One branch allocation: a name held by an agent for a task in one repository, until released. */
export const BranchAllocationSchema = z.looseObject({
  branch_id: z.string(),
  name: z.string(),
  repository: z.string(),
  agent_id: z.string(),
  task_id: z.string(),
  status: z.enum(BRANCH_STATUSES),
  /** What the caller asked to branch from (`HEAD` when nothing was). */
  base_ref: z.string().nullable().default(null),
  /** The commit the branch was created at (or found at), when known. */
  base_sha: z.string().nullable().default(null),
  description: z.string().optional(),
  /** True when hub creates the git branch for this allocation (false: found, adopted, or recorded with --no-git);
   * `branch cleanup` deletes only such branches. */
  created_head: z.boolean().default(false),
  created_at: z.string(),
  updated_at: z.string(),
  released_at: z.string().optional(),
  released_by: z.string().optional(),
  release_reason: z.string().optional(),
  /** Allocations never expire on their own (a branch holds commits): always null. */
  expires_at: z.string().nullable().optional(),
});
export type BranchAllocation = z.infer<typeof BranchAllocationSchema>;
export const BranchesDocSchema = z.looseObject({ allocations: z.array(BranchAllocationSchema).default([]) });

/** An allocation to record: the name already made and checked against the workspace's rules. */
export interface AllocationRequest {
  repository: RepoTarget;
  agent_id: string;
  task_id: string;
  name: string;
  base_ref: string | null;
  base_sha: string | null;
  description?: string;
  /** Hub creates the git branch for it (see BranchAllocationSchema.created_head). */
  created_head?: boolean;
}

export interface AllocationResult {
  allocation: BranchAllocation;
  /** False when this agent already held the name for this task (the call is then a no-op). */
  created: boolean;
}

const holderOf = (a: BranchAllocation) => ({
  agent_id: a.agent_id,
  task_id: a.task_id,
  branch_id: a.branch_id,
  since: a.created_at,
});

/** True when git could not hold both names: one is the other's directory (`agent/x` and `agent/x/y`). */
function nested(a: string, b: string): boolean {
  return a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** Keeps every active allocation and the newest MAX_ENDED_ALLOCATIONS ended ones, in their order. */
export function pruneEnded<T extends { status: string; updated_at: string }>(list: T[], max: number): T[] {
  const ended = list.filter((a) => a.status !== 'active');
  if (ended.length <= max) return list;
  const keep = new Set(
    [...ended]
      .sort((a, b) => (a.updated_at < b.updated_at ? 1 : a.updated_at > b.updated_at ? -1 : 0))
      .slice(0, max),
  );
  return list.filter((a) => a.status === 'active' || keep.has(a));
}

/**
 * Records an allocation: the uniqueness check and the write are one atomic update of `branches/<repo key>`, so
 * of any number of racing allocators of one name exactly one wins. A name held by another agent (or by this agent
 * for another task) is refused (409) naming the holder; so is a name git could not create beside a held one
 * (`agent/x` against `agent/x/y`). The same agent and task get their allocation back (`created: false`).
 * Records `BranchAllocated` and touches the agent.
 */
export async function recordAllocation(deps: AclDeps, req: AllocationRequest): Promise<AllocationResult> {
  checkAgentId(req.agent_id);
  checkBranchName(req.name);
  const now = deps.now().toISOString();
  const result = await updateAcl(
    deps,
    aclDocument(ACL.branches, req.repository.key),
    BranchesDocSchema,
    (doc): AllocationResult => {
      const active = doc.allocations.filter((a) => a.status === 'active');
      const same = active.find((a) => a.name === req.name);
      if (same && same.agent_id === req.agent_id && same.task_id === req.task_id)
        return { allocation: same, created: false };
      const clash = same ?? active.find((a) => nested(a.name, req.name));
      if (clash) {
        const how = clash.name === req.name ? 'is allocated' : `conflicts with '${clash.name}', allocated`;
        throw new RefusedError(
          `name: '${req.name}' ${how} to agent '${clash.agent_id}' for task '${clash.task_id}' in ${req.repository.id} since ${clash.created_at}; release it first (branch release, --force for another agent's)`,
          {
            field: 'name',
            value: req.name,
            rule: clash.name === req.name ? 'one_allocation_per_name' : 'no_nested_branch_names',
            repository: req.repository.id,
            holder: holderOf(clash),
            held_name: clash.name,
          },
          409,
        );
      }
      const allocation: BranchAllocation = {
        branch_id: newId('br'),
        name: req.name,
        repository: req.repository.id,
        agent_id: req.agent_id,
        task_id: req.task_id,
        status: 'active',
        base_ref: req.base_ref,
        base_sha: req.base_sha,
        ...(req.description ? { description: req.description } : {}),
        created_head: req.created_head ?? false,
        created_at: now,
        updated_at: now,
        expires_at: null,
      };
      doc.allocations = pruneEnded([...doc.allocations, allocation], MAX_ENDED_ALLOCATIONS);
      return { allocation, created: true };
    },
  );
  await touchAgent(deps, req.agent_id);
  if (result.created) {
    const a = result.allocation;
    await recordAclEvent(deps, 'BranchAllocated', req.repository.id, {
      branch_id: a.branch_id,
      name: a.name,
      agent_id: a.agent_id,
      task_id: a.task_id,
      base_ref: a.base_ref,
      base_sha: a.base_sha,
    });
  }
  return result;
}

/** Which allocation a release names: its id, or its name (the active one of that name). */
export interface ReleaseRequest {
  repository: RepoTarget;
  agent_id: string;
  branch_id?: string;
  name?: string;
  force?: boolean;
  reason?: string;
  /** Recovery for a dead agent: released by `hub`, and the dead agent is not marked seen. */
  byHub?: boolean;
}

export interface ReleaseResult {
  allocation: BranchAllocation;
  /** False when it was already released (releasing twice is not an error). */
  released: boolean;
}

/**
 * Releases an allocation: only its agent may, or anyone with `force`. Already released: returned unchanged.
 * Records `BranchReleased` (with `forced` and `reason`). The git branch stays; `branch cleanup` deletes it.
 */
export async function releaseAllocation(deps: AclDeps, req: ReleaseRequest): Promise<ReleaseResult> {
  checkAgentId(req.agent_id);
  if (!req.branch_id === !req.name)
    throw new ValidationError(
      'branch_id: give branch_id or name (with repository), not both and not neither',
      {
        field: 'branch_id',
        rule: 'one_of_branch_id_or_name',
      },
    );
  const now = deps.now().toISOString();
  const releaser = req.byHub ? 'hub' : req.agent_id;
  const result = await updateAcl(
    deps,
    aclDocument(ACL.branches, req.repository.key),
    BranchesDocSchema,
    (doc): ReleaseResult => {
      const found = req.branch_id
        ? doc.allocations.find((a) => a.branch_id === req.branch_id)
        : (doc.allocations.find((a) => a.name === req.name && a.status === 'active') ??
          [...doc.allocations].reverse().find((a) => a.name === req.name));
      if (!found) {
        const field = req.branch_id ? 'branch_id' : 'name';
        const value = shown(req.branch_id ?? req.name ?? '');
        throw new NotFoundError(`${field}: no allocation '${value}' in ${req.repository.id}`, {
          field,
          value,
          rule: 'allocated',
          repository: req.repository.id,
        });
      }
      if (found.status !== 'active') return { allocation: found, released: false };
      if (found.agent_id !== releaser && !req.force && !req.byHub)
        throw new RefusedError(
          `agent_id: '${found.name}' is allocated to agent '${found.agent_id}', not '${req.agent_id}'; only its agent releases it (or --force)`,
          {
            field: 'agent_id',
            value: req.agent_id,
            rule: 'holder_or_force',
            holder: holderOf(found),
          },
          409,
        );
      found.status = 'released';
      found.updated_at = now;
      found.released_at = now;
      found.released_by = releaser;
      if (req.reason) found.release_reason = req.reason;
      doc.allocations = pruneEnded(doc.allocations, MAX_ENDED_ALLOCATIONS);
      return { allocation: { ...found }, released: true };
    },
  );
  if (!req.byHub) await touchAgent(deps, req.agent_id);
  if (result.released) {
    const a = result.allocation;
    await recordAclEvent(deps, 'BranchReleased', req.repository.id, {
      branch_id: a.branch_id,
      name: a.name,
      agent_id: a.agent_id,
      task_id: a.task_id,
      released_by: releaser,
      forced: a.agent_id !== releaser,
      ...(req.reason ? { reason: req.reason } : {}),
    });
  }
  return result;
}

/** The allocations of one repository document, or of every one when `key` is undefined. */
export async function readAllocations(deps: AclDeps, key?: string): Promise<BranchAllocation[]> {
  const names = key === undefined ? await aclDocuments(deps, ACL.branches) : [aclDocument(ACL.branches, key)];
  const out: BranchAllocation[] = [];
  for (const name of names) out.push(...(await readAcl(deps, name, BranchesDocSchema)).allocations);
  return out;
}

/** The active allocation of `name` in a repository document, if any (a plain read: for early answers only). */
export async function activeAllocation(
  deps: AclDeps,
  key: string,
  name: string,
): Promise<BranchAllocation | undefined> {
  return (await readAllocations(deps, key)).find((a) => a.name === name && a.status === 'active');
}
