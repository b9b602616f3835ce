import { runGit } from '../infra/index.js';

/** Why a worktree is kept by `worktree gc` and `worktree destroy` without `--force`. */
export type BlockerReason = 'uncommitted_changes' | 'untracked_files' | 'unpushed_commits' | 'check_failed';

export interface Blocker {
  reason: BlockerReason;
  /** How many files or commits. */
  count?: number;
  /** The first few paths (repo-relative). */
  paths?: string[];
  /** The first few commits that would be lost (newest first): on no other branch, tag or remote-tracking ref. */
  commits?: LostCommit[];
  message?: string;
}

export interface LostCommit {
  sha: string;
  subject: string;
}

const SHOWN = 10;
const COMMITS_SHOWN = 5;

/**
 * What would be lost by removing the worktree at `path` (on branch `branch`, or detached when null):
 * - uncommitted changes: staged or unstaged changes to tracked files;
 * - untracked files that git does not ignore (the paths the post_create hooks made, `hooked`, excepted: a symlink
 *   to an ignored folder is untracked when its pattern ends in `/`);
 * - unpushed commits: commits of HEAD reachable from no other branch, tag or remote-tracking ref (the worktree's own
 *   branch left out). A commit another ref holds is not lost, whether it was pushed or merged locally (as `merge
 *   integrate` does); the first few are named with their subjects.
 * A check that cannot run is itself a blocker (`check_failed`): doubt keeps the checkout.
 */
export async function blockersOf(
  path: string,
  branch: string | null,
  hooked: readonly string[],
  /** `checkout` when the whole repository goes (prune): its own branches and tags go with it, only remote refs stay. */
  removes: 'worktree' | 'checkout' = 'worktree',
): Promise<Blocker[]> {
  const [status, unpushed] = await Promise.all([
    statusBlockers(path, hooked),
    unpushedBlocker(path, branch, removes),
  ]);
  return [...status, ...unpushed];
}

async function statusBlockers(path: string, hooked: readonly string[]): Promise<Blocker[]> {
  const r = await runGit(
    ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=none'],
    { cwd: path },
  );
  if (r.code !== 0)
    return [{ reason: 'check_failed', message: `git status: ${r.stderr.trim().split('\n')[0]}` }];
  const changed: string[] = [];
  const untracked: string[] = [];
  const parts = r.stdout.split('\0');
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i]!;
    if (entry.length < 4) continue;
    const code = entry.slice(0, 2);
    const file = entry.slice(3);
    // A rename or copy carries its source as the next NUL-separated field.
    if (code[0] === 'R' || code[0] === 'C') i++;
    if (code === '??') {
      if (!isHooked(file, hooked)) untracked.push(file);
    } else if (code !== '!!') changed.push(file);
  }
  const out: Blocker[] = [];
  if (changed.length)
    out.push({ reason: 'uncommitted_changes', count: changed.length, paths: changed.slice(0, SHOWN) });
  if (untracked.length)
    out.push({ reason: 'untracked_files', count: untracked.length, paths: untracked.slice(0, SHOWN) });
  return out;
}

function isHooked(file: string, hooked: readonly string[]): boolean {
  const f = file.replace(/\/+$/, '');
  return hooked.some((h) => f === h || f.startsWith(`${h}/`));
}

async function unpushedBlocker(
  path: string,
  branch: string | null,
  removes: 'worktree' | 'checkout',
): Promise<Blocker[]> {
  // `--exclude` applies to the `--branches` right after it: every other branch, every tag, every remote ref. A
  // removed checkout takes its branches and tags with it, so there only remote refs keep a commit; a checkout with
  // no remote at all is judged by its branches, as prune always has (docs/workspace.md: prune).
  const others =
    removes === 'checkout'
      ? (await hasRemoteRefs(path))
        ? ['--remotes']
        : ['--branches']
      : [...(branch ? [`--exclude=${branch}`] : []), '--branches', '--tags', '--remotes'];
  const r = await runGit(['rev-list', '--count', 'HEAD', '--not', ...others], { cwd: path });
  if (r.code !== 0) {
    // An unborn HEAD has no commits to lose.
    const unborn = await runGit(['rev-parse', '-q', '--verify', 'HEAD'], { cwd: path });
    if (unborn.code !== 0 && unborn.stdout.trim() === '') return [];
    return [{ reason: 'check_failed', message: `git rev-list: ${r.stderr.trim().split('\n')[0]}` }];
  }
  const count = Number.parseInt(r.stdout.trim(), 10);
  if (!(count > 0)) return [];
  const log = await runGit(
    ['log', `--max-count=${COMMITS_SHOWN}`, '--format=%H%x00%s', 'HEAD', '--not', ...others],
    { cwd: path },
  );
  const commits = log.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha = '', subject = ''] = line.split('\0');
      // A subject is printed in messages: control characters (terminal escapes) are shown as '?'.
      return { sha, subject: subject.replace(/\p{Cc}/gu, '?').slice(0, 200) };
    });
  return [{ reason: 'unpushed_commits', count, commits }];
}

async function hasRemoteRefs(path: string): Promise<boolean> {
  const r = await runGit(['for-each-ref', '--count=1', '--format=%(refname)', 'refs/remotes'], { cwd: path });
  return r.code === 0 && r.stdout.trim() !== '';
}

/** One line per blocker, for messages: `uncommitted changes (2: a.txt, b.txt)`. */
export function describeBlockers(blockers: readonly Blocker[]): string {
  return blockers
    .map((b) => {
      const what = b.reason.replace(/_/g, ' ');
      if (b.reason === 'unpushed_commits') {
        const named = (b.commits ?? []).map((c) => `${c.sha.slice(0, 12)} ${c.subject}`);
        const more = (b.count ?? 0) > named.length ? ', ...' : '';
        return `${b.count} commit(s) on no other branch, tag or remote ref would be lost (${named.join(', ')}${more}); push or merge them first`;
      }
      if (b.paths)
        return `${what} (${b.count}: ${b.paths.join(', ')}${(b.count ?? 0) > b.paths.length ? ', ...' : ''})`;
      return `${what}${b.message ? ` (${b.message})` : ''}`;
    })
    .join('; ');
}
