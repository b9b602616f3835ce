import { closeSync, mkdirSync, openSync, readSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { fnv1a64Hex, writeFileAtomicSync } from '../infra/index.js';
import type { Manifest } from './manifest-schema.js';

/** Bumped whenever the cached shape changes; the build id covers schema changes between releases. */
const CACHE_FORMAT = 6;

/**
 * A file that changed this recently when it was hashed could change again within the same timestamp tick, so
 * its stat alone never proves it unchanged (the "racy" case git's index handles the same way).
 */
const RACY_MS = 2000;

/** What a stat says about the file; equal fingerprints of a file older than RACY_MS mean equal content. */
function fingerprint(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

interface CacheHeader {
  format: number;
  build: string;
  /** The manifest this entry belongs to (file names are a short hash of it). */
  path: string;
  hash: string;
  /** Fingerprint of the file when it was hashed, present only when that file was not racy. */
  stat?: string;
  manifest: Manifest;
  legacy: unknown[];
}

type ProjectEntry = NonNullable<NonNullable<Manifest['workspace']>['projects']>[number];
type RepoEntry = ProjectEntry['repos'][number];
/** Where a repo's components sit in the blob area: [byte offset, byte length]. */
const BLOB = '$components_at';
/** Where a project's repos (each with its components' BLOB) sit in the blob area. */
const REPOS = '$repos_at';
/** A project's repositories' checkout directories, in the header, so a path finds its project without a blob. */
const CHECKOUTS = '$checkouts';

/**
 * Where a repository is checked out, relative to the manifest's directory, as stored in the header: a plain
 * relative path (no `.`, `..` or empty segment: the checkout is `<manifest dir>/<it>`), or `[path]` for any
 * other `path` (the reader resolves it). A url-only repository is `<project>/<name>` (names hold no `/` and
 * cannot be `.` or `..`), the catalog's default checkout.
 */
export type CachedCheckout = string | [string];

/** The checkout list stored for each thawed project (kept out of the project's own keys and JSON). */
const checkoutLists = new WeakMap<object, readonly CachedCheckout[]>();
let repoListThaws = 0;

/**
 * The checkouts of a project read from the cache, in its repositories' order; undefined when the project did
 * not come from the cache (its `repos` are then plain data).
 */
export function cachedCheckouts(project: object): readonly CachedCheckout[] | undefined {
  return checkoutLists.get(project);
}

/** How many projects' repository lists this process parsed from cache files (tests prove reads stay narrow). */
export function repoListThawCount(): number {
  return repoListThaws;
}

/** True when `path` is relative and has no empty, `.` or `..` segment: resolving it against a dir appends it. */
function isPlainRelative(path: string): boolean {
  if (path === '' || path.startsWith('/')) return false;
  for (const seg of path.split('/')) if (seg === '' || seg === '.' || seg === '..') return false;
  return true;
}

function checkoutOf(project: ProjectEntry, repo: RepoEntry): CachedCheckout {
  if (!repo.path) return `${project.name}/${repo.name}`;
  return isPlainRelative(repo.path) ? repo.path : [repo.path];
}

/**
 * Cache of parsed, validated manifests keyed by the file's content hash, so that reads skip YAML parsing
 * (the `yaml` package parses ~0.7 MB/s). Lives in the user cache dir, never in the workspace.
 *
 * A cache file is one line of JSON (the manifest without its projects' repositories) and then raw JSON blobs: per
 * project its repository entries, per repository its components. A read parses the line and only the blobs of the
 * projects and repositories it touches, so resolving a path in one repository of a 20,000-repository manifest
 * parses one project's entries and one repository's components, not a 3 MB header. The line also lists each
 * project's checkout directories, so a path finds its project without parsing the others' entries.
 */
export class ManifestCache {
  constructor(
    private readonly dir: string,
    private readonly build: string,
    private readonly now: () => number = Date.now,
  ) {}

  private fileFor(manifestPath: string): string {
    return join(this.dir, `${fnv1a64Hex(manifestPath)}.json`);
  }

  /**
   * The cached manifest when the file is unchanged: proven by its stat when the file was old enough at hashing
   * time, else by `hashOf()` (which reads and hashes it).
   */
  get(
    manifestPath: string,
    st: Stats,
    hashOf: () => string,
  ): { manifest: Manifest; legacy: unknown[] } | undefined {
    let blobs: BlobFile;
    let header: CacheHeader;
    try {
      blobs = new BlobFile(this.fileFor(manifestPath));
    } catch {
      return undefined;
    }
    try {
      header = JSON.parse(blobs.header()) as CacheHeader;
    } catch {
      blobs.close();
      return undefined;
    }
    if (
      header.format !== CACHE_FORMAT ||
      header.build !== this.build ||
      header.path !== manifestPath ||
      (header.stat !== fingerprint(st) && header.hash !== hashOf())
    ) {
      blobs.close();
      return undefined;
    }
    const projects = header.manifest.workspace?.projects;
    if (projects?.length) thawProjects(projects, blobs.reader());
    else blobs.close();
    return { manifest: header.manifest, legacy: header.legacy };
  }

  /** Stores a validated manifest; `st` is the stat taken before the file was read and hashed. */
  set(manifestPath: string, st: Stats, hash: string, manifest: Manifest, legacy: unknown[]): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const blobs: Buffer[] = [];
      let offset = 0;
      const header: CacheHeader = {
        format: CACHE_FORMAT,
        build: this.build,
        path: manifestPath,
        hash,
        ...(this.now() - Math.max(st.mtimeMs, st.ctimeMs) > RACY_MS ? { stat: fingerprint(st) } : {}),
        manifest: withBlobRefs(manifest, (components) => {
          const blob = Buffer.from(JSON.stringify(components), 'utf8');
          blobs.push(blob);
          offset += blob.length;
          return [offset - blob.length, blob.length];
        }),
        legacy,
      };
      writeFileAtomicSync(
        this.fileFor(manifestPath),
        Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), ...blobs]),
      );
    } catch {
      // A read-only cache dir only costs speed.
    }
  }
}

