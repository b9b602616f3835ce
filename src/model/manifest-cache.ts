import { mkdirSync, readFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { fnv1a64Hex, writeFileAtomicSync } from '../infra/index.js';
import type { Manifest } from './manifest-schema.js';

/** Bumped whenever the cached shape changes; the build id covers schema changes between releases. */
const CACHE_FORMAT = 4;

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

type RepoEntry = NonNullable<NonNullable<Manifest['workspace']>['projects']>[number]['repos'][number];
/** Where a repo's components sit in the blob area: [byte offset, byte length]. */
const BLOB = '$components_at';

/**
 * Cache of parsed, validated manifests keyed by the file's content hash, so that reads skip YAML parsing
 * (the `yaml` package parses ~0.7 MB/s). Lives in the user cache dir, never in the workspace.
 *
 * A cache file is one line of JSON (the manifest without its components) and then the components of every
 * repository as raw JSON blobs. A read parses the line and only the blobs of the repositories it touches, so a
 * 1,000-repository manifest costs a small JSON.parse, not one of the whole file.
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
    for (const p of header.manifest.workspace?.projects ?? [])
      for (const r of p.repos) thawFrom(r, buf, body);
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

/** The manifest with each repo's components replaced by a reference into the blob area. */
function withBlobRefs(manifest: Manifest, store: (components: unknown) => [number, number]): Manifest {
  const projects = manifest.workspace?.projects;
  if (!projects) return manifest;
  return {
    ...manifest,
    workspace: {
      ...manifest.workspace,
      projects: projects.map((p) => ({
        ...p,
        repos: p.repos.map((r) => {
          if (!r.components) return r;
          const { components, ...rest } = r;
          return { ...rest, [BLOB]: store(components) } as unknown as RepoEntry;
        }),
      })),
    },
  };
}

/** Gives the repo its `components` back as an enumerable getter that parses the blob on first access. */
function thawFrom(repo: RepoEntry, buf: Buffer, body: number): void {
  const record = repo as unknown as Record<string, unknown>;
  const at = record[BLOB] as [number, number] | undefined;
  if (!at) return;
  delete record[BLOB];
  let parsed: RepoEntry['components'];
  Object.defineProperty(repo, 'components', {
    enumerable: true,
    configurable: true,
    get() {
      parsed ??= JSON.parse(buf.toString('utf8', body + at[0], body + at[0] + at[1]));
      return parsed;
    },
    set(v: RepoEntry['components']) {
      parsed = v;
    },
  });
}
