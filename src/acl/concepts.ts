import { didYouMean } from '../catalog/index.js';
import { newId } from '../coord/index.js';
import { ValidationError } from '../infra/index.js';
import { overlapPairs } from './claims-overlap.js';
import {
  CONCEPT_CATALOG_DOCUMENT,
  CONCEPT_ID_RE,
  type Concept,
  ConceptCatalogSchema,
  type Ownership,
  type OwnershipSource,
  OwnershipsDocSchema,
  ownershipsDocument,
} from './concepts-schema.js';
import { recordAclEvent } from './events.js';
import { type AclDeps, readAcl, updateAcl } from './records.js';

/** A concept's id from its name: lowercase, spaces to `-`, other characters outside `[a-z0-9._-]` dropped. */
export function conceptIdOf(name: string, field = 'concept'): string {
  const id = name
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '-')
    .replace(/[^a-z0-9._-]/g, '')
    .replace(/^[-._]+|[-._]+$/g, '');
  if (!CONCEPT_ID_RE.test(id))
    throw new ValidationError(
      `${field}: '${name}' gives no concept id; a concept name needs letters or digits (at most 128)`,
      { field, value: name, rule: CONCEPT_ID_RE.source },
    );
  return id;
}

export interface ConceptDeclaration {
  /** The concept's name as given (its id is derived). */
  concept: string;
  repository: string;
  /** Normalized patterns (at least one). */
  patterns: string[];
  description?: string;
  aliases?: string[];
  source?: OwnershipSource;
  origin?: string;
}

export interface ConceptDeclared {
  concept: Concept;
  ownership: Ownership;
  created_concept: boolean;
  created_ownership: boolean;
  added_patterns: string[];
}

/** Creates or refreshes a concept in the catalog (name, description, aliases merged); returns it. */
export async function upsertConcept(
  deps: AclDeps,
  input: { concept: string; concept_id?: string; description?: string; aliases?: string[] },
): Promise<{ concept: Concept; created: boolean }> {
  const id = input.concept_id ?? conceptIdOf(input.concept);
  return updateAcl(deps, CONCEPT_CATALOG_DOCUMENT, ConceptCatalogSchema, (doc) => {
    const at = deps.now().toISOString();
    const found = doc.concepts.find((c) => c.concept_id === id);
    if (found) {
      found.name = input.concept.trim();
      if (input.description !== undefined) found.description = input.description;
      for (const a of input.aliases ?? []) if (!found.aliases.includes(a)) found.aliases.push(a);
      found.updated_at = at;
      return { concept: found, created: false };
    }
    const concept: Concept = {
      concept_id: id,
      name: input.concept.trim(),
      ...(input.description === undefined ? {} : { description: input.description }),
      aliases: [...new Set(input.aliases ?? [])],
      created_at: at,
      updated_at: at,
    };
    doc.concepts.push(concept);
    return { concept, created: true };
  });
}

/**
 * Records that `patterns` of `repository` implement a concept: the concept is created or refreshed, then the
 * ownership keyed by (concept, source) in that repository. A manual declaration adds patterns to it; an ingested
 * or seeded one replaces them (it mirrors its source). Records `ConceptDeclared` (source semantic).
 */
export async function declareConcept(deps: AclDeps, input: ConceptDeclaration): Promise<ConceptDeclared> {
  const source = input.source ?? 'manual';
  const { concept, created } = await upsertConcept(deps, input);
  const ownershipId = newId('own');
  const step = await updateAcl(deps, ownershipsDocument(input.repository), OwnershipsDocSchema, (doc) => {
    const at = deps.now().toISOString();
    const found = doc.ownerships.find((o) => o.concept_id === concept.concept_id && o.source === source);
    if (found) {
      const added = input.patterns.filter((p) => !found.patterns.includes(p));
      found.patterns = source === 'manual' ? [...found.patterns, ...added] : [...input.patterns];
      if (input.origin !== undefined) found.origin = input.origin;
      found.updated_at = at;
      return { ownership: found, created: false, added };
    }
    const ownership: Ownership = {
      ownership_id: ownershipId,
      concept_id: concept.concept_id,
      repository: input.repository,
      patterns: [...input.patterns],
      source,
      ...(input.origin === undefined ? {} : { origin: input.origin }),
      created_at: at,
      updated_at: at,
    };
    doc.ownerships.push(ownership);
    return { ownership, created: true, added: [...input.patterns] };
  });
  await recordAclEvent(
    deps,
    'ConceptDeclared',
    input.repository,
    {
      concept_id: concept.concept_id,
      concept_name: concept.name,
      ownership_id: step.ownership.ownership_id,
      patterns: step.ownership.patterns,
      added_patterns: step.added,
      source,
    },
    'semantic',
  );
  return {
    concept,
    ownership: step.ownership,
    created_concept: created,
    created_ownership: step.created,
    added_patterns: step.added,
  };
}

