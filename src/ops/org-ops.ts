import { relative } from 'node:path';
import * as z from 'zod';
import {
  listNamespace,
  localMatcher,
  NAMESPACE_KINDS,
  ORG_PROVIDERS,
  ORG_SEARCH_DEFAULT_LIMIT,
  ORG_SEARCH_MAX_LIMIT,
  providerConfig,
  readOrgIndexes,
  searchOrgIndexes,
  storeOrgIndex,
} from '../org/index.js';
import { localsOf, materializeRepo, SYNC_GIT_TIMEOUT_MS } from '../sync/index.js';
import { cliHelp, unlisted } from './cli-help.js';
import { table } from './format.js';
import { defineOp, READ_ONLY, WRITES } from './registry.js';
import { offline } from './source-ops.js';

export const orgIndex = defineOp({
  id: 'org.index',
  summary: "Index a host's organization, user or group from its API, without cloning.",
  description:
    'Asks the GitHub or GitLab REST API for every repository of the namespace (all pages) and stores the ' +
    'observations under .hub/org/ (known -> indexed); nothing is cloned. The API root comes from ' +
    'HUB_GITHUB_API_URL / HUB_GITLAB_API_URL (https; plain http only on loopback) and the token from ' +
    'GITHUB_TOKEN or GH_TOKEN / GITLAB_TOKEN; neither a token nor a URL with credentials is ever stored or printed.',
  input: z.strictObject({
    provider: cliHelp(z.enum(ORG_PROVIDERS), 'github or gitlab.'),
    org: z.string().min(1).describe('GitHub organization or user (see `kind`), or GitLab group path.'),
    kind: z
      .enum(['org', 'user', 'group'])
      .optional()
      .describe('What the namespace is (default: org on GitHub, group on GitLab).'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input) => {
    const kind = input.kind ?? NAMESPACE_KINDS[input.provider][0]!;
    const cfg = providerConfig(input.provider, ctx.env);
    const listing = await listNamespace(cfg, input.org, kind, { offline: offline(ctx) });
    const root = ctx.root();
    const stored = storeOrgIndex(root, {
      provider: input.provider,
      namespace: input.org,
      kind,
      api: cfg.baseUrl,
      pages: listing.pages,
      truncated: listing.truncated,
      repos: listing.repos,
      now: ctx.now(),
    });
    // Counted over every repository (a search page would stop at its limit on a large org).
    const local = localMatcher(localsOf(ctx.workspace().file));
    const materialized = stored.file.repos.filter((r) => local(r) !== null).length;
    return {
      ok: true,
      provider: input.provider,
      namespace: input.org,
      kind,
      indexed_at: stored.file.indexed_at,
      repo_count: listing.repos.length,
      added: stored.added,
      pages: listing.pages,
      rejected: listing.rejected,
      rate_limited: listing.rate_limited,
      truncated: listing.truncated,
      presence: { indexed: listing.repos.length - materialized, materialized },
      file: relative(root, stored.path),
    };
  },
  cli: {
    command: 'org index',
    args: ['provider', 'org'],
    human: (r) =>
      `indexed ${r.provider}://${r.namespace}: ${r.repo_count} repositories (${r.added} new, ` +
      `${r.presence.materialized} materialized) in ${r.pages} page(s)${r.truncated ? ', truncated' : ''}` +
      `${r.rejected ? `, ${r.rejected} malformed entr${r.rejected === 1 ? 'y' : 'ies'} left out` : ''}; stored in ${r.file}`,
  },
  mcp: {
    tool: 'hub_org_index',
    when: 'Use when a host should be searchable.',
  },
  http: [{ method: 'POST', route: '/v3/ops/org/index', input: 'body' }],
});

export const orgSearch = defineOp({
  id: 'org.search',
  summary: 'Search indexed repositories by words, organization, language, topic and more.',
  description:
    'Reads only what org index stored (no network). Each hit carries its identity <provider>://<org>/<repo> and ' +
    'its presence: indexed, or materialized with the manifest repository that holds it. --limit and --offset ' +
    'page the hits (next_offset names the next page, null on the last).',
  input: z.strictObject({
    q: z.string().optional().describe('Words all found in name, description or topics.'),
    query: unlisted(z.string().optional().describe('Same as `q`.')),
    organization: z.string().optional().describe('Namespace (a GitLab group includes its subgroups).'),
    language: cliHelp(z.string().optional(), 'Main language as the host reports it.'),
    topic: cliHelp(z.string().optional(), 'A topic the repository carries.'),
    has: z
      .string()
      .optional()
      .describe('Features it must have, comma-separated (issues, wiki, pages, license, ...).'),
    stale_days: z.coerce
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Only repositories not pushed for this many days.'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(ORG_SEARCH_MAX_LIMIT)
      .optional()
      .describe(`Hits per page (default ${ORG_SEARCH_DEFAULT_LIMIT}).`),
    offset: cliHelp(
      z.coerce.number().int().min(0).optional(),
      'Hits to skip (next_offset of the last page).',
    ),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input) => {
    const files = readOrgIndexes(ctx.root());
    return searchOrgIndexes(
      files,
      localsOf(ctx.workspace().file),
      { ...input, q: input.q ?? input.query },
      ctx.now(),
    );
  },
  cli: {
    command: 'org search',
    args: ['q'],
    human: (r) =>
      [
        table(
          r.repos.map((h) => [
            h.identity,
            h.presence,
            h.language ?? '-',
            h.days_since_push === null ? '-' : `${h.days_since_push}d`,
            h.local ?? '',
          ]),
          ['REPOSITORY', 'PRESENCE', 'LANGUAGE', 'PUSHED', 'LOCAL'],
        ),
        `${r.count} of ${r.total} match(es) in ${r.indexes.length} index(es)` +
          (r.next_offset !== null ? `; next page: --offset ${r.next_offset}` : ''),
      ]
        .filter(Boolean)
        .join('\n'),
  },
  mcp: {
    tool: 'hub_org_search',
    when: 'Use when looking for a repository not cloned.',
  },
  http: [{ method: 'GET', route: '/v3/ops/org/search', input: 'query' }],
});

export const repoMaterialize = defineOp({
  id: 'repo.materialize',
  summary: 'Clone an indexed repository and enroll it in the manifest, identity kept.',
  description:
    'REPO is the identity (github://acme/api), <org>/<repo> or a name found once in the indexes. It is cloned ' +
    'into <project>/<name> (project: --project, else the project whose source names that org, else the org ' +
    'name; created when missing) and added with url and source provenance. Already in the manifest: no-op.',
  input: z.strictObject({
    repo: z.string().min(1).describe('Identity, <org>/<repo> or repository name.'),
    project: z.string().min(1).optional().describe('Project it joins (created when missing).'),
    name: z
      .string()
      .min(1)
      .optional()
      .describe('Repository name in the manifest (default: its name on the host).'),
    dry_run: cliHelp(z.boolean().optional(), 'Report where it would go; clone nothing, write nothing.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input) => {
    const r = await materializeRepo(ctx.workspace().file, ctx.checkouts(), readOrgIndexes(ctx.root()), {
      ref: input.repo,
      project: input.project,
      name: input.name,
      dryRun: Boolean(input.dry_run),
      timeoutMs: SYNC_GIT_TIMEOUT_MS,
    });
    if (r.operation === 'materialized') ctx.invalidate();
    return r;
  },
  cli: {
    command: 'repo materialize',
    args: ['repo'],
    human: (r) =>
      r.operation === 'noop'
        ? `${r.identity} is already materialized as ${r.local} (unchanged)`
        : `${r.operation === 'would_materialize' ? 'would materialize' : 'materialized'} ${r.identity} as ${r.local} at ${r.path}${r.project_created ? ' (new project)' : ''}`,
  },
  mcp: {
    tool: 'hub_org_materialize',
    when: 'Use when an indexed repository should be cloned.',
  },
  http: [{ method: 'POST', route: '/v3/ops/org/materialize', input: 'body' }],
});
