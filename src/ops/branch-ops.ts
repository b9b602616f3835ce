import * as z from 'zod';
import {
  type AllocationResult,
  activeAllocation,
  BRANCH_STATUSES,
  type BranchAllocation,
  type CleanupResult,
  checkAgentId,
  checkAllowedPrefix,
  checkBaseRef,
  checkBranchName,
  checkTaskId,
  cleanupBranches,
  createHead,
  deleteHeadAt,
  headOf,
  isFullSha,
  listAgents,
  nameFromPattern,
  type ReleaseResult,
  type RepoTarget,
  readAllocations,
  recordAllocation,
  releaseAllocation,
  resolveBase,
  resolveRepository,
  shown,
  slugOf,
  type WorktreeRecord,
} from '../acl/index.js';
import { NotFoundError, RefusedError, ValidationError } from '../infra/index.js';
import { aclDeps, aclFields, repoDeps } from './acl-deps.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { table } from './format.js';
import { pagedList } from './paged-op.js';
import { defineOp, type HttpBinding, READ_ONLY, WRITES } from './registry.js';
import { taskWorktree } from './task-worktree.js';

const ALLOCATE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/branches', input: 'body' };
const RELEASE_ROUTE: HttpBinding = { method: 'POST', route: '/v3/ops/branches/release', input: 'body' };

/** What happened to the git branch: made at the base, found there already, adopted where it stood, or not touched. */
export type HeadState = 'created' | 'existing' | 'adopted' | 'not_created';
export interface AllocateOutput extends AllocationResult {
  head: HeadState;
  /** The task's worktree when coordination.worktree_per_task asks for one (absent otherwise). */
  worktree?: WorktreeRecord;
}

export const allocateFields = {
  name: z
    .string()
    .min(1)
    .optional()
    .describe('Default: from coordination.branch_pattern; it must use an allowed prefix.'),
  description: z
    .string()
    .max(1000)
    .optional()
    .describe('Task description; fills {slug} of the branch pattern.'),
  base: z.string().min(1).optional().describe("Default: the checkout's HEAD."),
  adopt: z.boolean().default(false).describe('Take an existing branch at another commit than `base` as is.'),
};

const allocateInput = z.strictObject({
  repository: aclFields.repository,
  agent_id: aclFields.agent_id,
  task_id: aclFields.task_id,
  ...allocateFields,
  git: cliHelp(
    z
      .boolean()
      .default(true)
      .describe('Create the git branch in the checkout; false records the allocation only.'),
    'Record the allocation only, for a caller that creates the git branch itself.',
  ),
  base_sha: z.string().optional().describe('With `git`: false, the commit the branch starts at (full hex).'),
  created_head: z
    .boolean()
    .default(false)
    .describe('With `git`: false, you create the branch (cleanup may delete it).'),
});
export type AllocateInput = z.output<typeof allocateInput>;

/** The branch name of an allocation: `--name` as given, else coordination.branch_pattern; checked either way. */
function branchNameFor(ctx: OpContext, input: AllocateInput, taskId: string): string {
  const { branch_pattern: pattern, allowed_branch_prefixes: prefixes } = ctx.appConfig().config.coordination;
  if (input.name !== undefined) return checkAllowedPrefix(checkBranchName(input.name), prefixes);
  const slug = input.description === undefined ? '' : slugOf(input.description);
  const name = nameFromPattern(pattern, { task_id: taskId, slug, agent_id: input.agent_id });
  const from = { derived_from: 'coordination.branch_pattern', pattern };
  return checkAllowedPrefix(checkBranchName(name, 'name', from), prefixes, 'name', from);
}

/** Records an allocation where the branches document is kept: on a hub server (http backend) its route. */
function recordWhereStored(
  ctx: OpContext,
  target: RepoTarget,
  fields: {
    agent_id: string;
    task_id: string;
    name: string;
    base_ref: string | null;
    base_sha: string | null;
    description?: string;
    created_head: boolean;
  },
): Promise<AllocationResult> {
  const { base_ref, base_sha, ...rest } = fields;
  const body = {
    ...rest,
    repository: target.id,
    git: false,
    ...(base_ref === null ? {} : { base: base_ref }),
    ...(base_sha === null ? {} : { base_sha }),
  };
  return applyWhereStored(ctx, ALLOCATE_ROUTE, body, (deps) =>
    recordAllocation(deps, { repository: target, ...fields }),
  );
}

