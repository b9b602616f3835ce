import { mkdirSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { runGit } from '../infra/index.js';
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

interface Status {
  head: string | null;
  branch: string | null;
  upstream: string | null;
  changes: number;
}

function parseStatus(stdout: string): Status {
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
const remoteOf = (upstream: string) => upstream.split('/')[0]!;
const REMOTE_NAME = /^[A-Za-z0-9._-]+$/;

async function fastForward(t: SyncTarget, opts: SyncRepoOptions): Promise<SyncRow> {
  const st = await runGit(['status', '--porcelain=v2', '--branch'], { cwd: t.dir });
  if (st.code !== 0) {
    const message = firstLine(st.stderr);
    const notRepo = /not a git repository/i.test(message);
    return row(t, notRepo ? 'skipped' : 'failed', {
      reason: notRepo ? 'not_a_git_repo' : 'status_failed',
      message,
    });
  }
  const s = parseStatus(st.stdout);
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
  if (opts.dryRun) return row(t, 'would_fetch', { from: s.head ?? undefined });
  const remote = remoteOf(s.upstream);
  // A repository's own config may name the command a local or ssh fetch starts; the command line wins.
  const pack = REMOTE_NAME.test(remote) ? ['-c', `remote.${remote}.uploadpack=git-upload-pack`] : [];
  const fetch = await runGit([...TRANSPORT_CONFIG, ...pack, 'fetch', '--quiet', '--no-recurse-submodules'], {
    cwd: t.dir,
    timeoutMs: opts.timeoutMs,
    extraEnv: TRANSPORT_ENV,
  });
  if (fetch.code !== 0) return row(t, 'failed', { reason: 'fetch_failed', message: firstLine(fetch.stderr) });
  const merge = await runGit([...TRANSPORT_CONFIG, 'merge', '--ff-only', '--no-stat', '@{upstream}'], {
    cwd: t.dir,
  });
  if (merge.code !== 0)
    return row(t, 'failed', {
      reason: 'not_fast_forward',
      message: firstLine(merge.stderr) || firstLine(merge.stdout),
    });
  const updating = /^Updating ([0-9a-f]+)\.\.([0-9a-f]+)/m.exec(merge.stdout);
  if (!updating) return row(t, 'unchanged');
  return row(t, 'updated', { from: updating[1], to: updating[2] });
}

/** Clones a missing repository or fast-forwards a clean checkout; never throws, never touches a dirty one. */
export function syncRepo(t: SyncTarget, opts: SyncRepoOptions): Promise<SyncRow> {
  return t.present ? fastForward(t, opts) : clone(t, opts);
}
