import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import { MANIFEST_FILENAME } from '../model/index.js';
import {
  type CheckoutOrigin,
  findPackageRoot,
  type InitResult,
  initManifest,
  publicCloneUrl,
  readOrigins,
} from '../workspace/index.js';
import { PACKAGE_NAME } from './build-info.js';
import { table, withFooter } from './format.js';
import { checkManifest } from './manifest-check.js';
import { pageFields, pageFooter, pageOf } from './paging.js';
import { defineOp, READ_ONLY, WRITES } from './registry.js';
import { checkScope, scopeFields } from './scope.js';

export const workspaceRepoList = defineOp({
  id: 'workspace.repo.list',
  summary: 'List repositories as slim rows (project, repo, path, url, exists, tags).',
  description:
    'Repositories in manifest order (projects, then their repositories as declared), a page at a time: --limit ' +
    'and --offset; total counts every match and next_offset names the next page (null on the last).',
  input: z.strictObject({
    ...scopeFields,
    ...pageFields('Repositories'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input) => {
    const { catalog } = ctx.workspace();
    checkScope(catalog, input.project, input.repo);
    const { items, page } = pageOf(ctx, input, catalog.reposMatching(input.project, input.repo));
    // A repository outside the workspace is not present as far as hub is concerned (health says why).
    const checkouts = ctx.checkouts();
    return {
      ...page,
      repos: items.map((r) => ({
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
      withFooter(
        table(
          r.repos.map((x) => [x.id, x.exists ? 'present' : 'missing', String(x.components), x.url ?? x.path]),
          ['REPO', 'STATUS', 'COMPONENTS', 'LOCATION'],
        ),
        pageFooter(r.repos.length, r, 'repositories'),
      ),
  },
  mcp: { tool: 'hub_workspace_repos_list', when: 'Use when paging through repositories.' },
  http: [{ method: 'GET', route: '/v2/workspace/repos', input: 'query' }],
});

/**
 * The origins `hub init` may write: credentials taken out, and only over a transport hub clones with (never a
 * remote helper such as ext::, nor plain http).
 */
async function checkoutOrigins(dirs: string[]): Promise<Map<string, CheckoutOrigin>> {
  // Loaded here: `workspace repo list` shares this module and needs neither.
  const [{ providerOf, urlKey }, { transportOf }] = await Promise.all([
    import('../graph/index.js'),
    import('../sync/index.js'),
  ]);
  const out = new Map<string, CheckoutOrigin>();
  for (const [dir, raw] of await readOrigins(dirs)) {
    const url = publicCloneUrl(raw);
    if (url && transportOf(url)) out.set(dir, { url, provider: providerOf(urlKey(url)) });
  }
  return out;
}

export const init = defineOp({
  id: 'init',
  summary:
    'Create .hub.yml here (finding git repositories below); an existing manifest is left alone unless --force.',
  description:
    'Each checkout with an origin (https, ssh, git or file; credentials left out) is listed by its url when it ' +
    'sits at <project>/<name> (where a url-only repository checks out), else by its path with the origin kept ' +
    'as source provenance. ' +
    'A manifest `hub config validate` accepts: exit 0, already initialized, unchanged. One with problems: exit 1 ' +
    'listing them, unchanged. --force replaces either after copying it to .hub.yml.bak-<UTC time> beside it ' +
    '(blocked in agent mode: remove the file first). The first line names the JSON Schema only when the file is ' +
    'inside the workspace (node_modules/hub-workspace/schemas/...).',
  input: z.strictObject({
    kind: z.enum(['workspace', 'application']).optional().describe('Manifest kind (default workspace).'),
    prompt: z
      .boolean()
      .default(true)
      .describe('Accepted for scripts; init never prompts (--force keeps a backup instead).'),
    force: z
      .boolean()
      .optional()
      .describe(
        'Replace an existing manifest, valid or not, keeping a copy as .hub.yml.bak-<UTC time> beside it (blocked in agent mode).',
      ),
  }),
  gate: 'none',
  attributes: WRITES,
  handler: async (ctx, input): Promise<InitResult> => {
    const path = ctx.definition ? resolve(ctx.cwd, ctx.definition) : join(ctx.cwd, MANIFEST_FILENAME);
    const pkg = findPackageRoot(dirname(fileURLToPath(import.meta.url)), PACKAGE_NAME);
    return await initManifest(path, {
      origins: checkoutOrigins,
      kind: input.kind ?? 'workspace',
      force: Boolean(input.force),
      agentMode: ctx.agentMode,
      now: ctx.now(),
      problems: (file) => checkManifest(ctx, file).problems,
      installedSchema: pkg ? join(pkg, 'schemas', 'hub.manifest.schema.json') : undefined,
    });
  },
  cli: {
    command: 'init',
    human: (r) => {
      if (r.already_initialized) return `already initialized: ${r.path} (valid; left unchanged)`;
      const lines = [`created ${r.path} (${r.kind}, ${r.repos} repositories found)`];
      if (r.backup) lines.push(`the previous manifest is kept at ${r.backup}`);
      if (r.schema_available)
        lines.push(
          `editor validation: add \`# yaml-language-server: $schema=${r.schema_available}\` as the first line (not written: that path is outside the workspace)`,
        );
      return lines.join('\n');
    },
  },
});
