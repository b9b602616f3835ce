import { type Dirent, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CI_LOCATIONS, CI_PROVIDERS, CI_ROOT_NAMES, type CiProvider } from './providers.js';

/** One CI configuration file of a checkout. */
export interface CiFileRef {
  provider: CiProvider;
  /** Repository-relative, `/`-separated. */
  path: string;
}

type EntryKind = 'dir' | 'file' | 'other';
/** A folder's entries by name; symbolic links count as files (a reader judges where they lead). */
export type Listing = ReadonlyMap<string, EntryKind>;

const kindOf = (e: Dirent): EntryKind =>
  e.isDirectory() ? 'dir' : e.isFile() || e.isSymbolicLink() ? 'file' : 'other';

/** Lists one folder (never through a symbolic link: Dirent types are lstat types); undefined when unreadable. */
export function listFolder(abs: string): Listing | undefined {
  try {
    return new Map(readdirSync(abs, { withFileTypes: true }).map((e) => [e.name, kindOf(e)]));
  } catch {
    return undefined;
  }
}

const YAML_FILE = /\.ya?ml$/i;

/**
 * The CI configuration files of a checkout, found from folder listings only (no file is opened): the root's
 * listing (pass it when the caller already has it) and the few folders CI systems read. A folder reached through
 * a symbolic link is not entered. For systems that read the first of several names, only that one is listed.
 */
export function ciFiles(root: string, rootListing?: Listing): CiFileRef[] {
  const top = rootListing ?? listFolder(root);
  if (!top) return [];
  // Most checkouts have none of the names CI lives under: stop before any other folder is read.
  if (![...CI_ROOT_NAMES].some((n) => top.has(n))) return [];
  const listings = new Map<string, Listing | undefined>([['', top]]);
  const folder = (rel: string): Listing | undefined => {
    if (listings.has(rel)) return listings.get(rel);
    const cut = rel.lastIndexOf('/');
    const parent = folder(cut < 0 ? '' : rel.slice(0, cut));
    const name = cut < 0 ? rel : rel.slice(cut + 1);
    const l = parent?.get(name) === 'dir' ? listFolder(join(root, rel)) : undefined;
    listings.set(rel, l);
    return l;
  };
  const isFile = (rel: string): boolean => {
    const cut = rel.lastIndexOf('/');
    return folder(cut < 0 ? '' : rel.slice(0, cut))?.get(rel.slice(cut + 1)) === 'file';
  };
  const out: CiFileRef[] = [];
  for (const provider of CI_PROVIDERS) {
    const loc = CI_LOCATIONS[provider];
    const first = loc.files?.find(isFile);
    if (first) out.push({ provider, path: first });
    for (const dir of loc.dirs ?? []) {
      const l = folder(dir);
      if (!l) continue;
      const names = [...l].filter(([n, k]) => k === 'file' && YAML_FILE.test(n)).map(([n]) => n);
      for (const n of names.sort()) out.push({ provider, path: `${dir}/${n}` });
    }
  }
  return out;
}

/** The distinct providers of a file list, in CI_PROVIDERS order. */
export function providersOf(files: readonly CiFileRef[]): CiProvider[] {
  return CI_PROVIDERS.filter((p) => files.some((f) => f.provider === p));
}
