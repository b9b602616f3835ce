import { join, resolve } from 'node:path';
import * as z from 'zod';
import { MANIFEST_FILENAME } from '../model/index.js';
import { initManifest } from '../workspace/index.js';
import { table } from './format.js';
import { defineOp, READ_ONLY, WRITES } from './registry.js';
import { checkScope, scopeFields } from './scope.js';

export const workspaceRepoList = defineOp({
  id: 'workspace.repo.list',
  summary: 'List the repositories of the workspace as slim rows (project, repo, path, url, exists, tags).',
  input: z.strictObject({
    ...scopeFields,
    limit: z.coerce.number().int().min(1).optional().describe('Page size (default: all).'),
    offset: z.coerce.number().int().min(0).optional().describe('Rows to skip.'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input) => {
    const { catalog } = ctx.workspace();
    checkScope(catalog, input.project, input.repo);
    const all = catalog.reposMatching(input.project, input.repo);
    const offset = input.offset ?? 0;
    const page = all.slice(offset, input.limit ? offset + input.limit : undefined);
    // A repository outside the workspace is not present as far as hub is concerned (health says why).
    const checkouts = ctx.checkouts();
    return {
      total: all.length,
      offset,
      repos: page.map((r) => ({
        id: r.id,
        project: r.project,
        repo: r.name,
        path: r.root,
        url: r.url ?? null,
        exists: checkouts.of(r).state === 'present',
        tags: r.tags,
        components: catalog.componentsByRepo.get(r.id)?.length ?? 0,
      })),
    };
  },
  cli: {
    command: 'workspace repo list',
    human: (r) =>
      table(
        r.repos.map((x) => [x.id, x.exists ? 'present' : 'missing', String(x.components), x.url ?? x.path]),
        ['REPO', 'STATUS', 'COMPONENTS', 'LOCATION'],
      ),
  },
  mcp: { tool: 'hub_workspace_repos_list' },
  http: [{ method: 'GET', route: '/v2/workspace/repos', input: 'query' }],
});

export const init = defineOp({
  id: 'init',
  summary: 'Create .hub.yml here (finding git repositories below); a valid existing manifest is left alone.',
  input: z.strictObject({
    kind: z.enum(['workspace', 'application']).optional().describe('Manifest kind (default workspace).'),
    prompt: z.boolean().default(true).describe('Ask before replacing files (never in agent mode).'),
    force: z.boolean().optional().describe('Replace an invalid existing manifest (blocked in agent mode).'),
  }),
  gate: 'none',
  attributes: WRITES,
  handler: (ctx, input) => {
    const path = ctx.definition ? resolve(ctx.cwd, ctx.definition) : join(ctx.cwd, MANIFEST_FILENAME);
    return initManifest(path, {
      kind: input.kind ?? 'workspace',
      force: Boolean(input.force),
      agentMode: ctx.agentMode,
    });
  },
  cli: {
    command: 'init',
    human: (r) =>
      r.already_initialized
        ? `already initialized: ${r.path} (left unchanged)`
        : `created ${r.path} (${r.kind}, ${r.repos} repositories found)`,
  },
});
