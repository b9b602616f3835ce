import { runCommand } from './commands.js';
import { abortMerge, mergeIn } from './git.js';
import type { CommandRun, Regenerated, Validation } from './records.js';
import { regenerateConflict, regenerateRulesFor } from './regenerate.js';
import type { MergeSettings } from './settings.js';

/** What one merge in a temporary worktree came to, validators included. */
export type MergeStep =
  | { kind: 'merged' | 'up_to_date'; sha: string; validation: Validation; regenerated?: Regenerated }
  | { kind: 'conflict'; files: string[]; message: string; regenerated?: Regenerated }
  | { kind: 'validation_failed'; sha: string; validation: Validation; regenerated?: Regenerated }
  | { kind: 'error'; message: string };

export interface StepDeps {
  settings: MergeSettings;
  /** The environment commands run with (the user's, plus HUB_MERGE_* for validators). */
  env: Readonly<Record<string, string | undefined>>;
  identity: readonly string[];
}

/** Runs the validators in order in the worktree; the first failure stops the rest. */
export async function runValidators(
  wt: string,
  deps: Pick<StepDeps, 'settings' | 'env'>,
): Promise<Validation> {
  const commands: CommandRun[] = [];
  for (const v of deps.settings.validators) {
    const run = await runCommand(v.argv, { cwd: wt, env: deps.env, timeoutMs: v.timeoutMs, name: v.name });
    commands.push(run);
    if (run.exit_code !== 0) return { ok: false, commands };
  }
  return { ok: true, commands };
}

/**
 * Merges `sha` into the temporary worktree's HEAD: a clean merge, or a conflict every path of which a regenerate
 * rule rebuilds, is then validated; any other conflict is aborted (the worktree is back at its HEAD) and reported
 * with its files. An up-to-date merge is validated too: the validators judge the tree that would land.
 */
export async function mergeStep(
  wt: string,
  sha: string,
  message: string,
  deps: StepDeps,
  /** The worktree's HEAD when the caller knows it (saves a git call per branch in a rollup). */
  current?: string,
): Promise<MergeStep> {
  const attempt = await mergeIn(wt, sha, message, deps.identity, current);
  if (attempt.kind === 'error') return attempt;
  let head: string;
  let regenerated: Regenerated | undefined;
  if (attempt.kind === 'conflict') {
    const rules = regenerateRulesFor(attempt.files, deps.settings.regenerate);
    if (!rules) {
      await abortMerge(wt);
      const n = attempt.files.length;
      return {
        kind: 'conflict',
        files: attempt.files,
        message: `${n} file${n === 1 ? '' : 's'} conflict${n === 1 ? 's' : ''}${deps.settings.regenerate.length > 0 ? ' (not every one matches a merge.regenerate rule)' : ''}`,
      };
    }
    const r = await regenerateConflict(wt, attempt.files, rules, deps.env, deps.identity);
    if (!r.ok) {
      await abortMerge(wt);
      return { kind: 'conflict', files: attempt.files, message: r.message, regenerated: r.regenerated };
    }
    head = r.sha;
    regenerated = r.regenerated;
  } else head = attempt.sha;
  const validation = await runValidators(wt, deps);
  const extra = regenerated ? { regenerated } : {};
  if (!validation.ok) return { kind: 'validation_failed', sha: head, validation, ...extra };
  return {
    kind: attempt.kind === 'up_to_date' ? 'up_to_date' : 'merged',
    sha: head,
    validation,
    ...extra,
  };
}
