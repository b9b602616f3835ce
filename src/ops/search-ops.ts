import * as z from 'zod';
import { type SearchHit, searchManifest } from '../catalog/index.js';
import { table } from './format.js';
import { defineOp, READ_ONLY } from './registry.js';
import { checkScope, scopeFields } from './scope.js';

export const search = defineOp({
  id: 'search',
  summary: 'Search manifest metadata (names, paths, tags, descriptions, urls); never file contents.',
  input: z.strictObject({
    query: z.string().min(1).describe('Words to look for; all must match.'),
    ...scopeFields,
    path_only: z.boolean().optional().describe('Return only the matching directories.'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(1000)
      .optional()
      .describe('Most results to return (default 50).'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (
    ctx,
    input,
  ): { query: string; total: number; results: SearchHit[] } | { query: string; paths: string[] } => {
    const { catalog } = ctx.workspace();
    checkScope(catalog, input.project, input.repo);
    const { hits, total } = searchManifest(catalog, input.query, {
      project: input.project,
      repo: input.repo,
      limit: input.limit ?? 50,
    });
    if (input.path_only) return { query: input.query, paths: [...new Set(hits.map((h) => h.path))] };
    return { query: input.query, total, results: hits };
  },
  cli: {
    command: 'search',
    args: ['query'],
    human: (r) =>
      'paths' in r
        ? r.paths.join('\n')
        : table(
            r.results.map((h) => [h.type, h.id, h.path]),
            ['TYPE', 'ID', 'PATH'],
          ),
  },
  mcp: { tool: 'hub_repo_search' },
  // /v1 is `hub api serve`'s; `hub web serve` (v2, v3) serves the same operation for the browser UI's Search.
  http: [
    { method: 'GET', route: '/v1/repos/search', input: 'query' },
    { method: 'GET', route: '/v2/workspace/search', input: 'query' },
  ],
});
