import { runGit } from '../infra/index.js';

/** Why a worktree is kept by `worktree gc` and `worktree destroy` without `--force`. */
export type BlockerReason = 'uncommitted_changes' | 'untracked_files' | 'unpushed_commits' | 'check_failed';

export interface Blocker {
  reason: BlockerReason;
  /** How many files or commits. */
  count?: number;
  /** The first few paths (repo-relative). */
  paths?: string[];
  /** What unpushed was measured against: remote-tracking branches, or other local branches when there is no remote. */
  against?: 'remotes' | 'local_branches';
  message?: string;
}

const SHOWN = 10;

/**
 * What would be lost by removing the worktree at `path` (on branch `branch`, or detached when null):
 * - uncommitted changes: staged or unstaged changes to tracked files;
 * - untracked files that git does not ignore (the paths the post_create hooks made, `hooked`, excepted: a symlink
 *   to an ignored folder is untracked when its pattern ends in `/`);
 * - unpushed commits: commits of HEAD on no remote-tracking branch; in a repository without any remote-tracking
 *   ref, commits of HEAD on no other local branch (there is nowhere to push, so "kept elsewhere" means merged).
 * A check that cannot run is itself a blocker (`check_failed`): doubt keeps the checkout.
 */
export async function blockersOf(
  path: string,
  branch: string | null,
  hooked: readonly string[],
): Promise<Blocker[]> {
  const [status, unpushed] = await Promise.all([statusBlockers(path, hooked), unpushedBlocker(path, branch)]);
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

async function unpushedBlocker(path: string, branch: string | null): Promise<Blocker[]> {
  const refs = await runGit(['for-each-ref', '--count=1', '--format=%(refname)', 'refs/remotes'], {
    cwd: path,
  });
  if (refs.code !== 0) return [{ reason: 'check_failed', message: 'git for-each-ref failed' }];
  const hasRemotes = refs.stdout.trim() !== '';
  const against = hasRemotes ? ['--remotes'] : [...(branch ? [`--exclude=${branch}`] : []), '--branches'];
  const r = await runGit(['rev-list', '--count', 'HEAD', '--not', ...against], { cwd: path });
  if (r.code !== 0) {
    // An unborn HEAD has no commits to lose.
    const unborn = await runGit(['rev-parse', '-q', '--verify', 'HEAD'], { cwd: path });
    if (unborn.code !== 0 && unborn.stdout.trim() === '') return [];
    return [{ reason: 'check_failed', message: `git rev-list: ${r.stderr.trim().split('\n')[0]}` }];
  }
  const count = Number.parseInt(r.stdout.trim(), 10);
  if (!(count > 0)) return [];
  return [{ reason: 'unpushed_commits', count, against: hasRemotes ? 'remotes' : 'local_branches' }];
}

/** One line per blocker, for messages: `uncommitted changes (2: a.txt, b.txt)`. */
export function describeBlockers(blockers: readonly Blocker[]): string {
  return blockers
    .map((b) => {
      const what = b.reason.replace(/_/g, ' ');
      if (b.reason === 'unpushed_commits')
        return `${b.count} unpushed commit(s) (on no ${b.against === 'remotes' ? 'remote-tracking branch' : 'other local branch: the repository has no remote'})`;
      if (b.paths)
        return `${what} (${b.count}: ${b.paths.join(', ')}${(b.count ?? 0) > b.paths.length ? ', ...' : ''})`;
      return `${what}${b.message ? ` (${b.message})` : ''}`;
    })
    .join('; ');
}
