import { cpSync, lstatSync, mkdirSync, statSync, symlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  childProcess,
  normalizeRelPath,
  RefusedError,
  resolveReal,
  runGit,
  ValidationError,
} from '../infra/index.js';

/** `coordination.worktree.post_create` of the application config. */
export interface PostCreate {
  symlink?: string[];
  copy?: string[];
  /** argv run without a shell in the new worktree; only trusted config may set it (appconfig-trust.ts). */
  command?: string[];
  /** Timeout of `command` in ms (default 10 minutes). */
  timeout_ms?: number;
}

export const DEFAULT_HOOK_TIMEOUT_MS = 600_000;
const OUTPUT_KEPT = 16 * 1024;

/** One symlink or copy of a gitignored file of the main checkout, checked before the worktree is made. */
export interface HookEntry {
  kind: 'symlink' | 'copy';
  /** Repo-relative POSIX path. */
  path: string;
  /** Real path of the source in the main checkout. */
  source: string;
}

export interface HookReport {
  symlinked: string[];
  copied: string[];
  command: null | {
    argv: string[];
    exit_code: number | null;
    signal: string | null;
    timed_out: boolean;
    stdout: string;
    stderr: string;
  };
}

const refuse = (entry: string, kind: string, why: string, rule: string) =>
  new RefusedError(`coordination.worktree.post_create.${kind}: '${entry}' ${why}`, {
    field: `coordination.worktree.post_create.${kind}`,
    value: entry,
    rule,
  });

/**
 * Checks every symlink/copy entry against the main checkout before anything is created: a relative path that
 * stays inside the checkout through symlinks, an existing file or folder, and one git ignores there (a tracked
 * file is not ignored: it is in the new worktree already, and linking it would share edits between checkouts).
 */
export async function planHooks(mainRoot: string, pc: PostCreate | undefined): Promise<HookEntry[]> {
  const entries: HookEntry[] = [];
  for (const kind of ['symlink', 'copy'] as const) {
    for (const raw of pc?.[kind] ?? []) {
      const n = normalizeRelPath(raw);
      if (n.escapes || n.path === '.' || raw.includes('\0'))
        throw refuse(raw, kind, 'must be a path inside the repository', 'inside_repository');
      if (n.path.split('/').includes('.git'))
        throw refuse(raw, kind, "may not name git's own folder", 'not_git_dir');
      const source = resolveReal(mainRoot, n.path);
      if (!source)
        throw refuse(
          raw,
          kind,
          'leads outside the main checkout through a symbolic link',
          'inside_repository',
        );
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(source);
      } catch {
        throw refuse(raw, kind, `does not exist in the main checkout ${mainRoot}`, 'exists');
      }
      if (!st.isFile() && !st.isDirectory())
        throw refuse(raw, kind, 'is neither a regular file nor a folder', 'regular_file');
      entries.push({ kind, path: n.path, source });
    }
  }
  if (entries.length === 0) return entries;
  // Tracked paths are never reported as ignored (check-ignore consults the index). Exit 0: ignored, 1: not.
  const checks = await Promise.all(
    entries.map((e) => runGit(['check-ignore', '-q', '--', e.path], { cwd: mainRoot })),
  );
  entries.forEach((e, i) => {
    const code = checks[i]!.code;
    if (code > 1)
      throw new RefusedError(`git check-ignore failed: ${checks[i]!.stderr.trim()}`, { rule: 'git' });
    if (code !== 0)
      throw refuse(
        e.path,
        e.kind,
        'is not ignored by git in the main checkout (tracked, or not matched by .gitignore); only ignored files are linked or copied',
        'gitignored',
      );
  });
  return entries;
}

/** Makes the planned symlinks and copies in the new worktree, each checked to stay inside it. */
export function applyFileHooks(
  worktree: string,
  entries: readonly HookEntry[],
): Pick<HookReport, 'symlinked' | 'copied'> {
  const symlinked: string[] = [];
  const copied: string[] = [];
  for (const e of entries) {
    const dest = resolveReal(worktree, e.path);
    if (!dest)
      throw refuse(
        e.path,
        e.kind,
        'leads outside the new worktree through a symbolic link',
        'inside_worktree',
      );
    if (exists(dest)) throw refuse(e.path, e.kind, 'already exists in the new worktree', 'path_free');
    mkdirSync(dirname(dest), { recursive: true });
    if (resolveReal(worktree, dirname(dest)) !== dirname(dest))
      throw refuse(
        e.path,
        e.kind,
        'leads outside the new worktree through a symbolic link',
        'inside_worktree',
      );
    if (e.kind === 'symlink') {
      symlinkSync(e.source, dest);
      symlinked.push(e.path);
    } else {
      // Symlinks inside a copied folder are copied as links, never followed.
      cpSync(e.source, dest, { recursive: true, errorOnExist: true, force: false, verbatimSymlinks: true });
      copied.push(e.path);
    }
  }
  return { symlinked, copied };
}

/**
 * Runs the post_create command with execFile (no shell: `;` or `$(...)` in an argument are plain characters), in
 * the new worktree, with a timeout; its exit and the tail of its output are returned, never thrown.
 */
export function runHookCommand(
  worktree: string,
  argv: readonly string[],
  env: Record<string, string | undefined>,
  timeoutMs = DEFAULT_HOOK_TIMEOUT_MS,
): Promise<NonNullable<HookReport['command']>> {
  if (argv.length === 0 || !argv[0])
    throw new ValidationError('coordination.worktree.post_create.command: needs a program', {
      field: 'coordination.worktree.post_create.command',
      rule: 'argv',
    });
  return new Promise((done) => {
    childProcess().execFile(
      argv[0]!,
      argv.slice(1),
      { cwd: worktree, env, timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024, shell: false, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const e = err as
          | (NodeJS.ErrnoException & { code?: number | string; signal?: string; killed?: boolean })
          | null;
        done({
          argv: [...argv],
          exit_code: e ? (typeof e.code === 'number' ? e.code : null) : 0,
          signal: e?.signal ?? null,
          timed_out: Boolean(e?.killed && e.signal),
          stdout: tail(stdout),
          stderr: tail(e && typeof e.code === 'string' ? `${stderr}${e.message}` : stderr),
        });
      },
    );
  });
}

const tail = (s: string) => (s.length > OUTPUT_KEPT ? s.slice(-OUTPUT_KEPT) : s);

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
