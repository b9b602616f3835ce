import { existsSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The built browser UI (`dist/web`), looked up from this module upwards: `dist/chunks/x.js` and `dist/cli.js` in
 * the bundle, `src/surfaces/http/` from source. Never the `web/` source folder; never above the package root.
 */
export function locateUiDir(from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidates = [join(dir, 'dist', 'web')];
    if (basename(dir) === 'dist') candidates.unshift(join(dir, 'web'));
    for (const c of candidates) if (existsSync(join(c, 'index.html'))) return c;
    if (existsSync(join(dir, 'package.json')) || dirname(dir) === dir) return undefined;
  }
}

/** Served at `/` until the browser UI is built. */
export const PLACEHOLDER_HTML = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>hub</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:.1rem .3rem;border-radius:3px}</style></head>
<body>
<h1>hub is running</h1>
<p>The browser UI is not built in this installation yet. The JSON API is served here:</p>
<ul>
<li><a href="/v3/openapi.json"><code>/v3/openapi.json</code></a>: every route (OpenAPI 3.1)</li>
<li><a href="/v3/ops/components"><code>/v3/ops/components</code></a>: the component catalog</li>
<li><a href="/v3/ops/objectives"><code>/v3/ops/objectives</code></a>: objectives (with ETag)</li>
<li><a href="/v2/workspace/repos"><code>/v2/workspace/repos</code></a>: repositories</li>
</ul>
</body>
</html>
`;

/** `immutable` for the content-hashed files of assets/, `no-cache` (revalidate) for everything else. */
export function cacheControlFor(uiDir: string, file: string): string {
  const rel = relative(uiDir, file).split(sep).join('/');
  return rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

const CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'";

/**
 * Serves the UI: static files only from `uiDir` (no directory listing, no dot files), or the placeholder page.
 * Returns the fallback for client-side routes (`/explorer`): GET of an extension-less path outside the API
 * families answers index.html.
 */
export async function registerStaticUi(
  app: FastifyInstance,
  uiDir: string | undefined,
): Promise<(req: FastifyRequest, reply: FastifyReply) => boolean> {
  if (uiDir) {
    await app.register(fastifyStatic, {
      root: uiDir,
      prefix: '/',
      index: ['index.html'],
      list: false,
      serveDotFiles: false,
      dotfiles: 'ignore',
      redirect: false,
      // Vite names every file under assets/ by its content hash: cached for good. Anything else (index.html,
      // favicon) is revalidated on each load so a rebuilt UI is picked up at once.
      cacheControl: false,
      setHeaders: (res, path) => {
        res.setHeader('content-security-policy', CSP);
        res.setHeader('cache-control', cacheControlFor(uiDir, path));
      },
    });
  } else {
    const page = async (_req: FastifyRequest, reply: FastifyReply) =>
      reply
        .header('content-security-policy', CSP)
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(PLACEHOLDER_HTML);
    app.get('/', page);
    app.get('/index.html', page);
  }
  return (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = req.url.split('?')[0] ?? '';
    if (/^\/v\d+(\/|$)/.test(path) || /\.[A-Za-z0-9]+$/.test(path)) return false;
    if (!String(req.headers.accept ?? '').includes('text/html')) return false;
    reply.header('content-security-policy', CSP).header('cache-control', 'no-cache');
    if (uiDir) reply.sendFile('index.html');
    else reply.type('text/html; charset=utf-8').send(PLACEHOLDER_HTML);
    return true;
  };
}
