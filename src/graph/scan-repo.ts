import { type Dirent, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import picomatch from 'picomatch';
import { SKIP_DIRS } from '../catalog/index.js';
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
  /**
   * Member patterns of one file (`packages/*`, `tooling/**`, plain paths, `!` exclusions) relative to `base`:
   * plain paths are read as they are; globs are matched against the folders below their fixed head, at most
   * `maxGlobDepth` levels down for `**`, never into node_modules or hidden folders; `!` patterns carve out.
   */
  const expandMembers = (patterns: readonly string[], base: string, from: string, quiet: boolean) => {
    const clean = (p: string) => posix(base, p.replace(/^(\.\/)+/, '').replace(/\/+$/, '') || '.');
    // Patterns come with a clone: bounded in number and length, and without extglobs (nested repetition is the
    // one glob form whose regular expression can backtrack without end; member lists never need it).
    const usable = patterns.filter((p) => p.length <= SCAN_LIMITS.maxPatternLength);
    if (usable.length < patterns.length || usable.length > SCAN_LIMITS.maxExpand)
      scan.skipped.push({
        file: from,
        rule: 'max_expand',
        reason: `member patterns over ${SCAN_LIMITS.maxPatternLength} characters, or past the first ${SCAN_LIMITS.maxExpand}, are not read`,
      });
    const kept = usable.slice(0, SCAN_LIMITS.maxExpand);
    const glob = { noextglob: true };
    const negated = kept.filter((p) => p.startsWith('!')).map((p) => clean(p.slice(1)));
    const excluded = negated.length > 0 ? picomatch(negated, glob) : () => false;
    for (const p of kept) {
      if (p.startsWith('!')) continue;
      const rel = clean(p);
      const scanned = picomatch.scan(rel);
      if (!scanned.isGlob) {
        if (!excluded(normalizeRelPath(rel).path)) enqueue(rel, from);
        continue;
      }
      const head = normalizeRelPath(scanned.base || '.');
      if (head.escapes) {
        escapes(rel, from);
        continue;
      }
      const real = resolveReal(input.dir, head.path);
      if (!real) continue;
      const matches = picomatch(posix(head.path, scanned.glob), glob);
      const levels = scanned.glob.includes('**') ? SCAN_LIMITS.maxGlobDepth : scanned.glob.split('/').length;
      if (matches(head.path) && !excluded(head.path)) enqueue(head.path, from);
      const walk: Array<[string, string, number]> = [[real, head.path, 0]];
      let visited = 0;
      for (let w = 0; w < walk.length; w++) {
        const [abs, at, depth] = walk[w]!;
        let entries: Dirent[];
        try {
          entries = readdirSync(abs, { withFileTypes: true });
        } catch {
          continue;
        }
        const dirs = entries
          .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIP_DIRS.has(e.name))
          .map((e) => e.name)
          .sort();
        for (const d of dirs) {
          if (visited++ >= SCAN_LIMITS.maxExpand) {
            if (!quiet)
              scan.skipped.push({
                file: rel,
                rule: 'max_expand',
                reason: `expands to over ${SCAN_LIMITS.maxExpand} folders`,
              });
            walk.length = 0;
            break;
          }
          const child = posix(at, d);
          if (matches(child) && !excluded(child)) enqueue(child, from);
          if (depth + 1 < levels) walk.push([join(abs, d), child, depth + 1]);
        }
      }
    }
  };

  const budget = { left: SCAN_LIMITS.maxRepoBytes };
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
        if (names.has(p.split('/')[0]!)) expandMembers([p], '.', 'convention', true);
    const read = (name: string) =>
      readText(input.dir, join(real, name), posix(rel, name), scan, name.includes('/'), budget);
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
        if (d.more) expandMembers(d.more, rel, file, false);
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
  budget: { left: number },
): string | undefined {
  const overBudget = () =>
    scan.skipped.push({
      file,
      rule: 'max_repo_bytes',
      reason: `the repository's package files pass ${SCAN_LIMITS.maxRepoBytes} bytes`,
    });
  if (budget.left <= 0) {
    overBudget();
    return undefined;
  }
  const cap = Math.min(SCAN_LIMITS.maxFileBytes, budget.left);
  const r = tryReadFileBounded(path, {
    maxBytes: cap,
    root,
    // A name from the folder listing is opened with O_NOFOLLOW; a nested path (gradle/x) is resolved first.
    walked: !nested,
    rootName: 'the repository',
  });
  if (!r.ok) {
    if (r.rule === 'max_size' && cap < SCAN_LIMITS.maxFileBytes) overBudget();
    else if (r.rule !== 'exists') scan.skipped.push({ file, rule: r.rule, reason: r.reason });
    return undefined;
  }
  budget.left -= r.bytes.length;
  const text = r.bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
