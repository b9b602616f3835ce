// Regenerates schemas/*.json from the zod schemas (src/model/json-schema.ts). A test fails when they are stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const tmp = join(root, 'node_modules', '.cache', 'hub-gen-schemas.mjs');
mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
await build({
  entryPoints: [join(root, 'src/model/json-schema.ts')],
  outfile: tmp,
  bundle: true,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
});
const { generatedSchemas, schemaFileText } = await import(pathToFileURL(tmp).href);
mkdirSync(join(root, 'schemas'), { recursive: true });
for (const [name, schema] of Object.entries(generatedSchemas())) {
  writeFileSync(join(root, 'schemas', name), schemaFileText(schema));
  process.stderr.write(`wrote schemas/${name}\n`);
}
