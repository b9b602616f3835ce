import * as z from 'zod';

/** The API version every `.atlas/` file carries. */
export const ATLAS_API_VERSION = 'atlas.hub.dev/v1alpha1';
export const ATLAS_FORMAT_VERSION = 'v1alpha1';

/** `kind:local`: a snake_case kind, then letters, digits, `_`, `.` and `-`. */
export const ENTITY_ID_RE = /^[a-z][a-z0-9_]*:[A-Za-z0-9_.-]+$/;
export const KIND_RE = /^[A-Z][A-Za-z0-9]*$/;
export const RELATIONS = ['maps_to', 'implements', 'verified_by'] as const;
export const FRESHNESS = ['fresh', 'stale', 'unknown', 'missing'] as const;

const apiVersion = z.literal(ATLAS_API_VERSION);
const entityId = z.string().regex(ENTITY_ID_RE, 'an id is kind:local ([a-z][a-z0-9_]* : [A-Za-z0-9_.-]+)');
const label = z.string().max(256);

export const AtlasFileSchema = z.strictObject({
  apiVersion,
  repository: z.string().min(1).max(256),
  formatVersion: z.literal(ATLAS_FORMAT_VERSION),
  commitGenerated: z.boolean().default(true),
  sources: z.strictObject({ generated: z.enum(FRESHNESS) }),
});

export const EntitySchema = z.strictObject({
  apiVersion,
  kind: z.string().regex(KIND_RE, 'a kind is PascalCase ([A-Z][A-Za-z0-9]*)'),
  metadata: z.strictObject({
    id: entityId,
    name: z.string().min(1).max(512),
    lifecycle: z.enum(['proposed', 'active', 'deprecated', 'retired']).default('active'),
    classification: z.enum(['public', 'internal', 'confidential', 'restricted']).default('internal'),
    provenance: z.strictObject({
      source: z.enum(['curated', 'generated', 'imported']),
      /** The HEAD commit's time for generated entities (absent outside a git repository with commits). */
      updatedAt: z.string().optional(),
    }),
    owners: z.array(label).max(100).default([]),
    labels: z.record(z.string(), label).default({}),
  }),
  spec: z.record(z.string(), z.unknown()).default({}),
});

/** A file of entities: ontology, intent, generated symbols and verifications. */
export const EntityFileSchema = z.strictObject({
  apiVersion,
  observedAt: z.string().optional(),
  entities: z.array(EntitySchema).default([]),
});

export const RelationSchema = z.strictObject({
  from: entityId,
  relation: z.enum(RELATIONS),
  to: entityId,
  note: z.string().max(2000).optional(),
});

export const MappingsFileSchema = z.strictObject({
  apiVersion,
  mappings: z.array(RelationSchema).default([]),
});

export const ExternalIdsFileSchema = z.strictObject({
  apiVersion,
  externalIds: z
    .array(
      z.strictObject({
        id: entityId,
        system: z.string().min(1).max(128),
        value: z.string().min(1).max(512),
        url: z.string().max(2048).optional(),
      }),
    )
    .default([]),
});

export const ClassificationsFileSchema = z.strictObject({
  apiVersion,
  classifications: z
    .array(
      z.strictObject({
        id: entityId,
        classification: z.enum(['public', 'internal', 'confidential', 'restricted']),
      }),
    )
    .default([]),
});

export const LinksFileSchema = z.strictObject({ apiVersion, links: z.array(RelationSchema).default([]) });

export const SuppressionsFileSchema = z.strictObject({
  apiVersion,
  suppressions: z.array(z.strictObject({ id: entityId, reason: z.string().max(2000) })).default([]),
});

export const AccessPolicySchema = z.strictObject({
  apiVersion,
  /** The most sensitive classification an agent surface (MCP, HTTP) may be shown. */
  maxServedClassification: z.enum(['public', 'internal', 'confidential', 'restricted']).default('internal'),
});

export const GenerationPolicySchema = z.strictObject({
  apiVersion,
  /** Source files larger than this are skipped and counted (default 1 MiB). */
  maxFileBytes: z
    .number()
    .int()
    .min(1)
    .max(64 * 1024 * 1024)
    .optional(),
  /** Globs (picomatch, repository-relative) of paths to leave out, beside the built-in vendored and generated folders. */
  exclude: z.array(z.string().min(1).max(512)).max(1000).default([]),
});

export const FederationFileSchema = z.strictObject({
  apiVersion,
  repositories: z
    .array(z.strictObject({ name: z.string().min(1).max(256), url: z.string().max(2048).optional() }))
    .default([]),
});

export const SkippedSchema = z.strictObject({
  too_large: z.number().int(),
  binary: z.number().int(),
  generated: z.number().int(),
  vendored: z.number().int(),
  excluded: z.number().int(),
  unreadable: z.number().int(),
});

export const InventoryFileSchema = z.strictObject({
  apiVersion,
  observedAt: z.string().optional(),
  files: z
    .array(
      z.strictObject({
        path: z.string().min(1),
        language: z.string().nullable(),
        bytes: z.number().int().min(0),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .default([]),
  skipped: SkippedSchema,
});

export const ManifestsFileSchema = z.strictObject({
  apiVersion,
  revision: z.string().nullable(),
  observedAt: z.string().optional(),
  extractors: z.array(z.string()),
  contentHashes: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)),
  sourceFingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  invalidationReason: z.string().nullable(),
});

/** What `index/entities.json` (a gitignored cache) holds: enough to answer queries without parsing YAML. */
export const IndexFileSchema = z.strictObject({
  formatVersion: z.literal(ATLAS_FORMAT_VERSION),
  /** sha256 of every atlas YAML file the index was built from, by path under `.atlas/`. */
  builtFrom: z.record(z.string(), z.string()),
  entities: z.array(
    z.strictObject({
      id: z.string(),
      kind: z.string(),
      name: z.string(),
      file: z.string().optional(),
      line: z.number().int().optional(),
      source: z.string(),
      classification: z.enum(['public', 'internal', 'confidential', 'restricted']),
      at: z.string(),
    }),
  ),
  relations: z.array(RelationSchema),
  /** policy/access.yaml's `maxServedClassification` when the index was built. */
  maxServedClassification: z.enum(['public', 'internal', 'confidential', 'restricted']),
  /** Errors met while building it: a query refuses an atlas with any. */
  problems: z.array(z.strictObject({ file: z.string(), rule: z.string(), message: z.string() })),
});

export type AtlasFile = z.output<typeof AtlasFileSchema>;
export type Entity = z.output<typeof EntitySchema>;
export type Relation = z.output<typeof RelationSchema>;
export type Inventory = z.output<typeof InventoryFileSchema>;
export type Manifests = z.output<typeof ManifestsFileSchema>;
export type Skipped = z.output<typeof SkippedSchema>;
export type AtlasIndex = z.output<typeof IndexFileSchema>;
