import { hostname, tmpdir } from 'node:os';
import * as z from 'zod';
import { repoKey, resolveRepository } from '../acl/index.js';
import { NotFoundError, ValidationError } from '../infra/index.js';
import {
  findMerge,
  type MergeDeps,
  type MergeRequest,
  type MergeTarget,
  mergeSettings,
  transitionMerge,
} from '../merge/index.js';
import { repoDeps } from './acl-deps.js';
import { applyWhereStored } from './apply-where-stored.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { coordDeps } from './coord-deps.js';
import type { HttpBinding } from './registry.js';

/** The state server's route for one request state change (claim, finish, requeue, promoted). */
export const TRANSITION_ROUTE: HttpBinding = {
  method: 'POST',
  route: '/v3/ops/merges/transition',
  input: 'body',
};

/**
 * The merge ports of a context: the store, `merge.*` of the config read once, the OS temp folder for temporary
 * worktrees, and state changes applied where the queue is kept (a hub server's route on the http backend, so
 * two machines' integrators racing for one request queue there instead of failing a compare-and-swap).
 */
export function mergeDeps(ctx: OpContext): MergeDeps {
  const c = ctx.appConfig().config;
  return {
    ...coordDeps(ctx),
    env: ctx.env,
    tmpRoot: tmpdir(),
    settings: mergeSettings(c.merge),
    branchPrefix: c.coordination.allowed_branch_prefixes[0] ?? 'agent/',
    integrator: `${hostname()}:${process.pid}`,
    integratorGone: (integrator) => integratorGone(integrator, hostname()),
    transition: (target, t) =>
      applyWhereStored(ctx, TRANSITION_ROUTE, { repository: target.id, ...t }, (deps) =>
        transitionMerge(deps, target, t),
      ),
  };
}

/**
 * True when `integrator` (`host:pid`) is a process of this machine that no longer exists. Another machine's
 * integrator cannot be judged from here, so it is never called gone.
 */
export function integratorGone(integrator: string, host: string): boolean {
  const at = integrator.lastIndexOf(':');
  const pid = Number(integrator.slice(at + 1));
  if (at < 0 || integrator.slice(0, at) !== host || !Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The repository a request names: resolved like every `--repository` (never a path the caller gives). */
export async function mergeTarget(ctx: OpContext, repository: string): Promise<MergeTarget> {
  const t = await resolveRepository(repoDeps(ctx), repository);
  return { id: t.id, key: t.key, root: t.root };
}

/**
 * The repository of `merge_id`: the given `--repository`, else the one whose queue holds the request (looked up
 * over every repository's queue).
 */
export async function targetOfMerge(
  ctx: OpContext,
  mergeId: string,
  repository: string | undefined,
): Promise<{ target: MergeTarget; merge?: MergeRequest }> {
  if (repository !== undefined) return { target: await mergeTarget(ctx, repository) };
  const found = await findMerge(coordDeps(ctx), mergeId);
  if (!found)
    throw new NotFoundError(
      `merge_id: '${mergeId}' is not a merge request of any repository (merge status lists them)`,
      { field: 'merge_id', value: mergeId, rule: 'an existing merge request' },
    );
  return { target: await mergeTarget(ctx, found.merge.repository), merge: found.merge };
}

const REPO_ID_RE = /^(?:self|[^/~\s]+\/[^/~\s]+)$/;

/** A repository id sent to the transition route: checked, never resolved to a path (the route writes state only). */
export function transitionTarget(repository: string): { id: string; key: string } {
  if (!REPO_ID_RE.test(repository))
    throw new ValidationError(`repository: '${repository.slice(0, 200)}' is not a repository id`, {
      field: 'repository',
      value: repository.slice(0, 200),
      rule: 'project/repo or self',
    });
  return { id: repository, key: repoKey(repository) };
}

/** Shared input fields, so help text and MCP schemas say the same everywhere. */
export const mergeFields = {
  merge_id: cliHelp(z.string().min(1), 'Merge request id (merge status lists them).'),
  into: z.string().min(1).describe('Target branch.'),
};
