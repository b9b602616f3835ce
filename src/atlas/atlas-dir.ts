import { lstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { NotFoundError, RefusedError, realpathOrUndefined, ValidationError } from '../infra/index.js';
import { ATLAS_DIR } from './layout.js';

export interface AtlasPlace {
  /** Real path of the repository folder. */
  root: string;
  /** Real path of its `.atlas/` (which may not exist yet). */
  dir: string;
  exists: boolean;
}

/**
 * The repository folder `path` (relative to `cwd`) and its `.atlas/`. The folder must exist; `.atlas` must be a
 * real folder inside it, never a symbolic link (a clone could point it anywhere). `confine`, when given, is the
 * folder the repository must lie in (the served workspace on MCP and HTTP).
 */
export function atlasPlace(cwd: string, path: string | undefined, confine?: string): AtlasPlace {
  const shown = path ?? '.';
  const root = realpathOrUndefined(resolve(cwd, shown));
  if (!root)
    throw new NotFoundError(`path: '${shown}' does not exist`, {
      field: 'path',
      value: shown,
      rule: 'exists',
    });
  if (!lstatSync(root).isDirectory())
    throw new ValidationError(`path: '${shown}' is not a folder`, {
      field: 'path',
      value: shown,
      rule: 'folder',
    });
  if (confine !== undefined) {
    const realConfine = realpathOrUndefined(confine) ?? confine;
    const rel = root.startsWith(`${realConfine}/`) || root === realConfine;
    if (!rel)
      throw new RefusedError(
        `path: '${shown}' lies outside the served workspace; over MCP and HTTP atlas reads repositories inside it only`,
        { field: 'path', value: shown, rule: 'inside_workspace' },
      );
  }
  const dir = join(root, ATLAS_DIR);
  let exists = false;
  try {
    const st = lstatSync(dir);
    if (st.isSymbolicLink() || !st.isDirectory())
      throw new RefusedError(
        `${ATLAS_DIR} in '${shown}' is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}; atlas reads and writes a real folder only (rule no_symlink)`,
        { field: 'path', value: shown, rule: 'no_symlink' },
      );
    exists = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return { root, dir, exists };
}

/** The error for a command that needs `.atlas/` where there is none. */
export function noAtlas(path: string | undefined): NotFoundError {
  const shown = path ?? '.';
  return new NotFoundError(
    `no ${ATLAS_DIR}/ in '${shown}'; create it with \`hub atlas init --path ${shown}\` (add --generate to fill it)`,
    { field: 'path', value: shown, rule: 'atlas_exists' },
  );
}
