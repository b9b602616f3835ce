import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { inTurn, RefusedError, runGit, tryReadFileBounded } from '../infra/index.js';

/**
 * Options every git call in a temporary merge worktree carries. Hooks are off: the merge worktree is hub's, and a
 * hooks path the repository's own files set up (husky and the like point core.hooksPath into the checkout) would
 * run code that came with a clone. Pathspecs are literal: a conflicted file named `:(glob)*` is that file.
 */
const NO_HOOKS = ['-c', 'core.hooksPath=/dev/null', '--literal-pathspecs'];

/** Runs git with hooks off (and the identity, when given) and returns the result; never throws. */
export function git(cwd: string, args: string[], identity: readonly string[] = [], timeoutMs = 600_000) {
  return runGit([...NO_HOOKS, ...identity, ...args], { cwd, timeoutMs });
}

const firstLines = (s: string) => s.trim().split('\n').slice(-4).join(' ').slice(0, 1000);

/** git's own words when a step fails, or the exit code. */
export function gitWords(r: { stdout: string; stderr: string; code: number }): string {
  return firstLines(r.stderr) || firstLines(r.stdout) || `exit ${r.code}`;
}

/**
 * `-c user.name=hub -c user.email=hub@localhost` for whichever of the two neither the repository's git config
 * nor the environment (GIT_AUTHOR_*, GIT_COMMITTER_*) sets, so a merge commit never fails for want of an
 * identity; whatever the user configured wins.
 */
export async function gitIdentity(
  root: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const need = (
    [
      ['user.name', 'NAME', 'hub'],
      ['user.email', 'EMAIL', 'hub@localhost'],
    ] as const
  ).filter(([, envName]) => !(env[`GIT_AUTHOR_${envName}`] && env[`GIT_COMMITTER_${envName}`]));
  if (need.length === 0) return [];
  // One git call for both keys (a train asks once per repository): `key value` per line, every scope in order;
  // the last value wins, as `git config --get` says, and a key without a value (or an empty one) counts as unset.
  const r = await runGit(['config', '--get-regexp', '^user\\.(name|email)$'], { cwd: root });
  const last = new Map<string, string>();
  for (const line of r.stdout.split('\n').filter(Boolean)) {
    const sp = line.indexOf(' ');
    last.set((sp < 0 ? line : line.slice(0, sp)).toLowerCase(), sp < 0 ? '' : line.slice(sp + 1).trim());
  }
  return need.flatMap(([key, , fallback]) => (last.get(key) ? [] : ['-c', `${key}=${fallback}`]));
}

/** Paths of every worktree of the repository (its main checkout included) that has `branch` checked out. */
export async function checkedOutAt(root: string, branch: string): Promise<string[]> {
  const r = await runGit(['worktree', 'list', '--porcelain', '-z'], { cwd: root });
  if (r.code !== 0)
    throw new RefusedError(`listing worktrees: ${gitWords(r)}`, { rule: 'git', cwd: root }, 409);
  const out: string[] = [];
  let path: string | undefined;
  let bare = false;
  for (const attr of r.stdout.split('\0')) {
    if (attr.startsWith('worktree ')) {
      path = attr.slice('worktree '.length);
      bare = false;
    } else if (attr === 'bare') bare = true;
    else if (attr === `branch refs/heads/${branch}` && path !== undefined && !bare) out.push(path);
  }
  return out;
}

/**
 * Refuses to move `branch` while any worktree has it checked out (the spec's error row): moving it would leave
 * that checkout's index and files behind its HEAD. The error names each worktree.
 */
export async function refuseIfCheckedOut(
  root: string,
  branch: string,
  what: { op: string; field: string; repository: string },
): Promise<void> {
  const paths = await checkedOutAt(root, branch);
  if (paths.length === 0) return;
  throw new RefusedError(
    `${what.field}: the branch '${branch}' of ${what.repository} is checked out in ${paths.join(', ')}; ${what.op} refuses to move a checked-out branch (that checkout's files and index would no longer match its HEAD): switch that checkout to another branch (git switch --detach), or merge into another branch`,
    {
      field: what.field,
      value: branch,
      rule: 'not_checked_out',
      repository: what.repository,
      worktrees: paths,
    },
    409,
  );
}

/**
 * git's words when, adding a worktree, it read the admin folder of one another git was still making or removing
 * (it reads them all): the add did nothing, and goes again.
 */
const WORKTREE_RACE = /failed to read \S*worktrees\/[^\s/]+\/(?:commondir|gitdir)/;
const ADD_ATTEMPTS = 8;

/** Worktree adds and removes of this process, one at a time per repository (other processes: the retry). */
const inRepoTurn = <T>(root: string, fn: () => Promise<T>) => inTurn(`${root}\0worktrees`, fn);

async function addWorktree(root: string, wt: string, sha: string) {
  for (let attempt = 1; ; attempt++) {
    const r = await inRepoTurn(root, () =>
      git(root, ['worktree', 'add', '--detach', '--quiet', '--', wt, sha]),
    );
    if (r.code === 0 || attempt >= ADD_ATTEMPTS || !WORKTREE_RACE.test(r.stderr)) return r;
    await new Promise((done) => setTimeout(done, 5 * 2 ** attempt * (0.5 + Math.random())));
  }
}

