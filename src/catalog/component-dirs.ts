import { existsSync, lstatSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { CatalogRepo } from './catalog.js';
import { isInside, realpathOrUndefined } from './deps.js';

/** What `config validate` says about one component directory. */
export type DirectoryProblem = { rule: string; message: string; abs: string };

type Kind = 'dir' | 'link' | 'other';

/**
 * Judges the component directories of one repository with one lstat per path segment, the parents' answers shared
 * by all components below them (`services/` once for every service). A path whose segments are plain directories
 * below the real repository root cannot leave it, so no realpath is needed; a path that meets a symlink is judged
 * the exact way, by its realpath. Built per validation run and repository: nothing outlives it, so a folder
 * swapped for a symlink later is judged again. (A readdir of the parents instead was 40x slower here.)
 */
export class RepoDirectories {
  /** Repo-relative parent directory -> what it is. Leaves are not kept: each is asked once. */
  private readonly parents = new Map<string, Kind | undefined>();

  constructor(
    private readonly repo: CatalogRepo,
    private readonly realRoot: string,
  ) {}

  private kindOf(rel: string): Kind | undefined {
    const st = lstatSync(`${this.realRoot}${sep}${rel}`, { throwIfNoEntry: false });
    return !st ? undefined : st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : 'other';
  }

  /** The problem with component directory `rel` (normalized, no `..`); `written` is the manifest's spelling. */
  problem(rel: string, written: string): DirectoryProblem | undefined {
    if (rel === '.') return directoryProblem(this.repo, this.realRoot, rel, written);
    let slash = rel.indexOf('/');
    for (;;) {
      const leaf = slash === -1;
      const at = leaf ? rel : rel.slice(0, slash);
      let k: Kind | undefined;
      if (leaf) k = this.kindOf(at);
      else if (this.parents.has(at)) k = this.parents.get(at);
      else {
        k = this.kindOf(at);
        this.parents.set(at, k);
      }
      // A symlink on the way: only its realpath says where it leads.
      if (k === 'link') return directoryProblem(this.repo, this.realRoot, rel, written);
      // Missing, or a file with more path below it (realpath fails there too): the directory does not exist.
      if (k === undefined || (k === 'other' && !leaf)) return missing(this.repo, rel);
      if (leaf)
        return k === 'dir'
          ? undefined
          : {
              rule: 'missing_directory',
              message: `component path '${rel}' in ${this.repo.id} is not a directory`,
              abs: join(this.repo.root, rel),
            };
      slash = rel.indexOf('/', slash + 1);
    }
  }
}

function missing(repo: CatalogRepo, rel: string): DirectoryProblem {
  const abs = rel === '.' ? repo.root : join(repo.root, rel);
  return {
    rule: 'missing_directory',
    message: `component directory '${rel}' does not exist in ${repo.id} (${abs})`,
    abs,
  };
}

/** The exact judgement by realpath: missing, escaping through a symlink, or not a directory. */
export function directoryProblem(
  repo: CatalogRepo,
  realRoot: string,
  rel: string,
  written: string,
): DirectoryProblem | undefined {
  const abs = rel === '.' ? repo.root : join(repo.root, rel);
  const real = realpathOrUndefined(abs);
  if (!real || !existsSync(abs)) return missing(repo, rel);
  if (!isInside(realRoot, real))
    return {
      rule: 'path_escapes',
      message: `component path '${written}' escapes the root of ${repo.id} through a symlink (to ${real})`,
      abs,
    };
  if (!isDirectory(real))
    return {
      rule: 'missing_directory',
      message: `component path '${rel}' in ${repo.id} is not a directory`,
      abs,
    };
  return undefined;
}

export function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
