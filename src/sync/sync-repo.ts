import { mkdirSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { runGit } from '../infra/index.js';
import { redactUrlSecrets } from '../model/index.js';
import { batchGit } from './batch-git.js';
import { checkGitUrl, TRANSPORT_CONFIG, TRANSPORT_ENV } from './git-url.js';

/** What a sync did to one repository, or (dry run) would do. */
export type SyncAction =
  | 'cloned'
  | 'updated'
  | 'unchanged'
  | 'skipped'
  | 'failed'
  | 'would_clone'
  | 'would_fetch';

/** Why a repository was skipped or failed (stable, for scripts). */
export type SyncReason =
  | 'dirty'
  | 'outside_workspace'
  | 'not_a_git_repo'
  | 'detached_head'
  | 'no_upstream'
  | 'no_locator'
  | 'same_checkout'
  | 'git_url_transport'
  | 'destination_not_empty'
  | 'clone_failed'
  | 'fetch_failed'
  | 'not_fast_forward'
  | 'status_failed';

export interface SyncRow {
  id: string;
  project: string;
  repo: string;
  path: string;
  action: SyncAction;
  /** Head before and after a fast-forward (abbreviated as git prints them). */
  from?: string;
  to?: string;
  reason?: SyncReason;
  /** Git's first line of error, or what hub saw (secrets never reach it: hub never puts a token in a URL). */
  message?: string;
  /** Changed or untracked paths of a dirty checkout. */
  changes?: number;
}

/** One repository to sync: where its checkout is (or goes), and its clone URL when it has one. */
export interface SyncTarget {
  id: string;
  project: string;
  repo: string;
  /** Real checkout directory when present; else where a clone goes (inside the workspace: checked by the caller). */
  dir: string;
  present: boolean;
  url?: string;
}

export interface SyncRepoOptions {
  dryRun: boolean;
  /** Milliseconds one clone or fetch may take. */
  timeoutMs: number;
}

/** What `git status --porcelain=v2 --branch` said about a checkout (or its failure). */
export interface Status {
  /** Exit code and stderr when status failed. */
  failed?: { stderr: string };
  head: string | null;
  branch: string | null;
  upstream: string | null;
  changes: number;
}

export function parseStatus(stdout: string): Status {
  const s: Status = { head: null, branch: null, upstream: null, changes: 0 };
  for (const line of stdout.split('\n')) {
    if (line.startsWith('# branch.oid ')) s.head = line.slice(13) === '(initial)' ? null : line.slice(13);
    else if (line.startsWith('# branch.head '))
      s.branch = line.slice(14) === '(detached)' ? null : line.slice(14);
    else if (line.startsWith('# branch.upstream ')) s.upstream = line.slice(18);
    else if (line !== '' && !line.startsWith('#')) s.changes++;
  }
  return s;
}

const firstLine = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('hint:')) ?? '';

const row = (t: SyncTarget, action: SyncAction, extra: Partial<SyncRow> = {}): SyncRow => ({
  id: t.id,
  project: t.project,
  repo: t.repo,
  path: t.dir,
  action,
  ...extra,
  // git masks credentials in the URLs it prints; this also covers what it does not (and hub's own messages).
  ...(extra.message !== undefined ? { message: redactUrlSecrets(extra.message) } : {}),
});

function isEmptyDir(dir: string): boolean {
  try {
    return readdirSync(dir).length === 0;
  } catch {
    return true;
  }
}

async function clone(t: SyncTarget, opts: SyncRepoOptions): Promise<SyncRow> {
  if (!t.url)
    return row(t, 'skipped', { reason: 'no_locator', message: 'not checked out and no url to clone' });
  try {
    checkGitUrl(t.url, `${t.id}.url`);
  } catch (err) {
    return row(t, 'failed', { reason: 'git_url_transport', message: (err as Error).message });
  }
  if (!isEmptyDir(t.dir))
    return row(t, 'failed', {
      reason: 'destination_not_empty',
      message: `${t.dir} exists and is not an empty folder`,
    });
  if (opts.dryRun) return row(t, 'would_clone');
  mkdirSync(dirname(t.dir), { recursive: true });
  const r = await runGit([...TRANSPORT_CONFIG, 'clone', '--quiet', '--', t.url, t.dir], {
    cwd: dirname(t.dir),
    timeoutMs: opts.timeoutMs,
    extraEnv: TRANSPORT_ENV,
  });
  if (r.code !== 0) return row(t, 'failed', { reason: 'clone_failed', message: firstLine(r.stderr) });
  return row(t, 'cloned');
}

/** The remote an upstream such as `origin/main` comes from (remote names rarely hold a '/'). */
export const remoteOf = (upstream: string) => upstream.split('/')[0]!;
const REMOTE_NAME = /^[A-Za-z0-9._-]+$/;

/**
 * `-c remote.<name>.uploadpack=git-upload-pack` for each remote: a repository's own config may name the command
 * a local or ssh fetch starts, and the command line wins over it.
 */
