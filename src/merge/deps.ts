import { type CoordDeps, readDoc } from '../coord/index.js';
import { NotFoundError } from '../infra/index.js';
import { type Transition, transitionMerge } from './queue.js';
import { type MergeRequest, MergesDocSchema, mergesDocument } from './records.js';
import type { MergeSettings } from './settings.js';

/** The repository a merge works in: its id, its document key and its real checkout folder. */
export interface MergeTarget {
  id: string;
  key: string;
  root: string | undefined;
}

/** What integrate, promote and rollup need besides the store: commands, a temp folder, and the state port. */
export interface MergeDeps extends CoordDeps {
  env: Readonly<Record<string, string | undefined>>;
  /** Folder the temporary merge worktrees are made in (the OS temp folder). */
  tmpRoot: string;
  settings: MergeSettings;
  /** First of coordination.allowed_branch_prefixes: conflict commands allocate a branch with it. */
  branchPrefix: string;
  /** `<host>:<pid>`, recorded on a running request. */
  integrator: string;
  /**
   * True when the integrator named on a running request is known to be dead (a process of this machine that no
   * longer exists). Undefined or false: it may be alive, and its request is left alone.
   */
  integratorGone?: (integrator: string) => boolean;
  /**
   * Applies a state change where the queue is kept: on a hub server (http backend) by its route, here otherwise.
   * Defaults to `transitionMerge` on `store`.
   */
  transition?: (target: MergeTarget, t: Transition) => Promise<MergeRequest>;
}

export const applyTransition = (deps: MergeDeps, target: MergeTarget, t: Transition) =>
  deps.transition ? deps.transition(target, t) : transitionMerge(deps, target, t);

/** The checkout folder of the repository; a NotFoundError saying why git work needs it. */
export function checkoutOf(target: MergeTarget, op: string): string {
  if (target.root) return target.root;
  throw new NotFoundError(
    `repository: ${target.id} is not checked out here; ${op} merges in a temporary worktree of the checkout (clone it first)`,
    { field: 'repository', value: target.id, rule: 'checked_out' },
  );
}

/** One request of the repository's queue, read (not locked). */
export async function readMerge(
  deps: CoordDeps,
  target: MergeTarget,
  mergeId: string,
): Promise<MergeRequest> {
  const doc = await readDoc(deps, mergesDocument(target.key), MergesDocSchema);
  const m = doc.merges.find((x) => x.merge_id === mergeId);
  if (m) return m;
  throw new NotFoundError(`merge_id: '${mergeId}' is not a merge request of ${target.id}`, {
    field: 'merge_id',
    value: mergeId,
    rule: 'an existing merge request',
    repository: target.id,
  });
}
