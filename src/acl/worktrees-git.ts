import { lstatSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import {
  isInside,
  RefusedError,
  realpathOrUndefined,
  runGit,
  tryReadFileBounded,
  ValidationError,
} from '../infra/index.js';
import type { WorktreeRecord } from './worktrees-record.js';

/** Runs git in `cwd` and returns its stdout, or throws a RefusedError carrying git's own first line. */
export async function gitOut(args: string[], cwd: string, what: string): Promise<string> {
  const r = await runGit(args, { cwd });
  if (r.code !== 0) throw gitRefused(what, r.stderr, cwd);
  return r.stdout;
}

export function gitRefused(what: string, stderr: string, cwd: string): RefusedError {
  const line = firstLine(stderr) || 'git failed';
  return new RefusedError(`${what}: ${line}`, { rule: 'git', git_message: line, cwd }, 409);
}

const firstLine = (s: string) =>
  s
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '' && !l.startsWith('Preparing worktree')) ?? '';

/** Refuses what git would read as an option or cannot name a branch (`-x`, `a..b`, control characters). */
export async function checkBranchName(branch: string, cwd: string, field = 'branch'): Promise<string> {
  const bad = (why: string) =>
    new ValidationError(`${field}: '${branch.slice(0, 200)}' is not a valid branch name (${why})`, {
      field,
      value: branch.slice(0, 200),
      rule: 'git check-ref-format --branch',
    });
  if (branch.startsWith('-')) throw bad('it would be read as an option');
  if (branch.length > 255) throw bad('longer than 255 characters');
  const r = await runGit(['check-ref-format', '--branch', branch], { cwd });
  if (r.code !== 0) throw bad(firstLine(r.stderr) || 'refused by git');
  return branch;
}

/** Real path of git's common dir (the repository's `.git`) of the checkout at `cwd`. */
export async function commonDirOf(cwd: string): Promise<string> {
  const out = await gitOut(
    ['rev-parse', '--path-format=absolute', '--git-common-dir'],
    cwd,
    'reading the git common dir',
  );
  const p = out.trim();
  return realpathOrUndefined(p) ?? p;
}

/** One entry of `git worktree list --porcelain -z`. */
export interface GitWorktreeEntry {
  path: string;
  head?: string;
  /** Full ref (`refs/heads/x`); absent when detached. */
  branch?: string;
  prunable: boolean;
  locked: boolean;
}

/** Parses `git worktree list --porcelain -z`: attributes end with NUL, entries with an empty attribute. */
export function parseWorktreeList(out: string): GitWorktreeEntry[] {
  const entries: GitWorktreeEntry[] = [];
  let cur: GitWorktreeEntry | undefined;
  for (const attr of out.split('\0')) {
    if (attr === '') {
      if (cur) entries.push(cur);
      cur = undefined;
      continue;
    }
    const sp = attr.indexOf(' ');
    const key = sp < 0 ? attr : attr.slice(0, sp);
    const val = sp < 0 ? '' : attr.slice(sp + 1);
    if (key === 'worktree') cur = { path: val, prunable: false, locked: false };
    else if (!cur) continue;
    else if (key === 'HEAD') cur.head = val;
    else if (key === 'branch') cur.branch = val;
    else if (key === 'prunable') cur.prunable = true;
    else if (key === 'locked') cur.locked = true;
  }
  if (cur) entries.push(cur);
  return entries;
}

export async function listGitWorktrees(cwd: string): Promise<GitWorktreeEntry[]> {
  return parseWorktreeList(await gitOut(['worktree', 'list', '--porcelain', '-z'], cwd, 'listing worktrees'));
}

const GITFILE_MAX = 4096;

/** The admin folder a worktree's `.git` file points to (`gitdir: <common>/worktrees/<name>`), real path. */
export function gitDirOfWorktree(path: string): string | undefined {
  const r = tryReadFileBounded(resolve(path, '.git'), { maxBytes: GITFILE_MAX, root: path });
  if (!r.ok) return undefined;
  const m = /^gitdir: (.+)$/m.exec(r.bytes.toString('utf8'));
  if (!m) return undefined;
  const p = m[1]!.trim();
  return realpathOrUndefined(isAbsolute(p) ? p : resolve(path, p));
}

/** Where git says a worktree lives now: its admin folder's `gitdir` file names `<worktree>/.git`. */
function pathFromAdmin(rec: Pick<WorktreeRecord, 'git_dir' | 'common_dir'>): string | null | undefined {
  if (!isInside(rec.common_dir, rec.git_dir) || rec.git_dir === rec.common_dir) return undefined;
  if (!exists(rec.git_dir)) return null;
  const r = tryReadFileBounded(resolve(rec.git_dir, 'gitdir'), {
    maxBytes: GITFILE_MAX,
    root: rec.common_dir,
  });
  if (!r.ok) return undefined;
  const p = r.bytes.toString('utf8').trim();
  return dirname(isAbsolute(p) ? p : resolve(rec.git_dir, p));
}

/**
 * Where a recorded worktree stands, judged from git's own files (no git process, no write):
 * - `present`: its folder is there and points at its admin folder;
 * - `moved`: git knows it at another path (`git worktree move`), given as `current_path`;
 * - `missing`: git still lists it but its folder is gone (`git worktree prune` would drop it);
 * - `pruned`: git no longer knows it (its admin folder is gone);
 * - `elsewhere`: recorded by another machine, whose folders this one cannot judge.
 */
export type WorktreeState = 'present' | 'moved' | 'missing' | 'pruned' | 'elsewhere';

export function locateWorktree(
  rec: WorktreeRecord,
  host: string,
): { state: WorktreeState; current_path: string | null } {
  if (rec.host !== host) return { state: 'elsewhere', current_path: null };
  if (gitDirOfWorktree(rec.path) === rec.git_dir) return { state: 'present', current_path: rec.path };
  const back = pathFromAdmin(rec);
  if (back === null || back === undefined) return { state: 'pruned', current_path: null };
  const real = realpathOrUndefined(back);
  if (real && gitDirOfWorktree(real) === rec.git_dir)
    return real === rec.path
      ? { state: 'present', current_path: real }
      : { state: 'moved', current_path: real };
  return { state: 'missing', current_path: null };
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