export function uploadPackConfig(remotes: Iterable<string>): string[] {
  return [...new Set(remotes)]
    .filter((r) => REMOTE_NAME.test(r))
    .flatMap((r) => ['-c', `remote.${r}.uploadpack=git-upload-pack`]);
}

export const STATUS_ARGS = ['status', '--porcelain=v2', '--branch'];

/** The status of one checkout (syncRepos asks for many at once, in batches). */
export async function statusOf(dir: string): Promise<Status> {
  const st = await runGit(STATUS_ARGS, { cwd: dir });
  return st.code === 0
    ? parseStatus(st.stdout)
    : { failed: { stderr: st.stderr }, head: null, branch: null, upstream: null, changes: 0 };
}

/**
 * The row of a checkout its status already decides (failed status, dirty, detached, no upstream, a dry run),
 * or undefined when it is to be fetched and fast-forwarded.
 */
export function judgeStatus(t: SyncTarget, s: Status, dryRun: boolean): SyncRow | undefined {
  if (s.failed) {
    const message = firstLine(s.failed.stderr);
    const notRepo = /not a git repository/i.test(message);
    return row(t, notRepo ? 'skipped' : 'failed', {
      reason: notRepo ? 'not_a_git_repo' : 'status_failed',
      message,
    });
  }
  if (s.changes > 0)
    return row(t, 'skipped', {
      reason: 'dirty',
      changes: s.changes,
      message: `${s.changes} changed or untracked path(s); commit or stash them, then sync again`,
    });
  if (!s.branch) return row(t, 'skipped', { reason: 'detached_head', message: 'HEAD is detached' });
  if (!s.upstream)
    return row(t, 'skipped', {
      reason: 'no_upstream',
      message: `branch ${s.branch} tracks no upstream branch`,
    });
  if (dryRun) return row(t, 'would_fetch', { from: s.head ?? undefined });
  return undefined;
}

const short = (oid: string | null | undefined) => (oid ? oid.slice(0, 12) : undefined);

/**
 * Fetches and fast-forwards clean checkouts on a branch with an upstream: `git fetch`, then
 * `git merge --ff-only @{upstream}`, then the new head, each step run in all of them through batchGit. A
 * checkout is updated when its head moved; a fetch or merge that failed is reported with git's reason.
 */
export async function fastForwardMany(
  targets: readonly SyncTarget[],
  statuses: readonly Status[],
  opts: SyncRepoOptions,
): Promise<SyncRow[]> {
  const dirs = targets.map((t) => t.dir);
  const batch = { parallel: 1, size: Math.max(1, targets.length), extraEnv: TRANSPORT_ENV };
  const fetched = await batchGit(dirs, ['fetch', '--quiet', '--no-recurse-submodules'], {
    ...batch,
    config: [...TRANSPORT_CONFIG, ...uploadPackConfig(statuses.map((s) => remoteOf(s.upstream!)))],
    timeoutMs: opts.timeoutMs,
  });
  const ok = targets.flatMap((_, i) => (fetched[i]!.code === 0 ? [i] : []));
  const merged = await batchGit(
    ok.map((i) => dirs[i]!),
    ['merge', '--ff-only', '--no-stat', '--quiet', '@{upstream}'],
    { ...batch, config: TRANSPORT_CONFIG },
  );
  const heads = await batchGit(
    ok.map((i) => dirs[i]!),
    ['rev-parse', 'HEAD'],
    { ...batch, split: (out) => out.split('\n').filter(Boolean) },
  );
  const after = new Map(ok.map((i, k) => [i, { merge: merged[k]!, head: heads[k]! }]));
  return targets.map((t, i) => {
    const f = fetched[i]!;
    if (f.code !== 0) return row(t, 'failed', { reason: 'fetch_failed', message: firstLine(f.stderr) });
    const a = after.get(i)!;
    const before = statuses[i]!.head;
    const now = a.head.code === 0 ? a.head.stdout.trim() : null;
    if (a.merge.code !== 0)
      return row(t, 'failed', {
        reason: 'not_fast_forward',
        message: firstLine(a.merge.stderr) || firstLine(a.merge.stdout) || 'not possible to fast-forward',
      });
    if (now && now !== before) return row(t, 'updated', { from: short(before), to: short(now) });
    return row(t, 'unchanged');
  });
}

/**
 * Clones a missing repository or fast-forwards a clean checkout; never throws, never touches a dirty one.
 * `status` is the checkout's status when the caller already has it.
 */
export async function syncRepo(t: SyncTarget, opts: SyncRepoOptions, status?: Status): Promise<SyncRow> {
  if (!t.present) return clone(t, opts);
  const s = status ?? (await statusOf(t.dir));
  return judgeStatus(t, s, opts.dryRun) ?? (await fastForwardMany([t], [s], opts))[0]!;
}
