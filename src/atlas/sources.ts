import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';
import { runGit, sha256Hex, tryReadFileBounded, ValidationError } from '../infra/index.js';
import { ATLAS_DIR } from './layout.js';
import type { Skipped } from './schemas.js';

/** Default cap on one source file: larger files are skipped and counted, never parsed. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
/** Most files one walk lists; a folder with more is refused rather than read for minutes. */
export const MAX_SOURCE_FILES = 200_000;

const VENDORED = new Set([
  'node_modules',
  'vendor',
  'third_party',
  'third-party',
  'bower_components',
  '.venv',
  'venv',
  'Pods',
  '.git',
]);
const GENERATED_DIRS = new Set([
  'dist',
  'build',
  'out',
  'target',
  '__pycache__',
  '.next',
  '.nuxt',
  'coverage',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.gradle',
]);
const GENERATED_FILE_RE =
  /(\.min\.(js|css)|\.pb\.go|_pb2\.pyi?|\.generated\.[a-z]+|\.g\.dart|\.d\.ts\.map|\.js\.map)$/;

export type Language = 'typescript' | 'tsx' | 'javascript' | 'python' | 'go' | 'rust';

/** The language (grammar) of a path by its extension, or null for files atlas does not parse. */
export function languageOf(path: string): Language | null {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  switch (ext) {
    case 'ts':
    case 'mts':
    case 'cts':
      return path.endsWith('.d.ts') ? null : 'typescript';
    case 'tsx':
      return 'tsx';
    case 'js':
    case 'jsx':
    case 'mjs':
    case 'cjs':
      return 'javascript';
    case 'py':
      return 'python';
    case 'go':
      return 'go';
    case 'rs':
      return 'rust';
    default:
      return null;
  }
}

export interface SourceFile {
  path: string;
  language: Language | null;
  bytes: number;
  sha256: string;
  text: string | undefined;
}

export interface SourceScan {
  files: SourceFile[];
  skipped: Skipped;
  /** sha256 over every kept path and its content hash, in path order. */
  fingerprint: string;
}

/** Why a listed path is left out before it is read, or undefined to read it. */
function skipReason(path: string, excluded: (p: string) => boolean): keyof Skipped | undefined {
  const parts = path.split('/');
  for (let i = 0; i < parts.length - 1; i++) {
    if (VENDORED.has(parts[i]!)) return 'vendored';
    if (GENERATED_DIRS.has(parts[i]!)) return 'generated';
  }
  if (GENERATED_FILE_RE.test(path)) return 'generated';
  if (excluded(path)) return 'excluded';
  return undefined;
}

/** Paths git tracks (and untracked ones it does not ignore), or undefined outside a work tree. */
async function gitPaths(root: string): Promise<string[] | undefined> {
  const r = await runGit(['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    timeoutMs: 60_000,
  });
  if (r.code !== 0) return undefined;
  return [...new Set(r.stdout.split('\0').filter(Boolean))];
}

/** Every file below `root`, without following symbolic links; vendored and generated folders are not entered. */
function walkPaths(root: string, skipped: Skipped): string[] {
  const out: string[] = [];
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    let names: import('node:fs').Dirent[];
    try {
      names = readdirSync(join(root, rel), { withFileTypes: true });
    } catch {
      skipped.unreadable++;
      continue;
    }
    for (const d of names) {
      const p = rel ? `${rel}/${d.name}` : d.name;
      if (d.isDirectory()) {
        if (p === ATLAS_DIR || d.name === '.git') continue;
        if (VENDORED.has(d.name)) skipped.vendored++;
        else if (GENERATED_DIRS.has(d.name)) skipped.generated++;
        else stack.push(p);
      } else if (d.isFile()) out.push(p);
      if (out.length > MAX_SOURCE_FILES) return out;
    }
  }
  return out;
}

export interface ScanOptions {
  maxFileBytes?: number;
  exclude?: readonly string[];
  /** Keep each file's text (for the extractors); false for a freshness check. */
  keepText?: boolean;
}

const emptySkipped = (): Skipped => ({
  too_large: 0,
  binary: 0,
  generated: 0,
  vendored: 0,
  excluded: 0,
  unreadable: 0,
});

/**
 * Lists and reads the sources of the repository at `root` (a real path): the files git lists, or every file when
 * the folder is no git work tree. `.atlas/` itself is never a source. Files over the size limit, binary files
 * (a NUL byte in the first 8 KB), vendored and generated folders and excluded globs are skipped and counted.
 */
export async function scanSources(root: string, opts: ScanOptions = {}): Promise<SourceScan> {
  const skipped = emptySkipped();
  const maxBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const excluded = opts.exclude?.length ? picomatch([...opts.exclude], { dot: true }) : () => false;
  const listed = (await gitPaths(root)) ?? walkPaths(root, skipped);
  if (listed.length > MAX_SOURCE_FILES) {
    throw new ValidationError(
      `path: the repository lists more than ${MAX_SOURCE_FILES} files; atlas refuses to read them all (rule max_files)`,
      { field: 'path', rule: 'max_files', limit: MAX_SOURCE_FILES },
    );
  }
  const files: SourceFile[] = [];
  for (const path of listed.sort()) {
    if (path === ATLAS_DIR || path.startsWith(`${ATLAS_DIR}/`)) continue;
    const why = skipReason(path, excluded);
    if (why) {
      skipped[why]++;
      continue;
    }
    const abs = join(root, path);
    let size: number;
    try {
      const st = lstatSync(abs);
      if (!st.isFile()) {
        // A symbolic link or a special file: never followed, never read.
        skipped.unreadable++;
        continue;
      }
      size = st.size;
    } catch {
      // Listed by git but deleted from the work tree.
      continue;
    }
    if (size > maxBytes) {
      skipped.too_large++;
      continue;
    }
    const r = tryReadFileBounded(abs, { maxBytes, root, walked: true });
    if (!r.ok) {
      skipped[r.rule === 'max_size' ? 'too_large' : 'unreadable']++;
      continue;
    }
    if (r.bytes.subarray(0, 8192).includes(0)) {
      skipped.binary++;
      continue;
    }
    const language = languageOf(path);
    files.push({
      path,
      language,
      bytes: r.bytes.length,
      sha256: sha256Hex(r.bytes),
      text: opts.keepText && language ? r.bytes.toString('utf8') : undefined,
    });
  }
  return { files, skipped, fingerprint: fingerprintOf(files) };
}

/** The source fingerprint: sha256 over `path NUL sha256 LF` of every kept file, in path order. */
export function fingerprintOf(files: ReadonlyArray<{ path: string; sha256: string }>): string {
  return sha256Hex(files.map((f) => `${f.path}\0${f.sha256}\n`).join(''));
}
