import { globMatches } from '../acl/index.js';
import { runCommand } from './commands.js';
import { git, gitWords, headSha, unmergedPaths } from './git.js';
import type { CommandRun, Regenerated } from './records.js';
import type { RegenerateRule } from './settings.js';

/**
 * The rules that rebuild a conflict, in config order, each once: only when EVERY conflicted path matches some
 * rule (a hand-written file among them means a person or an agent must resolve it); undefined otherwise.
 */
export function regenerateRulesFor(
  files: readonly string[],
  rules: readonly RegenerateRule[],
): RegenerateRule[] | undefined {
  if (files.length === 0 || rules.length === 0) return undefined;
  const used = new Set<RegenerateRule>();
  for (const file of files) {
    const rule = rules.find((r) => r.patterns.some((p) => globMatches(p, file)));
    if (!rule) return undefined;
    used.add(rule);
  }
  return rules.filter((r) => used.has(r));
}

export type RegenerateOutcome =
  | { ok: true; sha: string; regenerated: Regenerated }
  | { ok: false; message: string; regenerated: Regenerated };

/**
 * Resolves a conflict whose every path a regenerate rule covers, in the temporary worktree: each conflicted file
 * is first taken from `ours` (the target, which already landed and was validated: the commands then add what the
 * source brings, as `npm install` does to the target's lock file), each matching rule's command runs once, the
 * files are staged as the commands left them (a file they removed is removed) and the merge is committed.
 */
export async function regenerateConflict(
  wt: string,
  files: readonly string[],
  rules: readonly RegenerateRule[],
  env: Readonly<Record<string, string | undefined>>,
  identity: readonly string[],
): Promise<RegenerateOutcome> {
  const commands: CommandRun[] = [];
  const regenerated = (): Regenerated => ({ files: [...files], side: 'ours', commands });
  for (const file of files) {
    const taken = await git(wt, ['checkout', '--ours', '--', file]);
    // Deleted on the target's side: ours is no file at all.
    if (taken.code !== 0) await git(wt, ['rm', '--quiet', '--force', '--ignore-unmatch', '--', file]);
  }
  for (const rule of rules) {
    const run = await runCommand(rule.argv, { cwd: wt, env, timeoutMs: rule.timeoutMs, name: rule.name });
    commands.push(run);
    if (run.exit_code !== 0)
      return {
        ok: false,
        message: `regenerate command '${rule.name}' ${run.timed_out ? `timed out after ${rule.timeoutMs} ms` : `exited ${run.exit_code ?? run.signal}`}`,
        regenerated: regenerated(),
      };
  }
  const added = await git(wt, ['add', '--all', '--', ...files]);
  if (added.code !== 0)
    return {
      ok: false,
      message: `staging regenerated files: ${gitWords(added)}`,
      regenerated: regenerated(),
    };
  const left = await unmergedPaths(wt);
  if (left.length > 0)
    return {
      ok: false,
      message: `still unmerged after regenerating: ${left.join(', ')}`,
      regenerated: regenerated(),
    };
  const committed = await git(wt, ['commit', '--no-edit', '--quiet'], identity);
  if (committed.code !== 0)
    return { ok: false, message: `committing the merge: ${gitWords(committed)}`, regenerated: regenerated() };
  return { ok: true, sha: await headSha(wt), regenerated: regenerated() };
}
