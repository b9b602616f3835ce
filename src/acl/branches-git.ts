import { NotFoundError, RefusedError, runGit, ValidationError } from '../infra/index.js';
import { shown } from './branches-names.js';

/** Longest `--base` accepted. */
export const MAX_BASE_REF = 256;
const SHA_RE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** True for a full object id (SHA-1 or SHA-256 hex). */
export function isFullSha(text: string): boolean {
  return SHA_RE.test(text);
}

/** Checks the text of `--base` before git sees it: never an option, no control characters, bounded. */
export function checkBaseRef(ref: string, field = 'base'): string {
  const problem =
    ref === ''
      ? 'it is empty'
      : ref.length > MAX_BASE_REF
        ? `it is longer than ${MAX_BASE_REF} characters`
        : ref.startsWith('-')
          ? "it starts with '-' (it would be read as an option)"
          : /[\p{Cc}\p{Cf}\s]/u.test(ref)
            ? 'it contains a space, control or format character'
            : undefined;
  if (problem)
    throw new ValidationError(`${field}: '${shown(ref)}' is not a revision: ${problem}`, {
      field,
      value: shown(ref),
      rule: `a branch, tag or commit (at most ${MAX_BASE_REF} characters, not starting with '-')`,
    });
  return ref;
}

/** The commit `ref` names in the checkout at `root`; a NotFoundError naming `base` when it names none. */
export async function resolveBase(root: string, ref: string, repository: string): Promise<string> {
  checkBaseRef(ref);
  const r = await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`], {
    cwd: root,
  });
  const sha = r.stdout.trim();
  if (r.code !== 0 || !isFullSha(sha))
    throw new NotFoundError(
      ref === 'HEAD'
        ? `base: HEAD of ${repository} names no commit (a repository without commits has nothing to branch from); pass --base`
        : `base: '${shown(ref)}' names no commit in ${repository}`,
      { field: 'base', value: shown(ref), rule: 'an existing commit', repository },
    );
  return sha;
}

/** The commit the local branch `name` points at, or undefined when there is no such branch. */
export async function headOf(root: string, name: string): Promise<string | undefined> {
  const r = await runGit(['rev-parse', '--verify', '--quiet', '--end-of-options', `refs/heads/${name}`], {
    cwd: root,
  });
  const sha = r.stdout.trim();
  return r.code === 0 && isFullSha(sha) ? sha : undefined;
}

/**
 * Creates the local branch `name` at `sha` (`git branch --no-track`, no shell). Git refusing it (a branch made
 * meanwhile, `agent/x` beside `agent/x/y`, a locked ref) is a 409 with git's words.
 */
export async function createHead(root: string, name: string, sha: string, repository: string): Promise<void> {
  const r = await runGit(['branch', '--no-track', '--', name, sha], { cwd: root });
  if (r.code !== 0) {
    const said = r.stderr.trim().split('\n').slice(-3).join(' ') || `exit ${r.code}`;
    throw new RefusedError(
      `name: git could not create the branch '${name}' in ${repository}: ${said}`,
      { field: 'name', value: name, rule: 'git_branch', repository, git: said },
      409,
    );
  }
}

/**
 * Deletes the local branch `name` only if it still points at `sha` (`git update-ref -d` with the old value: a
 * branch that moved since keeps its commits). True when deleted.
 */
export async function deleteHeadAt(root: string, name: string, sha: string): Promise<boolean> {
  const r = await runGit(['update-ref', '-d', `refs/heads/${name}`, sha], { cwd: root });
  return r.code === 0;
}

/** Branches checked out in any worktree of the repository at `root` (`git worktree list --porcelain`). */
export async function checkedOutBranches(root: string): Promise<Set<string>> {
  const r = await runGit(['worktree', 'list', '--porcelain'], { cwd: root });
  const out = new Set<string>();
  for (const line of r.stdout.split('\n'))
    if (line.startsWith('branch refs/heads/')) out.add(line.slice('branch refs/heads/'.length));
  return out;
}

/** Deletes a branch with `git branch -d` (only when merged), or `-D` with `force`; git's words when refused. */
export async function deleteHead(
  root: string,
  name: string,
  force: boolean,
): Promise<{ deleted: boolean; reason?: string }> {
  const r = await runGit(['branch', force ? '-D' : '-d', '--', name], { cwd: root });
  return r.code === 0 ? { deleted: true } : { deleted: false, reason: r.stderr.trim() || `exit ${r.code}` };
}
