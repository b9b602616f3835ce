import { atlasPlace, noAtlas } from './atlas-dir.js';
import { FIXED_FILES } from './layout.js';
import { type AtlasIssue, listAtlas, loadAtlas } from './load.js';

export interface AtlasValidation {
  ok: boolean;
  path: string;
  files: number;
  entities: number;
  relations: number;
  errors: AtlasIssue[];
  warnings: AtlasIssue[];
}

/** Most issues of each severity a validation lists. */
export const MAX_LISTED_ISSUES = 200;

/**
 * Checks every file of `.atlas/` against the JSON Schema of its role (schemas/atlas/), the layout (no symbolic
 * links, no files it does not know, bounds on size, depth and list lengths), unique ids whose prefix is their kind,
 * relations between known entities, and generated files unchanged since generation (their content hashes).
 */
export function validateAtlas(cwd: string, path: string | undefined, confine?: string): AtlasValidation {
  const place = atlasPlace(cwd, path, confine);
  if (!place.exists) throw noAtlas(path);
  const listing = listAtlas(place.dir);
  const loaded = loadAtlas(place.dir, listing);
  const issues = [...loaded.issues];
  for (const [file, hash] of Object.entries(loaded.manifests?.contentHashes ?? {})) {
    if (loaded.hashes[file] !== undefined && loaded.hashes[file] !== hash)
      issues.push({
        severity: 'warning',
        file,
        rule: 'content_hash',
        message:
          'changed after generation; `hub atlas generate` rewrites it (curate in ontology/, intent/, mappings/ or overrides/)',
      });
  }
  for (const f of Object.keys(FIXED_FILES))
    if (!f.startsWith('generated/') && f !== 'atlas.yaml' && !listing.files.includes(f))
      issues.push({
        severity: 'warning',
        file: f,
        rule: 'layout',
        message: 'is missing; `hub atlas init` creates the layout',
      });
  const errors = issues.filter((i) => i.severity === 'error');
  const warnings = issues.filter((i) => i.severity === 'warning');
  return {
    ok: errors.length === 0,
    path: place.root,
    files: listing.files.length,
    entities: loaded.entities.size,
    relations: loaded.relations.length,
    errors: errors.slice(0, MAX_LISTED_ISSUES),
    warnings: warnings.slice(0, MAX_LISTED_ISSUES),
  };
}
