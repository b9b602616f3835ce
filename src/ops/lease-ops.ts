import * as z from 'zod';
import {
  type AcquireResult,
  acquireLease,
  type BranchAllocation,
  checkAgentId,
  checkTaskId,
  expiryOf,
  heartbeatLease,
  isLive,
  LEASE_STATUSES,
  type Lease,
  leaseHeld,
  type ReleaseLeaseResult,
  type ReleaseResult,
  readLeases,
  releaseAllocation,
  releaseLease,
  resolveRepository,
  type WorktreeRecord,
} from '../acl/index.js';
import { aclDeps, aclFields, repoDeps } from './acl-deps.js';
import { applyWhereStored } from './apply-where-stored.js';
import {
  type AllocateOutput,
  allocateBranch,
  allocateFields,
  type HeadState,
  undoAllocation,
} from './branch-ops.js';
import { cliHelp } from './cli-help.js';
import { table } from './format.js';
import { pagedList } from './paged-op.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';
import { taskWorktree } from './task-worktree.js';

const ACQUIRE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/leases', input: 'body' };
const HEARTBEAT_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/leases/heartbeat', input: 'body' };
const RELEASE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/leases/release', input: 'body' };
const BRANCH_RELEASE_ROUTE: HttpBinding = {
  method: 'POST',
  route: '/v3/ops/branches/release',
  input: 'body',
};

const leaseIdField = cliHelp(z.string().min(1).optional(), 'Lease id (ls-...).');
const taskRefField = z.string().min(1).optional().describe('Instead of `lease_id`.');

const leaseLine = (l: Lease) =>
  `${l.lease_id} [${l.status}] ${l.repository} task ${l.task_id} agent ${l.agent_id}${l.fence !== undefined ? ` fence ${l.fence}` : ''}${l.branch ? ` on ${l.branch}` : ''} until ${l.expires_at}`;

export interface AcquireOutput extends AcquireResult {
  /** The allocation --allocate made or found (null without --allocate). */
  allocation: BranchAllocation | null;
  /** What --allocate did to the git branch (null without --allocate). */
  head: HeadState | null;
  /** The task's worktree when --allocate made the branch and coordination.worktree_per_task asks for one. */
  worktree?: WorktreeRecord;
}

