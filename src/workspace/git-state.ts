import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runGit } from '../infra/index.js';
import { runInRepos, splitBefore } from './git-batch.js';

export interface RepoGitState {
  is_git_repo: boolean;
  branch: string | null;
  head: string | null;
  dirty: boolean;
  /** Changed or untracked paths (porcelain lines). */
  changes: number;
  ahead: number | null;
  behind: number | null;
  head_commit_at: string | null;
  error?: string;
}

export interface Commit {
  sha: string;
  at: string;
  subject: string;
}

const NO_REPO: RepoGitState = {
  is_git_repo: false,
  branch: null,
  head: null,
  dirty: false,
  changes: 0,
  ahead: null,
  behind: null,
  head_commit_at: null,
};

/** Parses `git status --porcelain=v2 --branch` output of a checkout. */
export function parseStatusV2(stdout: string): RepoGitState {
  const state: RepoGitState = { ...NO_REPO, is_git_repo: true };
  for (const line of stdout.split('\n')) {
    if (line.startsWith('# branch.head '))
      state.branch = line.slice(14) === '(detached)' ? null : line.slice(14);
    else if (line.startsWith('# branch.oid '))
      state.head = line.slice(13) === '(initial)' ? null : line.slice(13);
    else if (line.startsWith('# branch.ab ')) {
      const m = /\+(\d+) -(\d+)/.exec(line);
      if (m) {
        state.ahead = Number(m[1]);
        state.behind = Number(m[2]);
      }
    } else if (line !== '' && !line.startsWith('#')) state.changes++;
  }
  state.dirty = state.changes > 0;
  return state;
}

const STATUS_ARGS = ['status', '--porcelain=v2', '--branch'];

/**
 * Branch, head, dirty state and upstream distance of one checkout, from `git status --porcelain=v2 --branch`.
 * `headTime: false` skips the second git call that reads the head commit's time (callers with a cache).
 */
export async function repoGitState(root: string, opts: { headTime?: boolean } = {}): Promise<RepoGitState> {
  if (!existsSync(join(root, '.git'))) return NO_REPO;
  const st = await runGit(STATUS_ARGS, { cwd: root });
  if (st.code !== 0) return { ...NO_REPO, is_git_repo: true, error: st.stderr.trim().split('\n')[0] };
  const state = parseStatusV2(st.stdout);
  if (state.head && opts.headTime !== false) {
    const log = await runGit(['log', '-1', '--format=%cI'], { cwd: root });
    if (log.code === 0) state.head_commit_at = log.stdout.trim() || null;
  }
  return state;
}

/**
 * repoGitState for many checkouts (without the head time), through `git for-each-repo` batches: a few
 * processes started from node instead of one per repository (see runInRepos).
 */
export async function repoGitStates(
  roots: readonly string[],
  opts: { parallel?: number; batchSize?: number } = {},
): Promise<RepoGitState[]> {
  const out: RepoGitState[] = roots.map(() => NO_REPO);
  const git = roots.flatMap((r, i) => (existsSync(join(r, '.git')) ? [i] : []));
  const results = await runInRepos(
    git.map((i) => roots[i]!),
    STATUS_ARGS,
    (stdout) => splitBefore(stdout, '# branch.oid '),
    opts,
  );
  results.forEach((r, k) => {
    out[git[k]!] =
      r.code === 0
        ? parseStatusV2(r.stdout)
        : { ...NO_REPO, is_git_repo: true, error: r.stderr.trim().split('\n')[0] };
  });
  return out;
}

export interface CommitLog {
  /** Every matching commit, even beyond the ones listed. */
  count: number;
  /** Newest first, at most the requested number. */
  commits: Commit[];
}

/**
 * Lists commits selected by `selector` (git log arguments), newest first, at most `max`, with the full count.
 * Undefined when git refuses the selector (an unknown base commit, say).
 */
async function commitLog(
  root: string,
  selector: string[],
  max: number,
  keep: (c: Commit) => boolean = () => true,
): Promise<CommitLog | undefined> {
  const r = await runGit(['log', '--format=%H%x09%cI%x09%s', '--no-merges', `-n${max}`, ...selector], {
    cwd: root,
  });
  if (r.code !== 0) return undefined;
  const commits = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [sha, at, ...rest] = l.split('\t');
      return { sha: sha!, at: at!, subject: rest.join('\t') };
    })
    .filter(keep);
  let count = commits.length;
  if (commits.length === max) {
    const n = await runGit(
      [
        'rev-list',
        '--count',
        '--no-merges',
        ...selector,
        ...(selector.some((a) => a.includes('..')) ? [] : ['HEAD']),
      ],
      { cwd: root },
    );
    if (n.code === 0) count = Number(n.stdout.trim()) || count;
  }
  return { count, commits };
}

/** Commits on HEAD newer than `since` (ISO), newest first, at most `max`. */
export async function commitsSince(root: string, since: string | undefined, max = 20): Promise<CommitLog> {
  // git's --since has one-second granularity; keep only commits strictly after the boundary.
  const after = since ? Date.parse(since) : undefined;
  const log = await commitLog(
    root,
    since ? [`--since=${since}`] : [],
    max,
    (c) => after === undefined || Date.parse(c.at) > after,
  );
  return log ?? { count: 0, commits: [] };
}

/** Commits reachable from HEAD but not from `base` (exact, unlike --since); undefined when `base` is unknown here. */
export function commitsAfter(root: string, base: string, max = 20): Promise<CommitLog | undefined> {
  return commitLog(root, [`${base}..HEAD`], max);
}
