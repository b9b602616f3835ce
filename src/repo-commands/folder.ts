import type { DeclaredCommand } from './types.js';

/** One folder of a checkout as a detector sees it. */
export interface Folder {
  /** Real path of the repository root. */
  root: string;
  /** Repository-relative folder (`.` for the root). */
  dir: string;
  /** Names of the regular files (and symlinks, which the reader judges) in the folder. */
  files: ReadonlySet<string>;
  /** Names of the files at the repository root (lockfiles, tool configuration shared by a monorepo). */
  rootFiles: ReadonlySet<string>;
}

/** Reads what one kind of file in a folder declares. */
export type Detector = (folder: Folder) => DeclaredCommand[];

/** The command record for a folder: `dir` only below the root. */
export function command(folder: Folder, c: Omit<DeclaredCommand, 'dir'>): DeclaredCommand {
  return { ...c, ...(folder.dir === '.' ? {} : { dir: folder.dir }) };
}
