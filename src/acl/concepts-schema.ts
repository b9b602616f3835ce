import * as z from 'zod';
import { repoKey } from './repository-ref.js';

/**
 * The concepts collection: `concepts/catalog` holds the definitions (one list for the workspace) and
 * `concepts/<repo key>` the ownerships of one repository (which paths implement which concept). `catalog` is never
 * a repository key: those are `<project>~<repo>` or `self`.
 */
export const CONCEPTS_COLLECTION = 'concepts';
export const CONCEPT_CATALOG_DOCUMENT = `${CONCEPTS_COLLECTION}/catalog`;

/** The store name of a repository's ownerships: `concepts/platform~identity`. */
export function ownershipsDocument(repository: string): string {
  return `${CONCEPTS_COLLECTION}/${repoKey(repository)}`;
}

/** Where an ownership came from: declared by hand, ingested (CODEOWNERS, hints file) or seeded from the catalog. */
export const OWNERSHIP_SOURCES = ['manual', 'ingest', 'seed'] as const;
export type OwnershipSource = (typeof OWNERSHIP_SOURCES)[number];

/** Rule of concept ids: lowercase words of the name (`CI/CD` -> `cicd`, `Auth Flow` -> `auth-flow`). */
export const CONCEPT_ID_RE = /^[a-z0-9](?:[a-z0-9._-]{0,126}[a-z0-9])?$/;

// Stored records are loose: keys written by other tools (whole-document PUT) survive a read-modify-write.
export const ConceptSchema = z.looseObject({
  concept_id: z.string().min(1),
  name: z.string().min(1),
  description: z.string().optional(),
  aliases: z.array(z.string()).default([]),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Concept = z.infer<typeof ConceptSchema>;
export const ConceptCatalogSchema = z.looseObject({ concepts: z.array(ConceptSchema).default([]) });
export type ConceptCatalog = z.infer<typeof ConceptCatalogSchema>;

export const OwnershipSchema = z.looseObject({
  ownership_id: z.string().min(1),
  concept_id: z.string().min(1),
  repository: z.string().min(1),
  /** Repository-relative globs in the glob engine's normal form. */
  patterns: z.array(z.string()),
  source: z.string(),
  /** What an ingested or seeded ownership was read from (`.github/CODEOWNERS`, `component api`). */
  origin: z.string().optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Ownership = z.infer<typeof OwnershipSchema>;
export const OwnershipsDocSchema = z.looseObject({ ownerships: z.array(OwnershipSchema).default([]) });
export type OwnershipsDoc = z.infer<typeof OwnershipsDocSchema>;

/** A pattern pair of an ownership and a requested or claimed pattern, with a path both match. */
export interface ConceptPatternOverlap {
  /** The requested (claim check) or claimed (conflicts) pattern. */
  pattern: string;
  owned_pattern: string;
  witness: string | null;
}

/** Advisory: a concept whose ownership overlaps the patterns a claim asks for. Never a conflict. */
export interface ConceptHint {
  concept_id: string;
  concept_name: string;
  repository: string;
  ownership_id: string;
  source: string;
  overlapping_patterns: ConceptPatternOverlap[];
  /** `claim touches concept auth (owned by services/api/plugins/auth/**): both match …`. */
  reason: string;
}

/** Several live claiming agents overlap the paths of one concept. */
export interface ConceptConflict {
  concept_id: string;
  concept_name: string;
  repository: string;
  agent_ids: string[];
  claim_ids: string[];
  overlapping_patterns: Array<ConceptPatternOverlap & { claim_id: string; agent_id: string }>;
}
