import { lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  isInside,
  RefusedError,
  realpathDeepest,
  realpathOrUndefined,
  writeFileAtomicSync,
} from '../../infra/index.js';
import { markerState, markerStyle, normalizeNewlines, withMarker } from './managed-marker.js';
import {
  absoluteInside,
  inspectTarget,
  MAX_MANAGED_BYTES,
  stateHash,
  type TargetState,
  type UnsafeRule,
} from './target-file.js';

export type WriteAction = 'create' | 'unchanged' | 'update' | 'conflict';

/** Why a plan is a conflict: the first two give way to --force, the unsafe ones never do. */
export type ConflictRule =
  | 'changed_by_user'
  | 'not_written_by_hub'
  | 'entry_differs'
  | 'unparsable'
  | UnsafeRule;

/** One file hub means to write, decided before anything is written. */
export interface FileWritePlan {
  /** Absolute path of the file. */
  path: string;
  /** The folder the write must stay inside (the repository root or the home folder). */
  root: string;
  action: WriteAction;
  /** The bytes hub writes (create, update) or would write (conflict, unchanged). */
  content: string;
  /** Why this action: for a conflict the refusal, for an update what allowed it. */
  reason: string;
  /** For a conflict: the rule it breaks. */
  rule?: ConflictRule;
  /** For a conflict: whether --force would replace the file. */
  forceable?: boolean;
  /** Hash of the file when planned (null: absent); the write is refused if the file changed since. */
  before: string | null;
  /** The text on disk when planned, for the dry-run patch and for rolling back a failed batch. */
  previous?: Buffer;
  /** Permission bits of the file written (kept from the file replaced). */
  mode: number;
}

export interface PlanOptions {
  /** The folder the write must stay inside. */
  root: string;
  /** Replace a file the user changed, or one hub did not write. */
  force?: boolean;
  maxBytes?: number;
  /** Mode of a new file (default 0644). */
  mode?: number;
}

/**
 * Plans a file hub owns whole (an agent file, a SKILL.md): the content gets hub's marker (managed-marker.ts),
 * then: absent -> create; identical -> unchanged (no write at all); marker intact (hub wrote it, nobody changed
 * it) -> update; anything else -> conflict naming the path, which --force turns into an update. A link, a FIFO,
 * a device, a folder, an oversized file or a path whose real folder lies outside the root is a conflict that
 * --force does not override.
 */
export function planFileWrite(path: string, content: string, opts: PlanOptions): FileWritePlan {
  const marked = withMarker(path, content);
  const state = inspectTarget(path, { root: opts.root, maxBytes: opts.maxBytes ?? MAX_MANAGED_BYTES });
  const abs = absoluteInside(opts.root, path) ?? path;
  if (state.kind !== 'file') return planOverState(abs, state, marked, opts);
  const base = { path: abs, root: opts.root, content: marked, before: state.sha256, previous: state.bytes };
  const mode = state.mode;
  if (state.text !== null && normalizeNewlines(state.text) === marked)
    return { ...base, action: 'unchanged', reason: 'identical content', mode };
  const mark = state.text === null ? 'none' : markerState(state.text);
  if (mark === 'intact')
    return { ...base, action: 'update', reason: 'written by hub and not changed since', mode };
  const rule: ConflictRule = mark === 'edited' ? 'changed_by_user' : 'not_written_by_hub';
  const why =
    mark === 'edited'
      ? 'hub wrote it and it was changed since'
      : markerStyle(path)
        ? 'hub did not write it (no hub marker)'
        : 'a different file is in the way';
  if (opts.force) return { ...base, action: 'update', reason: `--force: ${why}`, mode };
  return { ...base, action: 'conflict', rule, forceable: true, reason: `${why}; --force replaces it`, mode };
}

/**
 * Plans a write whose content the caller derived from the file itself (an MCP configuration merged in place):
 * absent -> create, identical bytes -> unchanged, else update. Unsafe states are conflicts.
 */
export function planOverState(
  path: string,
  state: TargetState,
  content: string,
  opts: PlanOptions,
): FileWritePlan {
  const mode = opts.mode ?? 0o644;
  if (state.kind === 'unsafe')
    return {
      path,
      root: opts.root,
      action: 'conflict',
      content,
      rule: state.rule,
      forceable: false,
      reason: state.reason,
      before: null,
      mode,
    };
  if (state.kind === 'absent')
    return { path, root: opts.root, action: 'create', content, reason: 'new file', before: null, mode };
  const same = state.text === content;
  return {
    path,
    root: opts.root,
    action: same ? 'unchanged' : 'update',
    content,
    reason: same ? 'identical content' : 'merged into the existing file',
    before: state.sha256,
    previous: state.bytes,
    mode: state.mode,
  };
}

