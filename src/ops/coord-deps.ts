import { resolve } from 'node:path';
import { type CoordDeps, setAsideLine } from '../coord/index.js';
import { readFileBounded } from '../infra/index.js';
import type { OpContext } from './context.js';

/** The coordination ports of a context: its store, `state.conflict_retries`, its clock and its log. */
export function coordDeps(ctx: OpContext): CoordDeps {
  const { store, info } = ctx.store();
  return { store, retries: info.conflict_retries, now: () => ctx.now(), report: setAsideReporter(ctx) };
}

/** Lines already logged, by log: a server answers the same listing many times into one log. */
const logged = new WeakMap<OpContext['log'], Set<string>>();

/**
 * Logs each record set aside as invalid (the CLI's stderr, a server's log), naming it: once per log, so a command
 * says it once and a server once, however often it is asked.
 */
export function setAsideReporter(ctx: Pick<OpContext, 'log'>): NonNullable<CoordDeps['report']> {
  return (records) => {
    let seen = logged.get(ctx.log);
    if (!seen) {
      seen = new Set();
      logged.set(ctx.log, seen);
    }
    for (const r of records) {
      const line = setAsideLine(r);
      if (seen.has(line)) continue;
      if (seen.size < 1024) seen.add(line);
      ctx.log(line);
    }
  };
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
