import quoteShell from 'shell-quote/quote.js';
import { CLAIM_LIMITS } from '../acl/index.js';
import type { MergeConflict } from './records.js';

/** Shown where the agent taking the conflict puts its own id. */
export const AGENT_PLACEHOLDER = '<agent-id>';

/** Escapes picomatch's special characters, so `claim declare --pattern` claims exactly this file. */
export function literalPattern(path: string): string {
  return path.replace(/[\\*?[\]{}()!+@|^$]/g, (c) => `\\${c}`);
}

const line = (argv: string[]) =>
  argv
    .map((a) => (a === AGENT_PLACEHOLDER ? a : quoteShell([a])))
    .join(' ')
    .trim();

export interface ConflictTask {
  repository: string;
  merge_id: string;
  source_branch: string;
  target_branch: string;
  files: string[];
  agent_id?: string;
  /** First of coordination.allowed_branch_prefixes: the resolution branch must be allocatable. */
  branchPrefix: string;
}

/**
 * The conflict as an agent takes it, with hub's real commands: allocate a resolution branch started at the
 * source, lease it, check it out in a worktree, claim the conflicted files (one declaration per 64 files, the
 * claim limit), merge the target there and resolve, then enqueue the resolution branch into the same target.
 */
export function conflictFor(t: ConflictTask, message: string): MergeConflict {
  const agent = t.agent_id ?? AGENT_PLACEHOLDER;
  const task = `resolve-${t.merge_id}`;
  const branch = `${t.branchPrefix}${task}`;
  const common = ['--repository', t.repository, '--agent-id', agent, '--task-id', task];
  const claims: string[] = [];
  for (let i = 0; i < t.files.length; i += CLAIM_LIMITS.maxPatterns) {
    const chunk = t.files.slice(i, i + CLAIM_LIMITS.maxPatterns);
    claims.push(
      line(['hub', 'claim', 'declare', ...common, ...chunk.flatMap((f) => ['--pattern', literalPattern(f)])]),
    );
  }
  return {
    files: [...t.files],
    message,
    acl_commands: [
      line(['hub', 'branch', 'allocate', ...common, '--name', branch, '--base', t.source_branch]),
      line(['hub', 'lease', 'acquire', ...common, '--branch', branch]),
      line(['hub', 'worktree', 'create', ...common, '--branch', branch]),
      ...claims,
    ],
    resolve_steps: [
      `in the new worktree: ${line(['git', 'merge', '--no-ff', t.target_branch])}`,
      `resolve ${t.files.length === 1 ? t.files[0] : `the ${t.files.length} files`}, then: git add <files> && git commit --no-edit`,
      line([
        'hub',
        'merge',
        'enqueue',
        '--repository',
        t.repository,
        '--branch',
        branch,
        '--into',
        t.target_branch,
      ]),
      line(['hub', 'merge', 'integrate', '--repository', t.repository]),
    ],
  };
}