function checkBaseSha(sha: string | undefined): string | null {
  if (sha === undefined) return null;
  if (!isFullSha(sha))
    throw new ValidationError(
      `base_sha: '${shown(sha)}' is not a full commit id (40 or 64 lowercase hex digits)`,
      {
        field: 'base_sha',
        value: shown(sha),
        rule: 'full hex object id',
      },
    );
  return sha;
}

/**
 * Allocates a branch: the name is made and checked here, against this workspace's config; the allocation is
 * recorded atomically where the branches document is kept (on a hub server, by its route), and only then is the
 * git branch created in this machine's checkout. When git fails the allocation is released again (reason
 * `git_failed`), so the name is free; two racing allocators never both create the branch.
 */
export async function allocateBranch(ctx: OpContext, input: AllocateInput): Promise<AllocateOutput> {
  const target = await resolveRepository(repoDeps(ctx), input.repository);
  checkAgentId(input.agent_id);
  const taskId = checkTaskId(input.task_id);
  const name = branchNameFor(ctx, input, taskId);
  const fields = { agent_id: input.agent_id, task_id: taskId, name, description: input.description };
  if (input.base !== undefined) checkBaseRef(input.base);
  if (!input.git) {
    const base_sha =
      checkBaseSha(input.base_sha) ?? (input.base && isFullSha(input.base) ? input.base : null);
    const r = await recordWhereStored(ctx, target, {
      ...fields,
      base_ref: input.base ?? null,
      base_sha,
      created_head: input.created_head,
    });
    return { ...r, head: 'not_created' };
  }
  for (const field of ['base_sha', 'created_head'] as const)
    if (input[field] !== undefined && input[field] !== false)
      throw new ValidationError(`${field}: only with --no-git (otherwise hub finds it out in the checkout)`, {
        field,
        rule: 'only_without_git',
      });
  const root = target.root;
  if (!root)
    throw new NotFoundError(
      `repository: ${target.id} is not checked out here; branch allocate creates the branch in the checkout (clone it, or pass --no-git to record the allocation only)`,
      { field: 'repository', value: input.repository, rule: 'checked_out' },
    );
  const baseRef = input.base ?? 'HEAD';
  const sha = await resolveBase(root, baseRef, target.id);
  // A plain read, for an early answer only: the atomic update below decides who holds the name.
  const held = await activeAllocation(aclDeps(ctx), target.key, name);
  const mine = held !== undefined && held.agent_id === input.agent_id && held.task_id === taskId;
  const head = await headOf(root, name);
  // A git branch that stands elsewhere than the base and that nobody allocated: only with --adopt. A held name is
  // refused by the record instead, naming its holder.
  const foreign = !mine && head !== undefined && head !== sha && !input.adopt;
  const exists = () =>
    new RefusedError(
      `name: the git branch '${name}' already exists in ${target.id} at ${head!.slice(0, 12)}, not at the base ${baseRef} (${sha.slice(0, 12)}); pass --adopt to allocate it as it stands, or choose another name`,
      { field: 'name', value: name, rule: 'git_branch_exists', head, base_sha: sha, repository: target.id },
      409,
    );
  if (foreign && held === undefined) throw exists();
  const r = await recordWhereStored(ctx, target, {
    ...fields,
    base_ref: baseRef,
    base_sha: head ?? sha,
    created_head: head === undefined,
  });
  if (head !== undefined) {
    // The holder released the name between the read and the record: the branch is still not ours to adopt.
    if (foreign && r.created) {
      await undoAllocation(ctx, target, { ...r, head: 'not_created' }, 'git_branch_exists');
      throw exists();
    }
    return { ...r, head: head === sha || !r.created ? 'existing' : 'adopted' };
  }
  try {
    await createHead(root, name, r.allocation.base_sha ?? sha, target.id);
  } catch (err) {
    if (r.created)
      await undoAllocation(
        ctx,
        target,
        { ...r, head: 'not_created' },
        `git_failed: ${(err as Error).message}`,
      );
    throw err;
  }
  return { ...r, head: 'created' };
}