export const leaseAcquire = defineOp({
  id: 'lease.acquire',
  summary: "Take a task's lease in a repository for a TTL; another agent's live lease refuses it.",
  description:
    'One live lease per repository and task; the same agent acquiring again renews it. An expired lease is taken ' +
    'over (and recorded expired). Every grant carries a fence: a number that grows with each grant in the ' +
    'repository and is never reused, so a later lease of the task has a larger one (merge integrate refuses work ' +
    'carrying an older one); renewals keep theirs. --branch names a branch allocated to this agent; --allocate allocates it first ' +
    '(named --branch, else from coordination.branch_pattern) and releases it again if the lease is refused. These ' +
    'leases are not handoff claims.',
  input: z.strictObject({
    repository: aclFields.repository,
    agent_id: aclFields.agent_id,
    task_id: aclFields.task_id,
    ttl: aclFields.ttl,
    branch: z
      .string()
      .min(1)
      .optional()
      .describe('Branch the lease is on (yours; with `allocate`: its name).'),
    allocate: z.boolean().default(false).describe('Allocate `branch` first.'),
    description: allocateFields.description,
    base: allocateFields.base,
    adopt: allocateFields.adopt,
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<AcquireOutput> => {
    const target = await resolveRepository(repoDeps(ctx), input.repository);
    checkAgentId(input.agent_id);
    const taskId = checkTaskId(input.task_id);
    if (input.ttl !== undefined) expiryOf(input.ttl, ctx.now());
    let made: AllocateOutput | undefined;
    if (input.allocate) {
      // A plain read, for an early answer: no branch is made for a lease that would be refused anyway.
      const now = ctx.now();
      const held = (await readLeases(aclDeps(ctx), target.key)).find(
        (l) => l.task_id === taskId && l.agent_id !== input.agent_id && isLive(l, now),
      );
      if (held) throw leaseHeld(held, target.id);
      made = await allocateBranch(ctx, {
        repository: input.repository,
        agent_id: input.agent_id,
        task_id: taskId,
        name: input.branch,
        description: input.description,
        base: input.base,
        adopt: input.adopt,
        git: true,
        created_head: false,
      });
    }
    const branch = made?.allocation.name ?? input.branch;
    const body = { repository: target.id, agent_id: input.agent_id, task_id: taskId, branch, ttl: input.ttl };
    let r: Awaited<ReturnType<typeof acquireLease>>;
    try {
      r = await applyWhereStored(ctx, ACQUIRE_ROUTE, body, (deps) =>
        acquireLease(deps, { ...body, repository: target }),
      );
    } catch (err) {
      if (made?.created) await undoAllocation(ctx, target, made, `lease_refused: ${(err as Error).message}`);
      throw err;
    }
    // Lease and branch stand; a worktree failure (worktree_per_task) keeps both and says so.
    const wt =
      made && made.head !== 'not_created'
        ? await taskWorktree(ctx, target, { agentId: input.agent_id, taskId, branch: made.allocation.name })
        : null;
    return {
      ...r,
      allocation: made?.allocation ?? null,
      head: made?.head ?? null,
      ...(wt ? { worktree: wt.worktree } : {}),
    };
  },
  cli: {
    command: 'lease acquire',
    human: (r) =>
      `${r.acquired ? 'acquired' : 'renewed'} ${leaseLine(r.lease)}${r.took_over ? ` (took over expired ${r.took_over})` : ''}`,
  },
  mcp: { tool: 'hub_lease_acquire', when: 'Use when starting a task others might take.' },
  http: [ACQUIRE_ROUTE],
});

export const leaseHeartbeat = defineOp({
  id: 'lease.heartbeat',
  summary: "Renew your live lease for the TTL (default: the lease's own).",
  input: z.strictObject({
    repository: aclFields.repository,
    agent_id: aclFields.agent_id,
    lease_id: leaseIdField,
    task_id: taskRefField,
    ttl: aclFields.ttl,
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ lease: Lease }> => {
    const target = await resolveRepository(repoDeps(ctx), input.repository);
    checkAgentId(input.agent_id);
    return applyWhereStored(ctx, HEARTBEAT_ROUTE, { ...input, repository: target.id }, (deps) =>
      heartbeatLease(deps, { ...input, repository: target }),
    );
  },
  cli: { command: 'lease heartbeat', human: (r) => `renewed ${leaseLine(r.lease)}` },
  mcp: {
    tool: 'hub_lease_heartbeat',
    when: 'Use when a leased task outlasts its TTL.',
  },
  http: [HEARTBEAT_ROUTE],
});

export interface LeaseReleaseOutput extends ReleaseLeaseResult {
  /** With --release-branch: the release of the lease's branch allocation. */
  branch: ReleaseResult | null;
}

export const leaseRelease = defineOp({
  id: 'lease.release',
  summary: "Release a lease (another's with `force`); `release_branch` releases its branch too.",
  input: z.strictObject({
    repository: aclFields.repository,
    agent_id: aclFields.agent_id,
    lease_id: leaseIdField,
    task_id: taskRefField,
    force: cliHelp(z.boolean().default(false), "Release another agent's lease."),
    release_branch: cliHelp(z.boolean().default(false), "Also release the lease's branch allocation."),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<LeaseReleaseOutput> => {
    const target = await resolveRepository(repoDeps(ctx), input.repository);
    checkAgentId(input.agent_id);
    const { release_branch, ...rest } = input;
    const r = await applyWhereStored(ctx, RELEASE_ROUTE, { ...rest, repository: target.id }, (deps) =>
      releaseLease(deps, { ...rest, repository: target }),
    );
    const branchId = r.lease.branch_id;
    if (!release_branch || !branchId) return { ...r, branch: null };
    const req = {
      agent_id: input.agent_id,
      branch_id: branchId,
      force: input.force,
      reason: 'lease released',
    };
    const branch = await applyWhereStored(
      ctx,
      BRANCH_RELEASE_ROUTE,
      { ...req, repository: target.id },
      (deps) => releaseAllocation(deps, { ...req, repository: target }),
    );
    return { ...r, branch };
  },
  cli: {
    command: 'lease release',
    human: (r) =>
      `${r.released ? 'released' : 'already ended'} ${leaseLine(r.lease)}${r.branch ? `; branch ${r.branch.allocation.name} ${r.branch.released ? 'released' : 'already released'}` : ''}`,
  },
  mcp: { tool: 'hub_lease_release', when: 'Use when you stop a leased task.' },
  http: [RELEASE_ROUTE],
});

export const leaseList = pagedList(
  defineOp({
    id: 'lease.list',
    summary: 'List leases (live by default); a lapsed lease shows expired.',
    input: z.strictObject({
      repository: aclFields.repository.optional(),
      agent_id: cliHelp(z.string().min(1).optional(), "Only this agent's leases."),
      status: z
        .enum([...LEASE_STATUSES, 'all'])
        .default('active')
        .describe('active: live now.'),
    }),
    gate: 'active',
    attributes: READ_ONLY,
    handler: async (ctx, input): Promise<{ leases: Lease[] }> => {
      const key = input.repository
        ? (await resolveRepository(repoDeps(ctx), input.repository)).key
        : undefined;
      const leases = (await readLeases(aclDeps(ctx), key))
        .filter((l) => input.status === 'all' || l.status === input.status)
        .filter((l) => input.agent_id === undefined || l.agent_id === input.agent_id);
      return { leases };
    },
    cli: {
      command: 'lease list',
      human: (r) =>
        table(
          r.leases.map((l) => [
            l.lease_id,
            l.status,
            l.repository,
            l.task_id,
            l.agent_id,
            l.fence === undefined ? '-' : String(l.fence),
            l.branch ?? '-',
            l.expires_at,
          ]),
          ['LEASE', 'STATUS', 'REPOSITORY', 'TASK', 'AGENT', 'FENCE', 'BRANCH', 'EXPIRES'],
        ) || 'no leases',
    },
    mcp: { tool: 'hub_lease_list', when: 'Use when asking who holds which task.' },
    http: [{ method: 'GET', route: '/v3/ops/leases', input: 'query' }],
  }),
  { key: 'leases', noun: 'Leases', order: 'by repository, then in acquisition order' },
);
