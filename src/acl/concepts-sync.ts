import { join } from 'node:path';
import type { CatalogComponent } from '../catalog/index.js';
import { newId } from '../coord/index.js';
import { tryReadFileBounded } from '../infra/index.js';
import { folderGlob } from './claims-patterns.js';
import { conceptIdOf } from './concepts.js';
import {
  CODEOWNERS_PATHS,
  ownerConceptName,
  parseCodeOwners,
  type SkippedLine,
} from './concepts-codeowners.js';
import {
  CONCEPT_CATALOG_DOCUMENT,
  type Concept,
  ConceptCatalogSchema,
  type Ownership,
  OwnershipsDocSchema,
  ownershipsDocument,
} from './concepts-schema.js';
import { recordAclEvent } from './events.js';
import { type AclDeps, updateAcl } from './records.js';
import type { RepoTarget } from './repository-ref.js';

/** Largest CODEOWNERS file read (GitHub itself ignores files over 3 MB). */
export const MAX_CODEOWNERS_BYTES = 3 * 1024 * 1024;

/** One ownership a source says a repository has. */
export interface SourcedOwnership {
  concept_id: string;
  concept_name: string;
  patterns: string[];
  origin: string;
}

export interface SyncCounts {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
}

/** Creates the concepts the entries name that the catalog lacks (one write); existing ones are left as they are. */
async function ensureConcepts(deps: AclDeps, entries: readonly SourcedOwnership[]): Promise<void> {
  if (entries.length === 0) return;
  await updateAcl(deps, CONCEPT_CATALOG_DOCUMENT, ConceptCatalogSchema, (doc) => {
    const at = deps.now().toISOString();
    const known = new Set(doc.concepts.map((c) => c.concept_id));
    for (const e of entries) {
      if (known.has(e.concept_id)) continue;
      known.add(e.concept_id);
      const concept: Concept = {
        concept_id: e.concept_id,
        name: e.concept_name,
        aliases: [],
        created_at: at,
        updated_at: at,
      };
      doc.concepts.push(concept);
    }
  });
}

const samePatterns = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((p, i) => p === b[i]);

/**
 * Makes the ownerships of `source` in one repository exactly `entries` (one atomic write): an ingested or seeded
 * ownership mirrors its source, so one that the source no longer names is removed. Manual ones are never touched.
 */
export async function syncOwnerships(
  deps: AclDeps,
  repository: string,
  source: 'ingest' | 'seed',
  entries: readonly SourcedOwnership[],
): Promise<SyncCounts> {
  await ensureConcepts(deps, entries);
  const ids = entries.map(() => newId('own'));
  return updateAcl(deps, ownershipsDocument(repository), OwnershipsDocSchema, (doc) => {
    const at = deps.now().toISOString();
    const counts: SyncCounts = { added: 0, updated: 0, removed: 0, unchanged: 0 };
    const wanted = new Map(entries.map((e, i) => [e.concept_id, { e, id: ids[i]! }]));
    const kept: Ownership[] = [];
    for (const o of doc.ownerships) {
      if (o.source !== source) kept.push(o);
      else if (!wanted.has(o.concept_id)) counts.removed++;
      else {
        const { e } = wanted.get(o.concept_id)!;
        wanted.delete(o.concept_id);
        if (samePatterns(o.patterns, e.patterns) && o.origin === e.origin) counts.unchanged++;
        else {
          Object.assign(o, { patterns: [...e.patterns], origin: e.origin, updated_at: at });
          counts.updated++;
        }
        kept.push(o);
      }
    }
    for (const { e, id } of wanted.values()) {
      kept.push({
        ownership_id: id,
        concept_id: e.concept_id,
        repository,
        patterns: [...e.patterns],
        source,
        origin: e.origin,
        created_at: at,
        updated_at: at,
      });
      counts.added++;
    }
    doc.ownerships = kept;
    return counts;
  });
}