/**
 * Runs `fn` in a temporary worktree of the repository at `root`, detached at `sha`, in a fresh folder of its own
 * under `tmpRoot` (mode 0700). The worktree and its folder are removed afterwards, whatever `fn` did or threw. No
 * existing checkout is touched: git only adds and removes the worktree's admin folder.
 */
export async function withTempWorktree<T>(
  root: string,
  sha: string,
  tmpRoot: string,
  fn: (wt: string) => Promise<T>,
): Promise<T> {
  const dir = realpathSync(mkdtempSync(join(tmpRoot, 'hub-merge-')));
  const wt = join(dir, 'worktree');
  try {
    const r = await addWorktree(root, wt, sha);
    if (r.code !== 0)
      throw new RefusedError(
        `creating the temporary merge worktree: ${gitWords(r)}`,
        { rule: 'git', cwd: root },
        409,
      );
    return await fn(wt);
  } finally {
    const r = await inRepoTurn(root, () =>
      runGit(['worktree', 'remove', '--force', '--force', '--', wt], { cwd: root }),
    );
    rmSync(dir, { recursive: true, force: true });
    if (r.code !== 0) await runGit(['worktree', 'prune'], { cwd: root });
  }
}

/** What merging one commit into the temporary worktree's HEAD came to. */
export type MergeAttempt =
  | { kind: 'merged'; sha: string }
  | { kind: 'up_to_date'; sha: string }
  | { kind: 'conflict'; files: string[] }
  | { kind: 'error'; message: string };

const SHA_RE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const GITFILE_MAX = 4096;

/**
 * The detached HEAD of a temporary merge worktree. hub made the worktree, so its HEAD file (in the admin folder its
 * `.git` file names) is read directly: a rollup asks after every branch, and a file read costs far less than a git
 * process. Anything unexpected there (a symbolic ref, a packed format) falls back to `git rev-parse HEAD`.
 */
export async function headSha(wt: string): Promise<string> {
  const gitFile = tryReadFileBounded(join(wt, '.git'), { maxBytes: GITFILE_MAX, root: wt });
  const m = gitFile.ok ? /^gitdir: (.+)$/m.exec(gitFile.bytes.toString('utf8')) : null;
  if (m) {
    const dir = m[1]!.trim();
    const head = tryReadFileBounded(join(dir, 'HEAD'), { maxBytes: GITFILE_MAX, root: dir });
    const text = head.ok ? head.bytes.toString('utf8').trim() : '';
    if (SHA_RE.test(text)) return text;
  }
  return (await runGit(['rev-parse', 'HEAD'], { cwd: wt })).stdout.trim();
}

/** Unmerged paths of the worktree, sorted. */
export async function unmergedPaths(wt: string): Promise<string[]> {
  const r = await git(wt, ['diff', '--name-only', '--diff-filter=U', '-z']);
  return [...new Set(r.stdout.split('\0').filter(Boolean))].sort();
}

/**
 * `git merge --no-ff --no-edit` of `sha` (a full object id, never a name an option could hide in) into the
 * worktree's HEAD. A conflict is left in place for the caller to regenerate or abort.
 */
export async function mergeIn(
  wt: string,
  sha: string,
  message: string,
  identity: readonly string[],
  head?: string,
): Promise<MergeAttempt> {
  const before = head ?? (await headSha(wt));
  const r = await git(wt, ['merge', '--no-ff', '--no-edit', '-m', message, sha], identity);
  if (r.code === 0) {
    const after = await headSha(wt);
    return after === before ? { kind: 'up_to_date', sha: after } : { kind: 'merged', sha: after };
  }
  const files = await unmergedPaths(wt);
  if (files.length > 0) return { kind: 'conflict', files };
  return { kind: 'error', message: gitWords(r) };
}

/** Abandons a conflicted merge (`git merge --abort`), leaving the worktree at its HEAD. */
export async function abortMerge(wt: string): Promise<void> {
  await git(wt, ['merge', '--abort']);
}

/** Puts the worktree back at `sha` (a rollup step whose validators failed). */
export async function resetTo(wt: string, sha: string): Promise<void> {
  await git(wt, ['reset', '--hard', '--quiet', sha]);
}

/**
 * The heads of many local branches in one git call (`for-each-ref`); a branch that does not exist is absent.
 * A rollup of many branches reads them all at once instead of spawning git per branch.
 */
export async function branchHeads(root: string, names: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (names.length === 0) return out;
  const r = await runGit(
    ['for-each-ref', '--format=%(objectname) %(refname)', '--', ...names.map((n) => `refs/heads/${n}`)],
    { cwd: root },
  );
  const wanted = new Set(names);
  for (const line of r.stdout.split('\n')) {
    const sp = line.indexOf(' ');
    const name = line.slice(sp + 1).replace(/^refs\/heads\//, '');
    // for-each-ref matches by prefix too (refs/heads/a also lists refs/heads/a/b): keep exact names only.
    if (sp > 0 && wanted.has(name)) out.set(name, line.slice(0, sp));
  }
  return out;
}

/**
 * Moves `refs/heads/<branch>` to `next` only if it still points at `expected` (created only if absent when
 * `expected` is undefined): git's own compare-and-swap on the ref. False when the branch moved meanwhile.
 */
export async function casRef(
  root: string,
  branch: string,
  next: string,
  expected: string | undefined,
  message: string,
): Promise<boolean> {
  const old = expected ?? '0'.repeat(next.length);
  const r = await runGit(['update-ref', '-m', message, `refs/heads/${branch}`, next, old], { cwd: root });
  return r.code === 0;
}
