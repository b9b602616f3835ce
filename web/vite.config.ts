// The browser UI's build: `npm run build` calls vite's build() with this file (scripts/build-web.mjs); `npx vite
// --config web/vite.config.ts` serves it for development, proxying the API to a running `hub web serve`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const hub = process.env.HUB_URL ?? 'http://127.0.0.1:8787';

export default defineConfig({
  root: webRoot,
  base: '/',
  // Vite 8 transforms JSX with oxc itself: no React plugin needed for a build (it only adds fast refresh in dev).
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    // three.js is one lazy chunk of the Terrain page (~590 KB minified, ~145 KB gzipped), loaded with that page only.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      // React libraries mark client modules with "use client", which means nothing in a browser-only bundle.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: { proxy: { '/v2': hub, '/v3': hub } },
});
