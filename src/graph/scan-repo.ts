import { type Dirent, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { HubError, normalizeRelPath, resolveReal, tryReadFileBounded } from '../infra/index.js';
import type { Declared, Ecosystem } from './declarations.js';
import { CONVENTIONAL_DIRS, NESTED_FILES, type PackageFileKind, packageFileKind } from './package-files.js';
import { SCAN_LIMITS } from './scan-limits.js';

/** A file the scan could not use, and why (`rule` as safe-fs names it, or `parse`, `max_dirs`, ...). */
export interface ScanSkip {
  file: string;
  rule: string;
  reason: string;
}

/** What one repository's package files declare. */
export interface RepoScan {
  provides: Declared[];
  requires: Declared[];
  /** Repository-relative files read and parsed. */
  files: string[];
  /** Ecosystems with at least one package file in the repository. */
  ecosystems: Set<Ecosystem>;
  skipped: ScanSkip[];
}

export interface ScanInput {
  /** Real path of the checkout (from the checkout judge: inside the workspace). */
  dir: string;
  /** Clone URL from the manifest; relative submodule URLs resolve against it. */
  url?: string;
  /** Repository-relative folders to read besides the root (catalogued component paths). */
  extraDirs?: string[];
}

const posix = (dir: string, name: string) => (dir === '.' ? name : `${dir}/${name}`);

/**
 * Reads the package files of one repository: the root, the given folders, the conventional chart folders, and
 * the members the files themselves name (npm and Cargo workspaces, go.work, Maven modules, Gradle includes), in
 * breadth-first order without recursion. Every file goes through the bounded, regular-files-only reader
 * confined to the checkout; a refusal or a parse failure is a skip, never an error.
 */
export function scanRepo(input: ScanInput): RepoScan {
  const scan: RepoScan = { provides: [], requires: [], files: [], ecosystems: new Set(), skipped: [] };
  const queue: string[] = [];
  const seen = new Set<string>();
  const escapes = (rel: string, from: string) =>
    scan.skipped.push({
      file: rel,
      rule: 'inside_root',
      reason: `named by ${from}, it climbs out of the repository`,
    });
  const enqueue = (rel: string, from: string) => {
    const n = normalizeRelPath(rel);
    if (n.escapes) {
      escapes(rel, from);
      return;
    }
    if (seen.has(n.path)) return;
    if (seen.size >= SCAN_LIMITS.maxDirs) {
      scan.skipped.push({
        file: n.path,
        rule: 'max_dirs',
        reason: `over ${SCAN_LIMITS.maxDirs} folders in one repository`,
      });
      return;
    }
    seen.add(n.path);
    queue.push(n.path);
  };
  const enqueuePattern = (pattern: string, base: string, from: string, quiet: boolean) => {
    if (pattern.startsWith('!')) return;
    const rel = base === '.' ? pattern : `${base}/${pattern}`;
    if (!rel.endsWith('/*')) {
      if (rel.includes('*')) return; // Deeper globs are not expanded (bounded, predictable cost).
      enqueue(rel, from);
      return;
    }
    const parent = normalizeRelPath(rel.slice(0, -2));
    if (parent.escapes) {
      escapes(rel, from);
      return;
    }
    const real = resolveReal(input.dir, parent.path);
    if (!real) return;
    let entries: Dirent[];
    try {
      entries = readdirSync(real, { withFileTypes: true });
    } catch {
      return;
    }
    const dirs = entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
    if (dirs.length > SCAN_LIMITS.maxExpand && !quiet)
      scan.skipped.push({
        file: rel,
        rule: 'max_expand',
        reason: `expands to over ${SCAN_LIMITS.maxExpand} folders`,
      });
    for (const d of dirs.slice(0, SCAN_LIMITS.maxExpand)) enqueue(posix(parent.path, d), from);
  };

  enqueue('.', 'root');
  for (const d of input.extraDirs ?? []) enqueue(d, 'the manifest');

  for (let i = 0; i < queue.length; i++) {
    const rel = queue[i]!;
    const real = rel === '.' ? input.dir : resolveReal(input.dir, rel);
    if (!real) continue;
    let entries: Dirent[];
    try {
      entries = readdirSync(real, { withFileTypes: true });
    } catch {
      continue; // Not a folder, or gone: nothing to read.
    }
    const names = new Set(entries.map((e) => e.name));
    // Chart folders are looked for only where the root listing has them: no path lookups for absent ones.
    if (rel === '.')
      for (const p of CONVENTIONAL_DIRS)
        if (names.has(p.split('/')[0]!)) enqueuePattern(p, '.', 'convention', true);
    const read = (name: string) =>
      readText(input.dir, join(real, name), posix(rel, name), scan, name.includes('/'));
    const readSibling = (name: string) => (names.has(name) ? read(name) : undefined);
    const files: Array<[string, PackageFileKind]> = [];
    for (const e of entries) {
      const kind = packageFileKind(e.name, rel === '.');
      if (kind) files.push([e.name, kind]);
    }
    files.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    for (const [nested, kind] of Object.entries(NESTED_FILES))
      if (names.has(nested.split('/')[0]!)) files.push([nested, kind]);
    for (const [name, kind] of files) {
      const file = posix(rel, name);
      const text = read(name);
      if (text === undefined) continue;
      try {
        const d = kind.parse(text, file, {
          dirName: basename(real),
          repoUrl: input.url,
          readSibling,
        });
        scan.files.push(file);
        scan.ecosystems.add(kind.ecosystem);
        const total = d.provides.length + d.requires.length;
        if (total > SCAN_LIMITS.maxDeclarationsPerFile)
          scan.skipped.push({
            file,
            rule: 'max_declarations',
            reason: `declares ${total} names; the first ${SCAN_LIMITS.maxDeclarationsPerFile} are used`,
          });
        let room = SCAN_LIMITS.maxDeclarationsPerFile;
        for (const p of d.provides.slice(0, room)) scan.provides.push(p);
        room -= Math.min(room, d.provides.length);
        for (const r of d.requires.slice(0, room)) scan.requires.push(r);
        for (const m of d.more ?? []) enqueuePattern(m, rel, file, false);
      } catch (err) {
        // JSON, TOML, YAML and XML errors alike; a bound the file breaks (max_depth, ...) names its own rule.
        const message = String((err as Error)?.message ?? err)
          .split('\n')[0]!
          .slice(0, 200);
        const bound = err instanceof HubError ? err.details?.rule : undefined;
        scan.skipped.push({ file, rule: typeof bound === 'string' ? bound : 'parse', reason: message });
      }
    }
  }
  return scan;
}

/** Text of one file under the checkout: bounded, regular files only, symlinks refused; undefined on refusal. */
function readText(
  root: string,
  path: string,
  file: string,
  scan: RepoScan,
  nested: boolean,
): string | undefined {
  const r = tryReadFileBounded(path, {
    maxBytes: SCAN_LIMITS.maxFileBytes,
    root,
    // A name from the folder listing is opened with O_NOFOLLOW; a nested path (gradle/x) is resolved first.
    walked: !nested,
    rootName: 'the repository',
  });
  if (!r.ok) {
    if (r.rule !== 'exists') scan.skipped.push({ file, rule: r.rule, reason: r.reason });
    return undefined;
  }
  const text = r.bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
