import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { atlasPlace } from './atlas-dir.js';
import { GENERATED_FILES } from './layout.js';
import { currentHashes, type LoadedAtlas, listAtlas, loadAtlas } from './load.js';
import type { Inventory } from './schemas.js';
import { scanSources } from './sources.js';

/** How many changed paths of each sort a status lists (the counts are always whole). */
export const STATUS_LIST_LIMIT = 20;

export interface SourceChanges {
  added: string[];
  removed: string[];
  modified: string[];
  counts: { added: number; removed: number; modified: number };
}

export interface AtlasStatus {
  path: string;
  atlas: 'present' | 'absent';
  repository: string | null;
  /** `missing` when a generated file is absent, `stale` when the sources or a generated file changed since. */
  generated: 'fresh' | 'stale' | 'missing';
  invalidation_reason: string | null;
  /** What atlas.yaml records (`sources.generated`); `generate` sets it to fresh. */
  recorded: string | null;
  revision: string | null;
  source_fingerprint: { recorded: string; current: string } | null;
  changes?: SourceChanges;
  /** Why the generated files were last rebuilt (manifests.yaml). */
  last_reason: string | null;
}

/** What changed between the inventory and the sources now: paths added, removed and modified. */
export function diffSources(
  inventory: Inventory | undefined,
  now: ReadonlyArray<{ path: string; sha256: string }>,
): SourceChanges {
  const before = new Map((inventory?.files ?? []).map((f) => [f.path, f.sha256]));
  const added: string[] = [];
  const modified: string[] = [];
  for (const f of now) {
    const h = before.get(f.path);
    if (h === undefined) added.push(f.path);
    else if (h !== f.sha256) modified.push(f.path);
    before.delete(f.path);
  }
  const removed = [...before.keys()];
  const cut = (a: string[]) => a.slice(0, STATUS_LIST_LIMIT);
  return {
    added: cut(added),
    removed: cut(removed),
    modified: cut(modified),
    counts: { added: added.length, removed: removed.length, modified: modified.length },
  };
}

function describe(c: SourceChanges): string {
  const parts = (['modified', 'added', 'removed'] as const)
    .filter((k) => c.counts[k] > 0)
    .map((k) => `${c.counts[k]} ${k} (${c[k].slice(0, 3).join(', ')}${c.counts[k] > 3 ? ', ...' : ''})`);
  return `sources changed since generation: ${parts.join('; ') || 'the fingerprint differs'}`;
}

/**
 * The freshness rule: `missing` when any generated file is absent; `stale` when a generated file was edited after
 * generation (its content hash) or the source fingerprint differs (with the changed paths); else `fresh`.
 */
export async function atlasStatus(
  cwd: string,
  path: string | undefined,
  confine?: string,
): Promise<AtlasStatus> {
  const place = atlasPlace(cwd, path, confine);
  const base = {
    path: place.root,
    repository: null,
    recorded: null,
    revision: null,
    source_fingerprint: null,
    last_reason: null,
  };
  if (!place.exists)
    return {
      ...base,
      atlas: 'absent',
      generated: 'missing',
      invalidation_reason: `no .atlas/ folder; run \`hub atlas init --generate\``,
    };
  // Only what the rule reads is parsed; the symbol and test files are judged by their content hashes.
  const listing = listAtlas(place.dir);
  const wanted = new Set([
    'atlas.yaml',
    'generated/manifests.yaml',
    'generated/inventory.yaml',
    'policy/generation.yaml',
  ]);
  const loaded: LoadedAtlas = loadAtlas(place.dir, {
    ...listing,
    files: listing.files.filter((f) => wanted.has(f)),
  });
  const hashes = currentHashes(place.dir, listing).hashes;
  const head = {
    ...base,
    atlas: 'present' as const,
    repository: loaded.atlas?.repository ?? null,
    recorded: loaded.atlas?.sources.generated ?? null,
    revision: loaded.manifests?.revision ?? null,
    last_reason: loaded.manifests?.invalidationReason ?? null,
  };
  const absent = GENERATED_FILES.find((f) => !existsSync(join(place.dir, f)));
  if (absent) return { ...head, generated: 'missing', invalidation_reason: `${absent} is missing` };
  const broken = loaded.issues.find(
    (i) => i.severity === 'error' && (GENERATED_FILES as readonly string[]).includes(i.file),
  );
  if (broken || !loaded.manifests || !loaded.inventory)
    return {
      ...head,
      generated: 'stale',
      invalidation_reason: broken ? `${broken.file}: ${broken.message}` : 'generated files unreadable',
    };
  const edited = Object.entries(loaded.manifests.contentHashes).find(([f, h]) => hashes[f] !== h);
  if (edited)
    return {
      ...head,
      generated: 'stale',
      invalidation_reason: `${edited[0]} was changed after generation (content hash differs)`,
    };
  const policy = loaded.other['policy/generation.yaml'] as
    | { maxFileBytes?: number; exclude?: string[] }
    | undefined;
  const scan = await scanSources(place.root, {
    maxFileBytes: policy?.maxFileBytes,
    exclude: policy?.exclude,
  });
  const fp = { recorded: loaded.manifests.sourceFingerprint, current: scan.fingerprint };
  if (fp.recorded === fp.current)
    return { ...head, generated: 'fresh', invalidation_reason: null, source_fingerprint: fp };
  const changes = diffSources(loaded.inventory, scan.files);
  return {
    ...head,
    generated: 'stale',
    invalidation_reason: describe(changes),
    source_fingerprint: fp,
    changes,
  };
}