/** The catalog of concepts, by id. */
export async function readConcepts(deps: AclDeps): Promise<Map<string, Concept>> {
  const { concepts } = await readAcl(deps, CONCEPT_CATALOG_DOCUMENT, ConceptCatalogSchema);
  return new Map(concepts.map((c) => [c.concept_id, c]));
}

/** The ownerships of one repository. */
export async function readOwnerships(deps: AclDeps, repository: string): Promise<Ownership[]> {
  return (await readAcl(deps, ownershipsDocument(repository), OwnershipsDocSchema)).ownerships;
}

/** The ownerships of every repository. */
export async function readAllOwnerships(deps: AclDeps): Promise<Ownership[]> {
  if (!deps.store.list) return [];
  const out: Ownership[] = [];
  for (const name of await deps.store.list('concepts')) {
    if (name === CONCEPT_CATALOG_DOCUMENT) continue;
    out.push(...(await readAcl(deps, name, OwnershipsDocSchema)).ownerships);
  }
  return out;
}

export interface ConceptQuery {
  query: string | null;
  found: boolean;
  concepts: Array<Concept & { ownerships: Ownership[] }>;
  /** Close concept names when the query named none. */
  suggestions: string[];
}

/**
 * One concept by id, name or alias (case-insensitive), with its ownerships in every repository; without a query,
 * every concept. A miss is `found: false` with close names, not an error.
 */
export async function queryConcepts(deps: AclDeps, query?: string): Promise<ConceptQuery> {
  const catalog = [...(await readConcepts(deps)).values()];
  const q = query?.trim().toLowerCase();
  const picked =
    q === undefined || q === ''
      ? catalog
      : catalog.filter(
          (c) =>
            c.concept_id === q || c.name.toLowerCase() === q || c.aliases.some((a) => a.toLowerCase() === q),
        );
  const owned = picked.length > 0 ? await readAllOwnerships(deps) : [];
  const concepts = picked
    .map((c) => ({ ...c, ownerships: owned.filter((o) => o.concept_id === c.concept_id) }))
    .sort((a, b) => a.concept_id.localeCompare(b.concept_id));
  const suggestions =
    q && picked.length === 0
      ? didYouMean(
          query!.trim(),
          catalog.map((c) => c.name),
        )
      : [];
  return { query: query ?? null, found: picked.length > 0, concepts, suggestions };
}

export interface ConceptOwner {
  concept_id: string;
  concept_name: string;
  ownership_id: string;
  source: string;
  patterns: string[];
  /** The ownership's patterns that cover the path (or overlap it, for a glob), each with a path both match. */
  matched: Array<{ owned_pattern: string; witness: string | null }>;
}

/** The concepts owning `path` (a normalized repository-relative path or glob) in one repository. */
export async function conceptOwners(
  deps: AclDeps,
  repository: string,
  path: string,
): Promise<ConceptOwner[]> {
  const [catalog, ownerships] = await Promise.all([readConcepts(deps), readOwnerships(deps, repository)]);
  const out: ConceptOwner[] = [];
  for (const o of ownerships) {
    const pairs = overlapPairs([path], o.patterns);
    if (pairs.length === 0) continue;
    out.push({
      concept_id: o.concept_id,
      concept_name: catalog.get(o.concept_id)?.name ?? o.concept_id,
      ownership_id: o.ownership_id,
      source: o.source,
      patterns: o.patterns,
      matched: pairs.map((p) => ({ owned_pattern: p.b, witness: p.witness })),
    });
  }
  return out;
}
