import * as z from 'zod';
import { type SearchHit, searchManifest } from '../catalog/index.js';
import { table, withFooter } from './format.js';
import { PAGE_MAX, type PageInfo, type PageSpec, pageFields, pageFooter, pageOf } from './paging.js';
import { defineOp, READ_ONLY } from './registry.js';
import { checkScope, scopeFields } from './scope.js';

/** Search answers are ranked: the first 50 hits are what a reader wants on every surface. */
const SEARCH_PAGE: PageSpec = { defaults: { cli: 50, agent: 50, http: 50 }, max: PAGE_MAX };

export const search = defineOp({
  id: 'search',
  summary: 'Search names, paths, tags and descriptions in the manifest, not file contents.',
  input: z.strictObject({
    query: z.string().min(1).describe('Words to look for; all must match.'),
    ...scopeFields,
    path_only: z.boolean().optional().describe('Return only the matching directories.'),
    ...pageFields('Hits', SEARCH_PAGE),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (
    ctx,
    input,
  ): ({ query: string; results: SearchHit[] } | { query: string; paths: string[] }) & PageInfo => {
    const { catalog } = ctx.workspace();
    checkScope(catalog, input.project, input.repo);
    const { hits } = searchManifest(catalog, input.query, {
      project: input.project,
      repo: input.repo,
      limit: Number.MAX_SAFE_INTEGER,
    });
    // Best first (score, then id): a stable order, so offset pages hold while the manifest does.
    const { items, page } = pageOf(ctx, input, hits, SEARCH_PAGE);
    if (input.path_only)
      return { query: input.query, paths: [...new Set(items.map((h) => h.path))], ...page };
    return { query: input.query, ...page, results: items };
  },
  cli: {
    command: 'search',
    args: ['query'],
    human: (r) =>
      'paths' in r
        ? r.paths.join('\n')
        : withFooter(
            table(
              r.results.map((h) => [h.type, h.id, h.path]),
              ['TYPE', 'ID', 'PATH'],
            ),
            pageFooter(r.results.length, r, 'hits'),
          ),
  },
  mcp: {
    tool: 'hub_repo_search',
    when: 'Use when looking for a repository or component.',
  },
  // /v1 is `hub api serve`'s; `hub web serve` (v2, v3) serves the same operation for the browser UI's Search.
  http: [
    { method: 'GET', route: '/v1/repos/search', input: 'query' },
    { method: 'GET', route: '/v2/workspace/search', input: 'query' },
  ],
});
