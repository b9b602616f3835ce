import * as z from 'zod';
import {
  AccessPolicySchema,
  AtlasFileSchema,
  ClassificationsFileSchema,
  EntityFileSchema,
  ExternalIdsFileSchema,
  FederationFileSchema,
  GenerationPolicySchema,
  IndexFileSchema,
  InventoryFileSchema,
  LinksFileSchema,
  ManifestsFileSchema,
  MappingsFileSchema,
  SuppressionsFileSchema,
} from './schemas.js';

export const ATLAS_DIR = '.atlas';

/** What a file under `.atlas/` holds, which schema checks it, and whether generation owns it. */
export interface FileRole {
  schema: z.ZodType;
  /** The shipped JSON Schema's file name under `schemas/atlas/`. */
  schemaFile: string;
  holds: 'atlas' | 'entities' | 'mappings' | 'links' | 'other' | 'inventory' | 'manifests';
  generated: boolean;
}

const role = (
  schema: z.ZodType,
  schemaFile: string,
  holds: FileRole['holds'],
  generated = false,
): FileRole => ({ schema, schemaFile, holds, generated });

const ENTITIES = role(EntityFileSchema, 'entities.schema.json', 'entities');

/** Every fixed file of the layout, by its path under `.atlas/`. */
export const FIXED_FILES: Readonly<Record<string, FileRole>> = {
  'atlas.yaml': role(AtlasFileSchema, 'atlas.schema.json', 'atlas'),
  'ontology/domain.yaml': ENTITIES,
  'ontology/concepts.yaml': ENTITIES,
  'ontology/capabilities.yaml': ENTITIES,
  'generated/inventory.yaml': role(InventoryFileSchema, 'inventory.schema.json', 'inventory', true),
  'generated/symbols.yaml': role(EntityFileSchema, 'entities.schema.json', 'entities', true),
  'generated/verifications.yaml': role(EntityFileSchema, 'entities.schema.json', 'entities', true),
  'generated/manifests.yaml': role(ManifestsFileSchema, 'manifests.schema.json', 'manifests', true),
  'mappings/semantic-to-evidence.yaml': role(MappingsFileSchema, 'mappings.schema.json', 'mappings'),
  'mappings/external-ids.yaml': role(ExternalIdsFileSchema, 'external-ids.schema.json', 'other'),
  'overrides/classifications.yaml': role(ClassificationsFileSchema, 'classifications.schema.json', 'other'),
  'overrides/links.yaml': role(LinksFileSchema, 'links.schema.json', 'links'),
  'overrides/suppressions.yaml': role(SuppressionsFileSchema, 'suppressions.schema.json', 'other'),
  'policy/access.yaml': role(AccessPolicySchema, 'access-policy.schema.json', 'other'),
  'policy/generation.yaml': role(GenerationPolicySchema, 'generation-policy.schema.json', 'other'),
};

/** Folders whose every `*.yaml` is a file of the given role. */
export const FOLDER_FILES: ReadonlyArray<{ dir: string; role: FileRole }> = [
  { dir: 'ontology/extensions', role: ENTITIES },
  { dir: 'intent/contracts', role: ENTITIES },
  { dir: 'intent/invariants', role: ENTITIES },
  { dir: 'intent/decisions', role: ENTITIES },
  { dir: 'intent/risks', role: ENTITIES },
  { dir: 'intent/ownership', role: ENTITIES },
  { dir: 'federation', role: role(FederationFileSchema, 'federation.schema.json', 'other') },
  // Reserved for later extractors: generated, never curated.
  { dir: 'generated/imports', role: role(EntityFileSchema, 'entities.schema.json', 'entities', true) },
];

/** Reserved generated files a later extractor fills; read as entity files when present. */
export const RESERVED_FILES = ['generated/interfaces.yaml', 'generated/dependencies.yaml'];

/** The files `atlas generate` writes; `missing` when one is absent. */
export const GENERATED_FILES = [
  'generated/inventory.yaml',
  'generated/symbols.yaml',
  'generated/verifications.yaml',
  'generated/manifests.yaml',
] as const;

export const INDEX_FILE = 'index/entities.json';
export const INDEX_SCHEMA = role(IndexFileSchema, 'index.schema.json', 'other');

/** The role of a file under `.atlas/` (POSIX relative path), or undefined for a file the layout does not know. */
export function roleOf(rel: string): FileRole | undefined {
  const fixed = FIXED_FILES[rel];
  if (fixed) return fixed;
  if (RESERVED_FILES.includes(rel)) return role(EntityFileSchema, 'entities.schema.json', 'entities', true);
  if (!rel.endsWith('.yaml')) return undefined;
  const dir = rel.slice(0, rel.lastIndexOf('/'));
  return FOLDER_FILES.find((f) => f.dir === dir)?.role;
}

/** Every JSON Schema shipped under `schemas/atlas/`, by file name. */
export function atlasSchemas(): Record<string, z.ZodType> {
  const out: Record<string, z.ZodType> = {};
  for (const r of [...Object.values(FIXED_FILES), ...FOLDER_FILES.map((f) => f.role), INDEX_SCHEMA])
    out[r.schemaFile] = r.schema;
  return out;
}

/** `Symbol` -> `symbol`, `DomainConcept` -> `domain_concept`: the id prefix of a kind. */
export function kindPrefix(kind: string): string {
  return kind.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? '' : '_') + c.toLowerCase());
}

/** The JSON Schemas shipped under `schemas/atlas/`, generated from the zod schemas `validate` checks with. */
export function atlasJsonSchemas(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [file, schema] of Object.entries(atlasSchemas()))
    out[file] = {
      ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }),
      $id: `https://hub-workspace.dev/schemas/atlas/${file}`,
      title: `hub atlas: ${file.replace('.schema.json', '')}`,
    };
  return out;
}