export interface IngestReport extends SyncCounts {
  repository: string;
  /** The CODEOWNERS file read (repository-relative), or null when the repository has none. */
  file: string | null;
  concepts: string[];
  skipped_lines: SkippedLine[];
  /** Why nothing was read, when nothing was (not checked out, unreadable file). */
  reason?: string;
}

/**
 * Ingests one repository's CODEOWNERS: each owner becomes a concept (`@org/auth` -> `org/auth`, id `org-auth`)
 * owning the patterns of its lines. The file is read as a regular file inside the checkout, at most 3 MB. Records
 * `ConceptIngested` (source semantic) when anything changed.
 */
export async function ingestCodeOwners(deps: AclDeps, target: RepoTarget): Promise<IngestReport> {
  const empty = { added: 0, updated: 0, removed: 0, unchanged: 0, concepts: [], skipped_lines: [] };
  if (!target.root) return { repository: target.id, file: null, ...empty, reason: 'not checked out' };
  let found: { file: string; text: string } | undefined;
  for (const rel of CODEOWNERS_PATHS) {
    const got = tryReadFileBounded(join(target.root, rel), {
      maxBytes: MAX_CODEOWNERS_BYTES,
      root: target.root,
      rootName: 'the repository',
    });
    if (got.ok) {
      found = { file: rel, text: got.bytes.toString('utf8') };
      break;
    }
    if (got.rule !== 'exists')
      return { repository: target.id, file: rel, ...empty, reason: `${rel} cannot be read: ${got.reason}` };
  }
  // No file: the ingested ownerships of an earlier file go (the source now names none).
  const parsed = found ? parseCodeOwners(found.text) : { owners: [], skipped: [] };
  const entries = parsed.owners.map((o) => {
    const name = ownerConceptName(o.owner);
    return {
      concept_id: conceptIdOf(name.replace(/[/@]/g, '-')),
      concept_name: name,
      patterns: o.patterns,
      origin: found!.file,
    };
  });
  const counts = await syncOwnerships(deps, target.id, 'ingest', entries);
  const report: IngestReport = {
    repository: target.id,
    file: found?.file ?? null,
    ...counts,
    concepts: entries.map((e) => e.concept_id),
    skipped_lines: parsed.skipped,
  };
  if (counts.added + counts.updated + counts.removed > 0)
    await recordAclEvent(
      deps,
      'ConceptIngested',
      target.id,
      { file: report.file, ...counts, concepts: report.concepts },
      'semantic',
    );
  return report;
}

export interface SeedReport extends SyncCounts {
  repository: string;
  concepts: string[];
  /** Components whose path cannot be claimed literally, with why. */
  skipped: Array<{ component: string; reason: string }>;
}

/**
 * Seeds one repository's ownerships from the catalog: each component becomes a concept of its name owning
 * `<component path>/**` (`**` for `.`). Records `ConceptSeeded` (source semantic) when anything changed.
 */
export async function seedFromComponents(
  deps: AclDeps,
  repository: string,
  components: readonly CatalogComponent[],
): Promise<SeedReport> {
  const entries: SourcedOwnership[] = [];
  const skipped: SeedReport['skipped'] = [];
  for (const c of components) {
    try {
      const id = conceptIdOf(c.name);
      const pattern = folderGlob(c.path);
      const same = entries.find((e) => e.concept_id === id);
      if (same) same.patterns.push(pattern);
      else
        entries.push({
          concept_id: id,
          concept_name: c.name,
          patterns: [pattern],
          origin: `component ${c.id}`,
        });
    } catch (err) {
      skipped.push({ component: c.id, reason: (err as Error).message });
    }
  }
  const counts = await syncOwnerships(deps, repository, 'seed', entries);
  if (counts.added + counts.updated + counts.removed > 0)
    await recordAclEvent(
      deps,
      'ConceptSeeded',
      repository,
      { ...counts, concepts: entries.map((e) => e.concept_id) },
      'semantic',
    );
  return { repository, ...counts, concepts: entries.map((e) => e.concept_id), skipped };
}
