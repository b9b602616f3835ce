// Bundles part of src/ for a bench that calls hub's functions in process: esbuild, one ESM file for node, with a
// require() for the CommonJS packages it pulls in (yaml, picomatch), resolved from the bundle's own folder.
import { pathToFileURL } from 'node:url';
import { ROOT } from './measure.mjs';

/**
 * Bundles `exports` (lines such as "export { createLocalStore } from './src/state/index.ts';", resolved from the
 * project root) into `outfile`; `external` names packages left out of the bundle. Returns `outfile`.
 */
export async function bundleSrc(outfile, exports, { external } = {}) {
  const { build } = await import('esbuild');
  await build({
    stdin: { contents: exports.join('\n'), resolveDir: ROOT, loader: 'ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    ...(external ? { external } : {}),
    banner: {
      js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);",
    },
  });
  return outfile;
}

/** bundleSrc, then the bundle imported. */
export async function importSrc(outfile, exports, opts) {
  return import(pathToFileURL(await bundleSrc(outfile, exports, opts)).href);
}
