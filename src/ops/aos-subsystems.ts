import { hostname } from 'node:os';
import { resolveRepository } from '../acl/index.js';
import {
  type AosSubsystem,
  aclSubsystem,
  mergeSubsystem,
  type Recoverer,
  runsRecoverer,
  runsSubsystem,
  schedulerSubsystem,
  semanticSubsystem,
  taskgraphSubsystem,
  tasksRecoverer,
} from '../aos/index.js';
import { blockOf, type MergeRequest } from '../merge/index.js';
import { repoDeps } from './acl-deps.js';
import type { OpContext } from './context.js';
import { integratorGone } from './merge-deps.js';
import { worktreeDeps } from './worktree-deps.js';

/**
 * Why a queued request cannot be integrated on this machine: its target checked out in the repository's checkout
 * here. A repository not checked out here (or not resolvable) has nothing in the way on this machine. Roots are
 * resolved once per repository per doctor run.
 */
function blockHere(ctx: OpContext) {
  const roots = new Map<string, Promise<string | undefined>>();
  return async (m: MergeRequest) => {
    let root = roots.get(m.repository);
    if (!root) {
      root = resolveRepository(repoDeps(ctx), m.repository).then(
        (t) => t.root,
        () => undefined,
      );
      roots.set(m.repository, root);
    }
    const at = await root;
    return at ? blockOf(at, m) : undefined;
  };
}

/**
 * The subsystems `aos status` and `aos doctor` look at, in the order they are shown. A room joins by adding its
 * subsystem here (its summary and its findings); nothing else in `aos` changes.
 */
export function aosSubsystems(ctx: OpContext): AosSubsystem[] {
  const deps = worktreeDeps(ctx);
  return [
    aclSubsystem(deps),
    semanticSubsystem(deps),
    taskgraphSubsystem(deps),
    schedulerSubsystem(deps),
    mergeSubsystem(deps, {
      blockOf: blockHere(ctx),
      integratorGone: (integrator) => integratorGone(integrator, hostname()),
    }),
    runsSubsystem(deps),
  ];
}

/** What `aos recover` asks the other rooms to give back for a dead agent (tasks, runs), by room. */
export function aosRecoverers(ctx: OpContext): Recoverer[] {
  const deps = worktreeDeps(ctx);
  return [tasksRecoverer(deps), runsRecoverer(deps)];
}
