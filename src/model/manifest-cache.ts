import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex, writeFileAtomicSync } from '../infra/index.js';
import type { Manifest } from './manifest-schema.js';

/** Bumped whenever the cached shape changes; the build id covers schema changes between releases. */
const CACHE_FORMAT = 2;

interface CacheEntry {
  format: number;
  build: string;
  hash: string;
  manifest: Manifest;
  legacy: unknown[];
}

/**
 * Cache of parsed, validated manifests keyed by the file's content hash, so that reads skip YAML parsing
 * (the `yaml` package parses ~0.7 MB/s). Lives in the user cache dir, never in the workspace.
 */
export class ManifestCache {
  constructor(
    private readonly dir: string,
    private readonly build: string,
  ) {}

  private fileFor(manifestPath: string): string {
    return join(this.dir, `${sha256Hex(manifestPath).slice(0, 32)}.json`);
  }

  get(manifestPath: string, hash: string): { manifest: Manifest; legacy: unknown[] } | undefined {
    try {
      const entry = JSON.parse(readFileSync(this.fileFor(manifestPath), 'utf8')) as CacheEntry;
      if (entry.format !== CACHE_FORMAT || entry.build !== this.build || entry.hash !== hash)
        return undefined;
      for (const p of entry.manifest.workspace?.projects ?? []) for (const r of p.repos) thaw(r);
      return { manifest: entry.manifest, legacy: entry.legacy };
    } catch {
      return undefined;
    }
  }

  set(manifestPath: string, hash: string, manifest: Manifest, legacy: unknown[]): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const entry: CacheEntry = {
        format: CACHE_FORMAT,
        build: this.build,
        hash,
        manifest: freeze(manifest),
        legacy,
      };
      writeFileAtomicSync(this.fileFor(manifestPath), JSON.stringify(entry));
    } catch {
      // A read-only cache dir only costs speed.
    }
  }
}

type RepoEntry = NonNullable<NonNullable<Manifest['workspace']>['projects']>[number]['repos'][number];
const FROZEN = '$components_json';

/** Stores each repo's components as a JSON string, so a read parses only the repositories it touches. */
function freeze(manifest: Manifest): Manifest {
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
          return { ...rest, [FROZEN]: JSON.stringify(components) } as unknown as RepoEntry;
        }),
      })),
    },
  };
}

/** Turns the frozen string back into `components`, parsed on first access (an enumerable getter). */
function thaw(repo: RepoEntry): void {
  const raw = (repo as unknown as Record<string, unknown>)[FROZEN];
  if (typeof raw !== 'string') return;
  delete (repo as unknown as Record<string, unknown>)[FROZEN];
  let parsed: RepoEntry['components'];
  Object.defineProperty(repo, 'components', {
    enumerable: true,
    configurable: true,
    get() {
      parsed ??= JSON.parse(raw) as RepoEntry['components'];
      return parsed;
    },
    set(v: RepoEntry['components']) {
      parsed = v;
    },
  });
}
