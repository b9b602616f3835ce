import { findBoundsViolation, tryReadFileBounded } from '../infra/index.js';
import { INDEX_FILE } from './layout.js';
import type { LoadedAtlas } from './load.js';
import { ATLAS_FORMAT_VERSION, type AtlasIndex, IndexFileSchema } from './schemas.js';

/** Most bytes of the index a query will read (a repository of 200,000 symbols stays well below). */
const MAX_INDEX_BYTES = 128 * 1024 * 1024;

export type IndexEntry = AtlasIndex['entities'][number];

/** The index row of an entity: where it is declared (file and line for generated ones) and which file holds it. */
export function indexEntry(e: LoadedAtlas['entities'] extends Map<string, infer V> ? V : never): IndexEntry {
  const spec = e.entity.spec as { file?: unknown; line?: unknown };
  return {
    id: e.entity.metadata.id,
    kind: e.entity.kind,
    name: e.entity.metadata.name,
    ...(typeof spec.file === 'string' ? { file: spec.file } : {}),
    ...(typeof spec.line === 'number' ? { line: spec.line } : {}),
    source: e.entity.metadata.provenance.source,
    classification: e.entity.metadata.classification,
    at: e.file,
  };
}

/** The cache `index/entities.json`: every entity's row and every relation, with the hashes it was built from. */
export function buildIndex(loaded: LoadedAtlas): AtlasIndex {
  return {
    formatVersion: ATLAS_FORMAT_VERSION,
    builtFrom: Object.fromEntries(Object.entries(loaded.hashes).sort(([a], [b]) => (a < b ? -1 : 1))),
    entities: [...loaded.entities.values()].map(indexEntry).sort((a, b) => (a.id < b.id ? -1 : 1)),
    relations: loaded.relations.map(({ file: _f, ...r }) => r),
    maxServedClassification:
      (
        loaded.other['policy/access.yaml'] as
          | { maxServedClassification?: IndexEntry['classification'] }
          | undefined
      )?.maxServedClassification ?? 'internal',
    problems: loaded.issues
      .filter((i) => i.severity === 'error')
      .map((i) => ({ file: i.file, rule: i.rule, message: i.message })),
  };
}

/**
 * The index when it was built from exactly the YAML files now in `.atlas/` (same paths, same bytes); undefined
 * when it is missing, stale, unreadable or not of the index schema, and the caller reads the YAML instead.
 */
export function readFreshIndex(dir: string, currentHashes: Record<string, string>): AtlasIndex | undefined {
  const r = tryReadFileBounded(`${dir}/${INDEX_FILE}`, { maxBytes: MAX_INDEX_BYTES, root: dir });
  if (!r.ok) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(r.bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  // A clone may ship an index of its own: nothing nested deeper than the index's shape reaches zod.
  if (findBoundsViolation(value, { depth: 6, bytes: MAX_INDEX_BYTES })) return undefined;
  const parsed = IndexFileSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const built = parsed.data.builtFrom;
  const keys = Object.keys(currentHashes);
  if (keys.length !== Object.keys(built).length || keys.some((k) => built[k] !== currentHashes[k]))
    return undefined;
  return parsed.data;
}
