import { lstatSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import {
  isInside,
  realpathDeepest,
  realpathOrUndefined,
  sha256Hex,
  tryReadFileBounded,
} from '../../infra/index.js';

/** Largest agent file or SKILL.md hub reads before replacing it (a rendered template is a few KiB). */
export const MAX_MANAGED_BYTES = 1024 * 1024;
/**
 * Largest MCP configuration file hub merges into. `~/.claude.json` also keeps Claude Code's per-project history
 * and grows to megabytes on busy machines, so the bound is generous; past it hub refuses rather than parse it.
 */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** Why a target file cannot be read or written by hub at all (never overridden by --force). */
export type UnsafeRule = 'inside_root' | 'symlink' | 'regular_file' | 'max_size' | 'readable';

/** What is at a target path now. */
export type TargetState =
  | { kind: 'absent' }
  | {
      kind: 'file';
      bytes: Buffer;
      /** The text, or null when the bytes are not UTF-8. */
      text: string | null;
      sha256: string;
      /** Permission bits, kept when hub replaces the file. */
      mode: number;
    }
  | { kind: 'unsafe'; rule: UnsafeRule; reason: string };

const decoder = new TextDecoder('utf-8', { fatal: true });

function decode(bytes: Buffer): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}

/** The lexical absolute path, refused unless it lies inside `root` (before any symlink is looked at). */
export function absoluteInside(root: string, path: string): string | undefined {
  const abs = isAbsolute(path) ? resolve(path) : resolve(root, path);
  return isInside(resolve(root), abs) ? abs : undefined;
}

/**
 * Looks at a target path without following a symbolic link at its end: a link (even one pointing at a file
 * inside the root, such as `~/.ssh/config` from the home folder) is `unsafe`, since replacing it would either
 * write through it or silently break the user's link. A parent folder may be a link as long as its real path
 * stays inside the root. FIFOs, devices and folders are refused by the bounded read before a byte is read.
 */
export function inspectTarget(path: string, opts: { root: string; maxBytes: number }): TargetState {
  const abs = absoluteInside(opts.root, path);
  const realRoot = realpathOrUndefined(opts.root);
  if (!abs || !realRoot) return unsafe('inside_root', `it lies outside ${opts.root}`);
  const realParentChain = realpathDeepest(resolve(abs, '..'));
  if (!realParentChain || !isInside(realRoot, realParentChain))
    return unsafe('inside_root', `its folder's real path lies outside ${opts.root}`);
  let st: ReturnType<typeof lstatSync> | undefined;
  try {
    st = lstatSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'absent' };
    if (code === 'ENOTDIR') return unsafe('regular_file', 'a parent of it is a file, not a folder');
    return unsafe('readable', `it cannot be examined (${code ?? String(err)})`);
  }
  if (st.isSymbolicLink())
    return unsafe('symlink', 'it is a symbolic link; hub writes only regular files and never through a link');
  const read = tryReadFileBounded(abs, { maxBytes: opts.maxBytes, root: opts.root });
  if (!read.ok) return unsafe(read.rule === 'exists' ? 'readable' : read.rule, read.reason);
  return {
    kind: 'file',
    bytes: read.bytes,
    text: decode(read.bytes),
    sha256: sha256Hex(read.bytes),
    mode: st.mode & 0o7777,
  };
}

const unsafe = (rule: UnsafeRule, reason: string): TargetState => ({ kind: 'unsafe', rule, reason });

/** The state's identity for the lost-update check at write time: the content hash, or null when absent. */
export function stateHash(state: TargetState): string | null | undefined {
  if (state.kind === 'absent') return null;
  if (state.kind === 'file') return state.sha256;
  return undefined;
}
