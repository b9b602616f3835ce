import * as z from 'zod';
import { appConfigSchema } from './appconfig-schema.js';
import { manifestSchemas } from './manifest-schema.js';

const BASE = 'https://hub-workspace.dev/schemas';

/** JSON Schemas of both files, generated from the zod schemas; `schemas/` holds the committed copies. */
export function generatedSchemas(): Record<string, unknown> {
  const make = (schema: z.ZodType, id: string, title: string) => ({
    ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }),
    $id: `${BASE}/${id}`,
    title,
  });
  return {
    'hub.manifest.schema.json': make(
      manifestSchemas().ManifestSchema,
      'hub.manifest.schema.json',
      'hub manifest (.hub.yml)',
    ),
    'hub.config.schema.json': make(
      appConfigSchema(),
      'hub.config.schema.json',
      'hub application config (hub.config.yaml)',
    ),
  };
}

export function schemaFileText(schema: unknown): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
