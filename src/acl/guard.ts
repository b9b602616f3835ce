import { chmodSync, lstatSync, mkdirSync, realpathSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { RefusedError, runGit, tryReadFileBounded, ValidationError, writeFileUnder } from '../infra/index.js';
import { type PathHit, pathsClaimed } from './claims-overlap.js';
import { claimsDocument } from './claims-records.js';
import { ClaimsDocSchema } from './claims-schema.js';
import { type HookBlockInput, hookBlock, mergeHook, removeBlock } from './guard-hook.js';
import { type AclDeps, readAcl } from './records.js';
import type { RepoTarget } from './repository-ref.js';

const MAX_HOOK_BYTES = 1024 * 1024;

/** The repository's hooks folder as git sees it (`core.hooksPath` respected), absolute. */
async function hooksFolder(root: string): Promise<string> {
  const r = await runGit(['rev-parse', '--git-path', 'hooks'], { cwd: root });
  const out = r.stdout.trim();
  if (r.code !== 0 || out === '')
    throw new RefusedError(`${root} is not a git repository (${r.stderr.trim() || 'git rev-parse failed'})`, {
      field: 'repository',
      value: root,
      rule: 'git_repository',
    });
  return isAbsolute(out) ? out : resolve(root, out);
}

function checkedOut(target: RepoTarget): string {
  if (!target.root)
    throw new RefusedError(
      `repository ${target.id} is not checked out here; the guard lives in its git hooks`,
      {
        field: 'repository',
        value: target.id,
        rule: 'checked_out',
      },
    );
  return target.root;
}

/** The current hook text, or undefined; a symlinked or special hook is refused rather than written through. */
function readHook(folder: string): string | undefined {
  const file = join(folder, 'pre-commit');
  let isLink = false;
  try {
    isLink = lstatSync(file).isSymbolicLink();
  } catch {
    return undefined;
  }
  if (isLink)
    throw new RefusedError(`the pre-commit hook ${file} is a symbolic link; edit its target by hand`, {
      field: 'hook',
      value: file,
      rule: 'regular_file',
    });
  const got = tryReadFileBounded(file, {
    maxBytes: MAX_HOOK_BYTES,
    root: folder,
    rootName: 'the hooks folder',
  });
  if (!got.ok)
    throw new RefusedError(`the pre-commit hook ${file} cannot be read: ${got.reason}`, {
      field: 'hook',
      value: file,
      rule: got.rule,
    });
  return got.bytes.toString('utf8');
}

function writeHook(folder: string, text: string): string {
  // core.hooksPath may name a folder that does not exist yet (git creates none).
  mkdirSync(folder, { recursive: true });
  const written = writeFileUnder(folder, 'pre-commit', text, 0o755);
  chmodSync(written, 0o755);
  return written;
}

export interface GuardInstalled {
  repository: string;
  hook: string;
  strict: boolean;
  /** True when an earlier block of this repository was replaced. */
  replaced: boolean;
  /** True when the hook existed before (its own lines are kept). */
  merged: boolean;
}

/** Writes (or replaces) the repository's guard block in its pre-commit hook, merging with the user's hook. */
export async function installGuard(
  target: RepoTarget,
  opts: Omit<HookBlockInput, 'repository'>,
): Promise<GuardInstalled> {
  const folder = await hooksFolder(checkedOut(target));
  const existing = readHook(folder);
  const merged = mergeHook(existing, hookBlock({ ...opts, repository: target.id }), target.id);
  if (!merged.ok)
    throw new RefusedError(
      `cannot add the claim guard to ${join(folder, 'pre-commit')}: ${merged.reason}; call \`hub claim guard check --repository ${target.id}\` from it yourself`,
      { field: 'hook', value: join(folder, 'pre-commit'), rule: 'shell_hook' },
    );
  const hook = writeHook(folder, merged.text);
  return {
    repository: target.id,
    hook,
    strict: opts.strict,
    replaced: merged.replaced,
    merged: existing !== undefined && existing.trim() !== '',
  };
}

/** Removes the repository's guard block; the user's own lines stay (a hook that held only the block goes empty). */
export async function uninstallGuard(
  target: RepoTarget,
): Promise<{ repository: string; hook: string; removed: boolean }> {
  const folder = await hooksFolder(checkedOut(target));
  const hook = join(folder, 'pre-commit');
  const existing = readHook(folder);
  if (existing === undefined) return { repository: target.id, hook, removed: false };
  const { text, removed } = removeBlock(existing, target.id);
  if (removed) writeHook(folder, text.trim() === '#!/bin/sh' ? '#!/bin/sh\n' : text);
  return { repository: target.id, hook, removed };
}

/** The git common dir of the repository holding `cwd`, real, or undefined outside one. */
async function commonDir(cwd: string): Promise<string | undefined> {
  const r = await runGit(['rev-parse', '--path-format=absolute', '--git-common-dir'], { cwd });
  if (r.code !== 0 || r.stdout.trim() === '') return undefined;
  try {
    return realpathSync(r.stdout.trim());
  } catch {
    return undefined;
  }
}

/** Paths staged for commit in the repository (or worktree) holding `cwd`. */
export async function stagedPaths(cwd: string): Promise<string[]> {
  const r = await runGit(['diff', '--cached', '--name-only', '-z', '--no-renames'], { cwd });
  if (r.code !== 0)
    throw new ValidationError(`cannot list staged paths in ${cwd}: ${r.stderr.trim() || 'git diff failed'}`, {
      field: 'cwd',
      value: cwd,
      rule: 'git_repository',
    });
  return r.stdout.split('\0').filter((p) => p !== '');
}

export interface GuardCheck {
  repository: string;
  agent_id: string | null;
  strict: boolean;
  /** Set when the hook ran in another repository (a shared hooks folder): nothing was checked. */
  skipped?: string;
  paths_checked: number;
  hits: PathHit[];
  /** True when a strict check found paths claimed by another live agent: the commit stops. */
  blocked: boolean;
}

/**
 * The guard's check: which of `paths` (default: the staged paths of the repository at `cwd`) live claims of other
 * agents cover. Run from another repository than `target` (hooks folders can be shared), it checks nothing.
 */
export async function guardCheck(
  deps: AclDeps,
  target: RepoTarget,
  opts: { cwd: string; agent_id?: string; strict: boolean; paths?: string[] },
): Promise<GuardCheck> {
  const base = { repository: target.id, agent_id: opts.agent_id ?? null, strict: opts.strict };
  let paths = opts.paths;
  if (paths === undefined) {
    const here = await commonDir(opts.cwd);
    const theirs = target.root ? await commonDir(target.root) : undefined;
    if (here === undefined)
      throw new ValidationError(`${opts.cwd} is not in a git repository; pass --path to check paths`, {
        field: 'path',
        rule: 'git_repository',
      });
    if (theirs !== undefined && here !== theirs)
      return {
        ...base,
        skipped: `${opts.cwd} is not a checkout of ${target.id}`,
        paths_checked: 0,
        hits: [],
        blocked: false,
      };
    paths = await stagedPaths(opts.cwd);
  }
  const { claims } = await readAcl(deps, claimsDocument(target.id), ClaimsDocSchema);
  const hits = pathsClaimed(claims, paths, { exclude: opts.agent_id, now: deps.now() });
  return { ...base, paths_checked: paths.length, hits, blocked: opts.strict && hits.length > 0 };
}
