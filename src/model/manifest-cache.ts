import { mkdirSync, readFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { fnv1a64Hex, writeFileAtomicSync } from '../infra/index.js';
import type { Manifest } from './manifest-schema.js';

/** Bumped whenever the cached shape changes; the build id covers schema changes between releases. */
const CACHE_FORMAT = 5;

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

/**
 * Cache of parsed, validated manifests keyed by the file's content hash, so that reads skip YAML parsing
 * (the `yaml` package parses ~0.7 MB/s). Lives in the user cache dir, never in the workspace.
 *
 * A cache file is one line of JSON (the manifest without its projects' repositories) and then raw JSON blobs: per
 * project its repository entries, per repository its components. A read parses the line and only the blobs of the
 * projects and repositories it touches, so resolving a path in one repository of a 20,000-repository manifest
 * parses one project's entries and one repository's components, not a 3 MB header.
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
    let buf: Buffer;
    let header: CacheHeader;
    let body: number;
    try {
      buf = readFileSync(this.fileFor(manifestPath));
      body = buf.indexOf(10) + 1;
      if (body === 0) return undefined;
      header = JSON.parse(buf.toString('utf8', 0, body - 1)) as CacheHeader;
    } catch {
      return undefined;
    }
    if (header.format !== CACHE_FORMAT || header.build !== this.build || header.path !== manifestPath)
      return undefined;
    if (header.stat !== fingerprint(st) && header.hash !== hashOf()) return undefined;
    const projects = header.manifest.workspace?.projects;
    if (projects) thawProjects(projects, buf, body);
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
        return renamed({ ...p, repos: entries }, 'repos', REPOS, store);
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
function thawProjects(projects: ProjectEntry[], buf: Buffer, body: number): void {
  for (let i = 0; i < projects.length; i++)
    projects[i] = thawed(projects[i]!, 'repos', REPOS, buf, body, (repos: RepoEntry[]) =>
      repos.map((r) => thawed(r, 'components', BLOB, buf, body, (components) => components)),
    );
}

/**
 * `target` with the reference `ref` replaced, at its place in key order, by an enumerable `key` whose value is
 * parsed from the blob area on first access (and may be assigned like a plain field).
 */
function thawed<T extends object, V>(
  target: T,
  key: string,
  ref: string,
  buf: Buffer,
  body: number,
  thaw: (value: V) => V,
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
          parsed = thaw(JSON.parse(buf.toString('utf8', body + at[0], body + at[0] + at[1])) as V);
          done = true;
        }
        return parsed;
      },
      set(v: V) {
        parsed = v;
        done = true;
      },
    });
  }
  return out as T;
}