/** The manifest with each project's repos (and each repo's components) replaced by references into the blob area. */
function withBlobRefs(manifest: Manifest, store: (value: unknown) => [number, number]): Manifest {
  const projects = manifest.workspace?.projects;
  if (!projects) return manifest;
  return {
    ...manifest,
    workspace: {
      ...manifest.workspace,
      projects: projects.map((p) => {
        const entries = p.repos.map((r) => (r.components ? renamed(r, 'components', BLOB, store) : r));
        const checkouts = p.repos.map((r) => checkoutOf(p, r));
        return { ...renamed({ ...p, repos: entries }, 'repos', REPOS, store), [CHECKOUTS]: checkouts };
      }),
    },
  };
}

/** `value` with `key` replaced, in place (key order kept), by `ref` holding where its stored value sits. */
function renamed<T extends object>(
  value: T,
  key: string,
  ref: string,
  store: (v: unknown) => [number, number],
): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k === key ? ref : k] = k === key ? store(v) : v;
  return out as T;
}

/** The projects with their `repos` (and the repos' `components`) as getters that parse their blob on first use. */
function thawProjects(projects: ProjectEntry[], read: ReadBlob): void {
  for (let i = 0; i < projects.length; i++) {
    const { [CHECKOUTS]: checkouts, ...stored } = projects[i] as ProjectEntry & {
      [CHECKOUTS]?: CachedCheckout[];
    };
    const project: ProjectEntry = thawed(
      stored as ProjectEntry,
      'repos',
      REPOS,
      read,
      (repos: RepoEntry[]) => {
        repoListThaws++;
        return repos.map((r) => thawed(r, 'components', BLOB, read, (components) => components));
      },
      // Assigned repos no longer match the stored checkouts.
      () => checkoutLists.delete(project),
    );
    if (checkouts) checkoutLists.set(project, checkouts);
    projects[i] = project;
  }
}

/**
 * `target` with the reference `ref` replaced, at its place in key order, by an enumerable `key` whose value is
 * read and parsed from the blob area on first access (and may be assigned like a plain field).
 */
function thawed<T extends object, V>(
  target: T,
  key: string,
  ref: string,
  read: ReadBlob,
  thaw: (value: V) => V,
  onSet?: () => void,
): T {
  const record = target as Record<string, unknown>;
  const at = record[ref] as [number, number] | undefined;
  if (!at) return target;
  let parsed: V | undefined;
  let done = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    if (k !== ref) {
      out[k] = v;
      continue;
    }
    Object.defineProperty(out, key, {
      enumerable: true,
      configurable: true,
      get() {
        if (!done) {
          parsed = thaw(JSON.parse(read(at[0], at[1])) as V);
          done = true;
        }
        return parsed;
      },
      set(v: V) {
        parsed = v;
        done = true;
        onSet?.();
      },
    });
  }
  return out as T;
}

/** Reads `length` bytes at `offset` of the blob area, as text. */
type ReadBlob = (offset: number, length: number) => string;

/** The header line may not be longer than this (a corrupt file without a newline is not read whole). */
const MAX_HEADER = 256 * 1_048_576;

/** Closes a cache file's descriptor once nothing can read a blob from it any more. */
const descriptors = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
});

/**
 * A cache file read by position: the header line first, then only the blobs a command touches (a resolve in one
 * repository reads a few kilobytes of a 20 MB file). The descriptor stays open while a lazy field may still read:
 * a writer replaces the file by rename, so the open file keeps the bytes the header describes.
 */
class BlobFile {
  private readonly fd: number;
  private body = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'r');
  }

  header(): string {
    const chunks: Buffer[] = [];
    let pos = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(65_536, pos), 16 * 1_048_576));
      const n = readSync(this.fd, chunk, 0, chunk.length, pos);
      if (n === 0) throw new Error('cache file without a header line');
      const nl = chunk.subarray(0, n).indexOf(10);
      if (nl !== -1) {
        chunks.push(chunk.subarray(0, nl));
        this.body = pos + nl + 1;
        return Buffer.concat(chunks).toString('utf8');
      }
      chunks.push(chunk.subarray(0, n));
      pos += n;
      if (pos > MAX_HEADER) throw new Error('cache header too long');
    }
  }

  /** The blob reader; the descriptor is closed when the reader (and every lazy field holding it) is collected. */
  reader(): ReadBlob {
    const { fd, body } = this;
    const read: ReadBlob = (offset, length) => {
      const buf = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const n = readSync(fd, buf, done, length - done, body + offset + done);
        if (n === 0) throw new Error('cache file shorter than its header says');
        done += n;
      }
      return buf.toString('utf8');
    };
    descriptors.register(read, fd);
    return read;
  }

  close(): void {
    closeSync(this.fd);
  }
}
