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
import type { OpContext } from './context.js';
import { worktreeDeps } from './worktree-ops.js';

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
    mergeSubsystem(deps),
    runsSubsystem(deps),
  ];
}

/** What `aos recover` asks the other rooms to give back for a dead agent (tasks, runs), by room. */
export function aosRecoverers(ctx: OpContext): Recoverer[] {
  const deps = worktreeDeps(ctx);
  return [tasksRecoverer(deps), runsRecoverer(deps)];
}
