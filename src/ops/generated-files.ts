import { generatedSchemas, schemaFileText } from '../model/json-schema.js';
import { commandsMarkdown } from './commands-doc.js';
import { OPERATIONS } from './index.js';

/** Every generated file of the repository, by path; `npm run generate` writes them and a test compares. */
export function generatedFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, schema] of Object.entries(generatedSchemas()))
    out[`schemas/${name}`] = schemaFileText(schema);
  out['docs/commands.md'] = commandsMarkdown(OPERATIONS);
  return out;
}
