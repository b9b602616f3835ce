import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { tryReadFileBounded } from '../infra/index.js';

/** Largest ignore file read (.gitignore, .git/info/exclude); a bigger one is ignored as if absent. */
const MAX_RULES_BYTES = 1024 * 1024;

/**
 * Folders content search and snapshots never enter: dependencies, virtual environments, build output and tool
 * caches. One list for every backend, so ripgrep and the built-in search see the same files.
 */
export const EXCLUDED_DIRS: readonly string[] = [
  '.git',
  'node_modules',
  'bower_components',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  'vendor',
  'target',
  'dist',
  '.next',
  '.terraform',
  '.gradle',
];

export interface WalkedFile {
  abs: string;
  /** POSIX path relative to the walk's root. */
  rel: string;
}

export interface WalkOptions {
  /** Stop after this many files. */
  maxFiles?: number;
  /** Do not descend deeper than this many folders below the root. */
  maxDepth?: number;
}

interface Level {
  /** Folder of the rules, relative to the root (`''` for the root). */
  base: string;
  rules: Ignore;
}

/** An ignore file of the walk: a regular file under the walk's root (never a FIFO, a device or a link out). */
function readRules(root: string, file: string): string | undefined {
  const r = tryReadFileBounded(file, { maxBytes: MAX_RULES_BYTES, root });
  return r.ok ? r.bytes.toString('utf8') : undefined;
}

/** Whether `rel` (a file, or a folder when `dir`) is ignored by the stacked .gitignore levels, git-style. */
function ignoredBy(levels: Level[], rel: string, dir: boolean): boolean {
  let ignored = false;
  for (const l of levels) {
    const sub = l.base === '' ? rel : rel.slice(l.base.length + 1);
    const r = l.rules.test(dir ? `${sub}/` : sub);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

/**
 * Files under `root` in sorted order, honouring every `.gitignore` on the way and `.git/info/exclude`,
 * never entering EXCLUDED_DIRS and never following symbolic links. Hidden files are included.
 */
export function* walkFiles(root: string, opts: WalkOptions = {}): Generator<WalkedFile> {
  const maxFiles = opts.maxFiles ?? Number.POSITIVE_INFINITY;
  const maxDepth = opts.maxDepth ?? Number.POSITIVE_INFINITY;
  const excluded = new Set(EXCLUDED_DIRS);
  let yielded = 0;
  const rootRules = ignore();
  const exclude = readRules(root, join(root, '.git', 'info', 'exclude'));
  if (exclude) rootRules.add(exclude);
  type Frame = { abs: string; rel: string; depth: number; levels: Level[] };
  const stack: Frame[] = [{ abs: root, rel: '', depth: 0, levels: [{ base: '', rules: rootRules }] }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = readdirSync(frame.abs, { withFileTypes: true });
    } catch {
      continue;
    }
    let levels = frame.levels;
    if (entries.some((e) => e.name === '.gitignore' && e.isFile())) {
      const text = readRules(root, join(frame.abs, '.gitignore'));
      if (text) levels = [...levels, { base: frame.rel, rules: ignore().add(text) }];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const dirs: Frame[] = [];
    for (const e of entries) {
      const rel = frame.rel === '' ? e.name : `${frame.rel}/${e.name}`;
      if (e.isDirectory()) {
        if (excluded.has(e.name) || frame.depth + 1 > maxDepth || ignoredBy(levels, rel, true)) continue;
        dirs.push({ abs: join(frame.abs, e.name), rel, depth: frame.depth + 1, levels });
      } else if (e.isFile()) {
        if (ignoredBy(levels, rel, false)) continue;
        yield { abs: join(frame.abs, e.name), rel };
        if (++yielded >= maxFiles) return;
      }
    }
    // Depth-first in name order: push folders in reverse so the first name is walked first.
    for (let i = dirs.length - 1; i >= 0; i--) stack.push(dirs[i]!);
  }
}
