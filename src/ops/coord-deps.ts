import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CoordDeps } from '../coord/index.js';
import { isInside, ValidationError } from '../infra/index.js';
import type { OpContext } from './context.js';

/** The coordination ports of a context: its store, `state.conflict_retries` and its clock. */
export function coordDeps(ctx: OpContext): CoordDeps {
  const { store, info } = ctx.store();
  return { store, retries: info.conflict_retries, now: () => ctx.now() };
}

const MAX_NOTES_FILE = 1024 * 1024;

/**
 * Reads a `--notes-file`. On the CLI (the only surface with standard input) any path the user can read is fine;
 * over MCP and HTTP the file must lie inside the workspace, so a remote caller cannot read arbitrary files.
 */
export function readNotesFile(ctx: OpContext, path: string): string {
  const abs = resolve(ctx.cwd, path);
  if (!ctx.readStdin && !isInside(resolve(ctx.root()), abs)) {
    throw new ValidationError(`notes_file: '${path}' is outside the workspace`, {
      field: 'notes_file',
      value: path,
      rule: 'inside_workspace',
    });
  }
  try {
    const size = statSync(abs).size;
    if (size > MAX_NOTES_FILE)
      throw new ValidationError(`notes_file: '${path}' is ${size} bytes; the limit is 1 MiB`, {
        field: 'notes_file',
        value: path,
        rule: 'max_size',
      });
    return readFileSync(abs, 'utf8');
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    throw new ValidationError(
      `notes_file: cannot read '${path}' (${(err as NodeJS.ErrnoException).code ?? err})`,
      {
        field: 'notes_file',
        value: path,
        rule: 'readable',
      },
    );
  }
}
