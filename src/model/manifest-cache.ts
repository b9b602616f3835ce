import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex, writeFileAtomicSync } from '../infra/index.js';
import type { Manifest } from './manifest-schema.js';

/** Bumped whenever the cached shape changes; the build id covers schema changes between releases. */
const CACHE_FORMAT = 1;

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
      return { manifest: entry.manifest, legacy: entry.legacy };
    } catch {
      return undefined;
    }
  }

  set(manifestPath: string, hash: string, manifest: Manifest, legacy: unknown[]): void {
    try {
      mkdirSync(this.dir, { recursive: true });
      const entry: CacheEntry = { format: CACHE_FORMAT, build: this.build, hash, manifest, legacy };
      writeFileAtomicSync(this.fileFor(manifestPath), JSON.stringify(entry));
    } catch {
      // A read-only cache dir only costs speed.
    }
  }
}
