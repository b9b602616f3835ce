import { join } from 'node:path';
import { tryReadFileBounded } from '../infra/index.js';
import type { BranchKind, TerrainGit } from './types.js';

/** What one `git status --porcelain=v2 --branch` says, before the default branch and head time are known. */
export interface StatusCounts {
  branch: string | null;
  head: string | null;
  upstream: string | null;
  ahead: number | null;
  behind: number | null;
  entries: number;
  staged: number;
  modified: number;
  untracked: number;
  unmerged: number;
}

/**
 * Parses porcelain v2 with --branch: `# branch.*` headers, `1`/`2` changed entries (XY: index, worktree; `.` is
 * unchanged), `u` unmerged entries and `?` untracked paths.
 */
export function parseStatusCounts(stdout: string): StatusCounts {
  const s: StatusCounts = {
    branch: null,
    head: null,
    upstream: null,
    ahead: null,
    behind: null,
    entries: 0,
    staged: 0,
    modified: 0,
    untracked: 0,
    unmerged: 0,
  };
  for (const line of stdout.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# ')) {
      if (line.startsWith('# branch.head ')) {
        const b = line.slice(14);
        s.branch = b === '(detached)' ? null : b;
      } else if (line.startsWith('# branch.oid ')) {
        const o = line.slice(13);
        s.head = o === '(initial)' ? null : o;
      } else if (line.startsWith('# branch.upstream ')) s.upstream = line.slice(18);
      else if (line.startsWith('# branch.ab ')) {
        const m = /\+(\d+) -(\d+)/.exec(line);
        if (m) {
          s.ahead = Number(m[1]);
          s.behind = Number(m[2]);
        }
      }
      continue;
    }
    s.entries++;
    const kind = line[0];
    if (kind === '?') s.untracked++;
    else if (kind === 'u') s.unmerged++;
    else if (kind === '1' || kind === '2') {
      if (line[2] !== '.') s.staged++;
      if (line[3] !== '.') s.modified++;
    }
  }
  return s;
}

const DEVELOP = new Set(['develop', 'development', 'dev']);
const USUAL_DEFAULTS = new Set(['main', 'master', 'trunk']);

/** The earlier product's branch kinds: default, develop, hotfix (hotfix*, fix/*), feature (feature/*, feat/*), detached, other. */
export function branchKind(
  branch: string | null,
  head: string | null,
  defaultBranch: string | null,
): BranchKind | null {
  if (branch === null) return head ? 'detached' : null;
  if (defaultBranch ? branch === defaultBranch : USUAL_DEFAULTS.has(branch)) return 'default';
  if (DEVELOP.has(branch)) return 'develop';
  if (branch.startsWith('hotfix') || branch.startsWith('fix/')) return 'hotfix';
  if (branch.startsWith('feature/') || branch.startsWith('feat/')) return 'feature';
  return 'other';
}

/**
 * The branch origin/HEAD points at, read from `.git/refs/remotes/origin/HEAD` (a symbolic ref: git writes it as a
 * file on clone and never packs it). Only a regular file inside the checkout is read; a `.git` file (worktrees,
 * submodules) or no remote gives undefined.
 */
export function originHead(dir: string): string | undefined {
  // `dir` is a real path (the checkout judge's): opened without following the last link, and the opened file
  // checked to lie inside it, so a `.git` linked elsewhere is never read.
  const r = tryReadFileBounded(join(dir, '.git', 'refs', 'remotes', 'origin', 'HEAD'), {
    root: dir,
    walked: true,
    maxBytes: 512,
  });
  if (!r.ok) return undefined;
  const m = /^ref: refs\/remotes\/origin\/(\S+)\s*$/.exec(r.bytes.toString('utf8'));
  return m?.[1];
}

const DAY_MS = 86_400_000;

/** Git state of a checkout from its status, its default branch and its head commit's time. */
export function terrainGit(
  s: StatusCounts,
  defaultBranch: string | null,
  headAt: string | null,
  now: Date,
): TerrainGit {
  const at = headAt ? Date.parse(headAt) : Number.NaN;
  return {
    branch: s.branch,
    default_branch: defaultBranch,
    branch_kind: branchKind(s.branch, s.head, defaultBranch),
    head: s.head,
    upstream: s.upstream,
    ahead: s.ahead,
    behind: s.behind,
    dirty: s.entries > 0,
    uncommitted_count: s.entries,
    staged_count: s.staged,
    modified_count: s.modified,
    untracked_count: s.untracked,
    merge_conflicts: s.unmerged,
    detached_head: s.branch === null && s.head !== null,
    head_commit_at: headAt,
    head_commit_age_days: Number.isNaN(at) ? null : Math.max(0, Math.floor((now.getTime() - at) / DAY_MS)),
  };
}

/** The git state of a checkout git could not read (status failed): nothing known but the error. */
export function failedGit(error: string, defaultBranch: string | null): TerrainGit {
  return {
    ...terrainGit(parseStatusCounts(''), defaultBranch, null, new Date(0)),
    branch_kind: null,
    error,
  };
}
