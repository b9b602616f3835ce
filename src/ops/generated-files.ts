import { templateJsonSchema } from '../agents/index.js';
import { atlasJsonSchemas } from '../atlas/index.js';
import { generatedSchemas, schemaFileText } from '../model/json-schema.js';
import { commandsMarkdown } from './commands-doc.js';
import { loadOperations } from './operation-modules.js';

/** Every generated file of the repository, by path; `npm run generate` writes them and a test compares. */
export async function generatedFiles(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, schema] of Object.entries(generatedSchemas()))
    out[`schemas/${name}`] = schemaFileText(schema);
  out['schemas/agent-template.schema.json'] = schemaFileText(templateJsonSchema());
  for (const [name, schema] of Object.entries(atlasJsonSchemas()))
    out[`schemas/atlas/${name}`] = schemaFileText(schema);
  out['docs/commands.md'] = commandsMarkdown(await loadOperations());
  return out;
}
