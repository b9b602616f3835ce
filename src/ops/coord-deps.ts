import { resolve } from 'node:path';
import type { CoordDeps } from '../coord/index.js';
import { readFileBounded } from '../infra/index.js';
import type { OpContext } from './context.js';

/** The coordination ports of a context: its store, `state.conflict_retries` and its clock. */
export function coordDeps(ctx: OpContext): CoordDeps {
  const { store, info } = ctx.store();
  return { store, retries: info.conflict_retries, now: () => ctx.now() };
}

export const MAX_NOTES_FILE = 1024 * 1024;

/**
 * Reads a `--notes-file`: only a regular file (never a FIFO, device or socket), at most 1 MiB counted on the bytes
 * read. On the CLI (the only surface with standard input) the user named the path and may read what they can
 * read, through symlinks too; over MCP and HTTP the file's real path must lie inside the workspace, so a remote
 * caller cannot read arbitrary files through a symlink planted in a repository.
 */
export function readNotesFile(ctx: OpContext, path: string): string {
  const abs = resolve(ctx.cwd, path);
  const bytes = readFileBounded(abs, {
    maxBytes: MAX_NOTES_FILE,
    root: ctx.readStdin ? undefined : ctx.root(),
    rootName: 'the workspace',
    insideRule: 'inside_workspace',
    field: 'notes_file',
    shown: path,
  });
  return bytes.toString('utf8');
}
