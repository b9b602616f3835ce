// Bundles the CLI with esbuild: one ESM entry plus lazily loaded chunks, so start-up stays small.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { coreChunk } from './core-chunk.mjs';
import { directImports } from './direct-imports.mjs';

const root = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// The build id changes with any source change, which invalidates cached manifests parsed by older code.
function hashTree(dir, h) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) hashTree(p, h);
    else if (!name.endsWith('.test.ts')) h.update(name).update(readFileSync(p));
  }
  return h;
}
// Source maps only on request (HUB_SOURCEMAPS=1 npm run build, for `node --enable-source-maps bin/hub`): they were
// more than half of dist/ and nothing loads them otherwise (docs/decisions.md, "the published package").
const sourceMaps = process.env.HUB_SOURCEMAPS === '1';

/**
 * gpt-tokenizer's ranks are the token counter's fallback when no built table is found (running from source). The
 * build always writes the table (dist/tokenizer), so the bundle gets a module that says what is wrong instead of a
 * 2.7 MB chunk of ranks that a built CLI never loads.
 */
const noRanksInBundle = {
  name: 'no-tokenizer-ranks',
  setup(b) {
    b.onResolve({ filter: /^gpt-tokenizer\/bpeRanks\// }, (args) => ({
      path: args.path,
      namespace: 'no-ranks',
    }));
    b.onLoad({ filter: /.*/, namespace: 'no-ranks' }, () => ({
      contents:
        "throw new Error('the token table dist/tokenizer/o200k_base.bin is missing or from another build: reinstall hub, or run npm run build');",
      loader: 'js',
    }));
  },
};

const buildId = hashTree(join(root, 'src'), createHash('sha256'))
  .update(pkg.version)
  .digest('hex')
  .slice(0, 16);

// commander and a few other CommonJS packages call require(): their chunks get one (dropped below where unused).
const REQUIRE_BANNER =
  "import { createRequire as __hubCreateRequire } from 'node:module'; const require = __hubCreateRequire(import.meta.url);";

const options = {
  entryPoints: {
    cli: join(root, 'src/surfaces/cli/entry.ts'),
    // Imported below to write the command table; never loaded by the CLI itself.
    'describe-commands': join(root, 'src/ops/command-index.ts'),
    // The same for the MCP tool table.
    'describe-tools': join(root, 'src/surfaces/mcp/tool-table.ts'),
  },
  outdir: join(root, 'dist'),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: sourceMaps ? 'linked' : false,
  legalComments: 'none',
  chunkNames: 'chunks/[name]-[hash]',
  // Loaded on first use through src/model/yaml-lib.ts and yaml-fast.ts, so a cached manifest read never evaluates them.
  // The AWS SDK is imported only by the dynamodb state backend, from node_modules (never bundled).
  // web-tree-sitter finds its tree-sitter.wasm beside its own module: it stays in node_modules (atlas loads it).
  external: ['yaml', 'js-yaml', '@aws-sdk/client-dynamodb', 'web-tree-sitter'],
  // commander is CommonJS: give the ESM bundle a require() it can call.
  banner: { js: REQUIRE_BANNER },
  define: { __HUB_BUILD_ID__: JSON.stringify(buildId), __HUB_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  write: false,
};
// Start-up: each command loads few modules and only what it uses (docs/decisions.md, "start-up").
const src = join(root, 'src');
// tsconfig.json as esbuild reads it (verbatimModuleSyntax), for the files the plugins transform themselves.
const tsconfigRaw = readFileSync(join(root, 'tsconfig.json'), 'utf8');
const core = await coreChunk({
  options: { ...options, plugins: [noRanksInBundle, directImports({ root: src, tsconfigRaw })] },
  entry: join(src, 'surfaces/cli/main.ts'),
  launcher: join(src, 'surfaces/cli/entry.ts'),
  root: src,
});
const result = await build({
  ...options,
  plugins: [noRanksInBundle, core.plugin, directImports({ root: src, tsconfigRaw, prelude: core.prelude })],
});
// Each file is replaced atomically, so a hub process started during a rebuild never sees half a bundle.
/**
 * A chunk that never calls require() loses the banner: each createRequire costs ~0.1 ms at every start, and a
 * command loads ~20 chunks of which one or two hold CommonJS code. Kept with source maps (they count lines).
 */
function withoutUnusedRequire(file) {
  if (sourceMaps || !file.path.endsWith('.js')) return file.contents;
  const text = file.text;
  const rest = text.startsWith(`${REQUIRE_BANNER}\n`) ? text.slice(REQUIRE_BANNER.length + 1) : undefined;
  return rest !== undefined && !/\brequire\b/.test(rest) ? rest : file.contents;
}
for (const file of result.outputFiles) {
  mkdirSync(dirname(file.path), { recursive: true });
  const tmp = `${file.path}.${process.pid}.tmp`;
  writeFileSync(tmp, withoutUnusedRequire(file));
  renameSync(tmp, file.path);
}
// Chunks of earlier builds are removed once the new ones are in place (names carry content hashes), and so are
// the source maps of an earlier HUB_SOURCEMAPS=1 build.
const written = new Set(result.outputFiles.map((f) => f.path));
const chunkDir = join(root, 'dist', 'chunks');
for (const name of readdirSync(chunkDir, { withFileTypes: true })) {
  const p = join(chunkDir, name.name);
  if (name.isFile() && !written.has(p)) rmSync(p, { force: true });
}
for (const name of readdirSync(join(root, 'dist'))) {
  const p = join(root, 'dist', name);
  if (name.endsWith('.map') && !written.has(p)) rmSync(p, { force: true });
}

// The command table (paths, arguments, options, help) as JSON, so the CLI parses any command without loading
// the operation modules; each command then imports only its own. It carries the build id: a table left by
// another build is ignored.
const { describeCommands } = await import(
  `${pathToFileURL(join(root, 'dist', 'describe-commands.js')).href}?${buildId}`
);
const table = await describeCommands();
const tableFile = join(root, 'dist', 'commands.json');
writeFileSync(`${tableFile}.${process.pid}.tmp`, JSON.stringify(table));
renameSync(`${tableFile}.${process.pid}.tmp`, tableFile);

// The MCP tool table (each tool's tools/list entry, toolset, gate and module), so `hub mcp serve` answers
// tools/list without loading the operation modules; each loads on its tool's first call.
const { describeTools } = await import(
  `${pathToFileURL(join(root, 'dist', 'describe-tools.js')).href}?${buildId}`
);
const toolsFile = join(root, 'dist', 'mcp-tools.json');
writeFileSync(`${toolsFile}.${process.pid}.tmp`, JSON.stringify(await describeTools()));
renameSync(`${toolsFile}.${process.pid}.tmp`, toolsFile);

// The tokenizer's rank table as one binary file: gpt-tokenizer ships its ranks as a 2.4 MB array literal, slow to
// compile and to index at every load, while the table loads with one read.
const { writeTokenizerTable } = await import('./tokenizer-table.mjs');
await writeTokenizerTable(join(root, 'dist', 'tokenizer'));
process.stderr.write(`built dist/cli.js (build ${buildId})\n`);

// The browser UI, served by `hub web serve` from dist/web.
const { buildWeb } = await import('./build-web.mjs');
const web = await buildWeb(root);
process.stderr.write(
  web.skipped ? `dist/web is up to date (${web.hash})\n` : `built dist/web (${web.hash})\n`,
);