/** A conflict the caller found in the content (an entry that differs, a file it cannot parse). */
export function conflictPlan(
  path: string,
  state: TargetState,
  content: string,
  opts: PlanOptions & { rule: ConflictRule; reason: string; forceable: boolean },
): FileWritePlan {
  return {
    ...planOverState(path, state, content, opts),
    action: 'conflict',
    rule: opts.rule,
    reason: opts.reason,
    forceable: opts.forceable,
  };
}

export interface ApplyResult {
  dry_run: boolean;
  plans: FileWritePlan[];
  /** Paths written (created or updated); empty on a dry run. */
  written: string[];
}

/** The refusal for a batch with conflicts: every conflicting path, its rule and why; nothing was written. */
export function conflictError(conflicts: FileWritePlan[]): RefusedError {
  const lines = conflicts.map((p) => `${p.path}: ${p.reason} (rule ${p.rule})`);
  const forceable = conflicts.every((p) => p.forceable);
  return new RefusedError(
    `refusing to write ${conflicts.length === 1 ? 'a file' : `${conflicts.length} files`}; nothing was written: ${lines.join('; ')}${forceable ? '' : ' (--force does not override this)'}`,
    {
      field: 'path',
      value: conflicts[0]!.path,
      rule: conflicts[0]!.rule ?? 'conflict',
      conflicts: conflicts.map((p) => ({
        path: p.path,
        rule: p.rule ?? 'conflict',
        reason: p.reason,
        forceable: p.forceable ?? false,
      })),
    },
    409,
  );
}

/**
 * Writes a batch planned beforehand, all or nothing: any conflict refuses the whole batch before a byte is
 * written; every file is checked again (unchanged since it was planned, still safe) before the first write;
 * each write is atomic (temp file + rename, parents created, never through a link out of the root); and when a
 * write fails midway the files already written are put back. A dry run writes nothing and returns the plans.
 */
export function applyFileWrites(plans: FileWritePlan[], opts: { dryRun?: boolean } = {}): ApplyResult {
  const conflicts = plans.filter((p) => p.action === 'conflict');
  if (opts.dryRun) return { dry_run: true, plans, written: [] };
  if (conflicts.length > 0) throw conflictError(conflicts);
  const todo = plans.filter((p) => p.action === 'create' || p.action === 'update');
  for (const p of todo) {
    const now = stateHash(inspectTarget(p.path, { root: p.root, maxBytes: Number.MAX_SAFE_INTEGER }));
    if (now !== p.before)
      throw new RefusedError(
        `refusing to write '${p.path}': it changed while hub was planning the write; nothing was written; run it again`,
        { field: 'path', value: p.path, rule: 'unchanged_since_plan' },
        409,
      );
  }
  const written: FileWritePlan[] = [];
  try {
    for (const p of todo) {
      writeConfined(p.root, p.path, p.content, p.mode);
      written.push(p);
    }
  } catch (err) {
    rollBack(written);
    throw err;
  }
  return { dry_run: false, plans, written: written.map((p) => p.path) };
}

/** Writes atomically inside `root`: the folder's real path is checked before and after it is created. */
function writeConfined(root: string, path: string, content: string, mode: number): void {
  const realRoot = realpathOrUndefined(root);
  const outside = () =>
    new RefusedError(`refusing to write '${path}': its real path lies outside ${root}`, {
      field: 'path',
      value: path,
      rule: 'inside_root',
    });
  const dir = dirname(path);
  const before = realpathDeepest(dir);
  if (!realRoot || !before || !isInside(realRoot, before)) throw outside();
  mkdirSync(dir, { recursive: true });
  const realDir = realpathOrUndefined(dir);
  if (!realDir || !isInside(realRoot, realDir)) throw outside();
  const target = join(realDir, basename(path));
  // A link swapped in since the plan: refuse (the rename would replace the link, not write through it, but the
  // user's link would be lost silently).
  let existing: ReturnType<typeof lstatSync> | undefined;
  try {
    existing = lstatSync(target);
  } catch {
    existing = undefined;
  }
  if (existing && !existing.isFile())
    throw new RefusedError(`refusing to write '${path}': it is no longer a regular file`, {
      field: 'path',
      value: path,
      rule: 'regular_file',
    });
  writeFileAtomicSync(target, content, mode);
}

function rollBack(written: FileWritePlan[]): void {
  for (const p of written.reverse()) {
    try {
      if (p.previous) writeFileAtomicSync(p.path, p.previous, p.mode);
      else unlinkSync(p.path);
    } catch {
      // best effort: the error that stopped the batch is what the user sees
    }
  }
}
