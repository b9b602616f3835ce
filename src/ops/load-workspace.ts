import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import envPaths from 'env-paths';
import { Catalog, validateCatalog } from '../catalog/index.js';
import { readFileBounded, sha256Hex, ValidationError } from '../infra/index.js';
import {
  DEFAULT_MANIFEST_MAX_BYTES,
  decodeUtf8,
  type LegacyRename,
  locateManifest,
  ManifestCache,
  type ManifestFile,
  manifestByteLimit,
  manifestTooLarge,
  parseManifestText,
} from '../model/index.js';
import { indexedNames } from '../org/index.js';
import { BUILD_ID } from './build-info.js';
import type { Workspace } from './context.js';

export interface LoadOptions {
  cwd: string;
  definition?: string;
  env: Readonly<Record<string, string | undefined>>;
  /**
   * The configured manifest size limit (`workspace.manifest_max_bytes`), asked only for a manifest larger than
   * the default; without it the default holds.
   */
  manifestMaxBytes?: () => number;
}

/** Where parsed manifests are cached: HUB_CACHE_DIR, else the user cache dir; `off` disables it. */
export function cacheDir(env: LoadOptions['env']): string | undefined {
  const v = env.HUB_CACHE_DIR;
  if (v === 'off' || BUILD_ID === 'dev') return undefined;
  return v ? v : join(envPaths('hub', { suffix: '' }).cache, 'manifests');
}

/**
 * Loads the manifest, builds the catalog and applies every rule that needs no filesystem access.
 * A valid manifest is cached by content hash, so the next process skips YAML parsing entirely.
 */
export function loadWorkspace(opts: LoadOptions): Workspace {
  const path = locateManifest(opts.cwd, opts.definition);
  // Stat before reading: a cache entry keyed by this stat then never vouches for newer content.
  const st = statSync(path);
  const maxBytes = manifestByteLimit(st.size, opts.manifestMaxBytes);
  // A file over the limit is refused before it is read into memory.
  if (st.size > maxBytes) throw manifestTooLarge(path, st.size, maxBytes);
  let bytes: Buffer | undefined;
  let hash: string | undefined;
  const hashOf = () => {
    bytes ??= readManifestBytes(path, maxBytes);
    hash ??= sha256Hex(bytes);
    return hash;
  };
  const dir = cacheDir(opts.env);
  const cache = dir ? new ManifestCache(dir, BUILD_ID) : undefined;
  const hit = cache?.get(path, st, hashOf);
  if (hit) {
    const file: ManifestFile = {
      path,
      root: dirname(path),
      manifest: hit.manifest,
      legacy: hit.legacy as LegacyRename[],
      maxBytes,
    };
    return { file, catalog: new Catalog(file), explicitDefinition: Boolean(opts.definition) };
  }
  hashOf();
  const file = parseManifestText(decodeUtf8(bytes!, path, 'manifest'), path, { maxBytes });
  const catalog = new Catalog(file);
  const indexed = indexedNames(file.root);
  const problems = validateCatalog(catalog, { filesystem: false, externalRepo: indexed.has });
  if (problems.length > 0) {
    const first = problems[0]!;
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more; run \`hub config validate\`)` : '';
    throw new ValidationError(
      `manifest ${path}: ${first.line ? `line ${first.line}, ` : ''}${first.path}: ${first.message}${more}`,
      {
        file: path,
        issues: problems,
      },
    );
  }
  // A manifest that is valid only because of the org index is not cached: the cache would vouch for it after the
  // index changed.
  if (!indexed.consulted) cache?.set(path, st, hash!, file.manifest, file.legacy);
  return { file, catalog, explicitDefinition: Boolean(opts.definition) };
}

/**
 * The manifest's bytes: a regular file only (a `.hub.yml` that is a FIFO or a symlink to /dev/zero is refused at
 * once), at most the YAML size limit counted on the bytes read. Symlinks are followed: the manifest was named by
 * the user or found where they work.
 */
export function readManifestBytes(path: string, maxBytes = DEFAULT_MANIFEST_MAX_BYTES): Buffer {
  return readFileBounded(path, { maxBytes, field: 'manifest' });
}
