import quoteShell from 'shell-quote/quote.js';
import { checkedOutAt } from './git.js';
import type { MergeRequest } from './records.js';

/**
 * Why a queued request cannot be integrated on this machine now, and the commands that free it: its target branch
 * is checked out in a worktree of the repository (the main checkout included), and integrate never moves a
 * checked-out branch. The request itself is fine; the checkout is in the way.
 */
export interface MergeBlock {
  merge_id: string;
  repository: string;
  source_branch: string;
  target_branch: string;
  reason: 'target_checked_out';
  message: string;
  /** The checkouts holding the target branch. */
  worktrees: string[];
  /** Frees it: detaches each checkout holding the target (its files stay as they are). */
  command: string;
  /** Withdraws the request instead. */
  cancel_command: string;
}

const sh = (argv: string[]) => argv.map((a) => quoteShell([a])).join(' ');

/** What keeps `m` (queued) from being integrated in the checkout at `root`, or undefined when nothing does. */
export async function blockOf(
  root: string,
  m: Pick<MergeRequest, 'merge_id' | 'repository' | 'source_branch' | 'target_branch'>,
): Promise<MergeBlock | undefined> {
  const worktrees = await checkedOutAt(root, m.target_branch);
  if (worktrees.length === 0) return undefined;
  const command = worktrees.map((w) => sh(['git', '-C', w, 'switch', '--detach'])).join(' && ');
  const cancel_command = sh(['hub', 'merge', 'cancel', '--merge-id', m.merge_id]);
  return {
    merge_id: m.merge_id,
    repository: m.repository,
    source_branch: m.source_branch,
    target_branch: m.target_branch,
    reason: 'target_checked_out',
    message: `its target '${m.target_branch}' is checked out in ${worktrees.join(', ')}, and integrate never moves a checked-out branch: free it (${command}), or withdraw the request (${cancel_command})`,
    worktrees,
    command,
    cancel_command,
  };
}
