import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedSchemas, schemaFileText } from '../src/model/json-schema.js';

describe('schemas/', () => {
  it.each(Object.entries(generatedSchemas()))(
    '%s matches the zod schema (run `npm run schemas` when this fails)',
    (name, schema) => {
      const committed = readFileSync(join(import.meta.dirname, '..', 'schemas', name), 'utf8');
      expect(committed).toBe(schemaFileText(schema));
    },
  );
});