/**
 * Undoes an allocation a call made when a later step failed: releases it where it is stored (with the reason) and
 * deletes the git branch it created, only while that still points where it was made.
 */
export async function undoAllocation(
  ctx: OpContext,
  target: RepoTarget,
  made: AllocateOutput,
  why: string,
): Promise<void> {
  const a = made.allocation;
  const reason = why.slice(0, 500);
  const body = { repository: target.id, agent_id: a.agent_id, branch_id: a.branch_id, reason };
  await applyWhereStored(ctx, RELEASE_ROUTE, body, (deps) =>
    releaseAllocation(deps, { repository: target, agent_id: a.agent_id, branch_id: a.branch_id, reason }),
  );
  if (made.head === 'created' && target.root && a.base_sha)
    await deleteHeadAt(target.root, a.name, a.base_sha);
}

const allocationLine = (a: BranchAllocation) =>
  `${a.name} [${a.status}] ${a.repository} agent ${a.agent_id} task ${a.task_id}${a.base_sha ? ` at ${a.base_sha.slice(0, 12)}` : ''}`;

export const branchAllocate = defineOp({
  id: 'branch.allocate',
  summary: 'Allocate a branch for an agent and task: recorded, then created in the checkout.',
  description:
    'The name comes from coordination.branch_pattern (default agent/{task_id}[-{slug}], slug from --description) ' +
    'unless --name is given; either way it must pass git check-ref-format --branch and start with one of ' +
    'coordination.allowed_branch_prefixes. A name held by another agent is refused with its holder; the same ' +
    'agent and task get their allocation back. An existing git branch of that name is reused when it points at ' +
    'the base, and refused otherwise unless --adopt.',
  input: allocateInput,
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<AllocateOutput> => {
    const r = await allocateBranch(ctx, input);
    if (r.head === 'not_created') return r;
    const target = await resolveRepository(repoDeps(ctx), input.repository);
    const wt = await taskWorktree(ctx, target, {
      agentId: input.agent_id,
      taskId: r.allocation.task_id,
      branch: r.allocation.name,
    });
    return wt ? { ...r, worktree: wt.worktree } : r;
  },
  cli: {
    command: 'branch allocate',
    human: (r) =>
      `${r.created ? 'allocated' : 'already allocated'} ${allocationLine(r.allocation)} (git branch ${r.head.replace('_', ' ')})`,
  },
  mcp: { tool: 'hub_branch_allocate', when: 'Use when a task needs its own branch.' },
  http: [ALLOCATE_ROUTE],
});

