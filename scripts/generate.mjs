// Regenerates the committed generated files (schemas/*.json, docs/commands.md) from the source of truth.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const tmp = join(root, 'node_modules', '.cache', 'hub-generate.mjs');
mkdirSync(dirname(tmp), { recursive: true });
await build({
  entryPoints: [join(root, 'src/ops/generated-files.ts')],
  outfile: tmp,
  bundle: true,
  format: 'esm',
  platform: 'node',
  banner: { js: "import { createRequire as __r } from 'node:module'; const require = __r(import.meta.url);" },
  logLevel: 'warning',
  // As in build.mjs: jsonc-parser's main is a UMD bundle whose require('./impl/...') esbuild cannot follow.
  alias: { 'jsonc-parser': join(root, 'node_modules/jsonc-parser/lib/esm/main.js') },
});
const { generatedFiles } = await import(pathToFileURL(tmp).href);
for (const [path, text] of Object.entries(await generatedFiles())) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  process.stderr.write(`wrote ${path}\n`);
}