export const branchRelease = defineOp({
  id: 'branch.release',
  summary: "Release a branch allocation by id or name (another's with `force`); the git branch stays.",
  input: z.strictObject({
    repository: aclFields.repository,
    agent_id: aclFields.agent_id,
    branch_id: cliHelp(z.string().min(1).optional(), 'Allocation id (br-...).'),
    name: cliHelp(z.string().min(1).optional(), 'Branch name (its active allocation).'),
    force: cliHelp(z.boolean().default(false), "Release another agent's allocation."),
    reason: cliHelp(z.string().max(500).optional(), 'Why (recorded with the release).'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<ReleaseResult> => {
    const target = await resolveRepository(repoDeps(ctx), input.repository);
    checkAgentId(input.agent_id);
    return applyWhereStored(ctx, RELEASE_ROUTE, { ...input, repository: target.id }, (deps) =>
      releaseAllocation(deps, { ...input, repository: target }),
    );
  },
  cli: {
    command: 'branch release',
    human: (r) => `${r.released ? 'released' : 'already released'} ${allocationLine(r.allocation)}`,
  },
  mcp: { tool: 'hub_branch_release', when: 'Use when a task no longer needs its branch.' },
  http: [RELEASE_ROUTE],
});

export interface BranchListItem extends BranchAllocation {
  /** Whether the allocating agent is live in the agents registry now (false: silent past its TTL, or unknown). */
  agent_live: boolean;
}

export const branchList = pagedList(
  defineOp({
    id: 'branch.list',
    summary: 'List branch allocations (active by default) and whether each holder is live.',
    input: z.strictObject({
      repository: aclFields.repository.optional(),
      agent_id: cliHelp(z.string().min(1).optional(), 'Only this agent’s allocations.'),
      status: cliHelp(
        z.enum([...BRANCH_STATUSES, 'all']).default('active'),
        'active (default), released or all.',
      ),
    }),
    gate: 'active',
    attributes: READ_ONLY,
    handler: async (ctx, input): Promise<{ branches: BranchListItem[] }> => {
      const deps = aclDeps(ctx);
      const key = input.repository
        ? (await resolveRepository(repoDeps(ctx), input.repository)).key
        : undefined;
      const live = new Set((await listAgents(deps)).filter((a) => a.live).map((a) => a.agent_id));
      const branches = (await readAllocations(deps, key))
        .filter((a) => input.status === 'all' || a.status === input.status)
        .filter((a) => input.agent_id === undefined || a.agent_id === input.agent_id)
        .map((a) => ({ ...a, agent_live: live.has(a.agent_id) }));
      return { branches };
    },
    cli: {
      command: 'branch list',
      human: (r) =>
        table(
          r.branches.map((a) => [a.name, a.status, a.repository, a.agent_id, a.task_id, a.created_at]),
          ['NAME', 'STATUS', 'REPOSITORY', 'AGENT', 'TASK', 'SINCE'],
        ) || 'no branch allocations',
    },
    mcp: { tool: 'hub_branch_list', when: 'Use when asking who holds which branch.' },
    http: [{ method: 'GET', route: '/v3/ops/branches', input: 'query' }],
  }),
  { key: 'branches', noun: 'Allocations', order: 'by repository, then in allocation order' },
);

export const branchCleanup = defineOp({
  id: 'branch.cleanup',
  summary: 'Delete git branches of released allocations unless allocated again, leased or checked out.',
  description:
    'Only names hub allocated and released. `git branch -d` keeps a branch whose commits are not merged (the ' +
    'reason says so) unless --force. --dry-run only reports.',
  input: z.strictObject({
    repository: aclFields.repository,
    agent_id: cliHelp(z.string().min(1).optional(), 'Agent acting (recorded in the events).'),
    dry_run: cliHelp(z.boolean().default(false), 'Only report what would be deleted.'),
    force: z.boolean().default(false).describe('Also delete unmerged branches (git branch -D).'),
  }),
  gate: 'active',
  attributes: { readOnly: false, idempotent: true, destructive: true },
  handler: async (ctx, input): Promise<CleanupResult> => {
    const target = await resolveRepository(repoDeps(ctx), input.repository);
    if (input.agent_id !== undefined) checkAgentId(input.agent_id);
    const root = target.root;
    if (!root)
      throw new NotFoundError(
        `repository: ${target.id} is not checked out here; cleanup deletes branches in the checkout`,
        {
          field: 'repository',
          value: input.repository,
          rule: 'checked_out',
        },
      );
    return cleanupBranches(
      aclDeps(ctx),
      { ...target, root },
      {
        dryRun: input.dry_run,
        force: input.force,
        by: input.agent_id,
      },
    );
  },
  cli: {
    command: 'branch cleanup',
    human: (r) =>
      [
        ...r.deleted.map(
          (d) => `${r.dry_run ? 'would delete' : 'deleted'} ${d.name} (was ${d.head.slice(0, 12)})`,
        ),
        ...r.skipped.map((s) => `kept ${s.name}: ${s.reason}`),
      ].join('\n') || 'nothing to clean up',
  },
  mcp: { tool: 'hub_branch_cleanup', when: 'Use when released branches should go.' },
  http: [{ method: 'POST', route: '/v3/ops/branches/cleanup', input: 'body' }],
});
