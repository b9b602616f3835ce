import * as z from 'zod';
import { HubError, ValidationError } from '../infra/index.js';
import { indexedNames } from '../org/index.js';
import {
  GREP_MAX_LIMIT,
  type GrepInfo,
  type GrepResult,
  grepInfo,
  grepRepos,
  type HealthReport,
  inactiveSummary,
  LIST_MAX_LIMIT,
  type ReadinessSummary,
  readinessSummary,
  type WorkspaceList,
  workspaceHealth,
  workspaceList,
} from '../workspace/index.js';
import { cliHelp, unlisted } from './cli-help.js';
import type { OpContext } from './context.js';
import { table } from './format.js';
import { manifestProblemsOf } from './manifest-problems-memo.js';
import { defineOp, READ_ONLY } from './registry.js';
import { reservedProjectNames } from './reserved-names.js';
import { checkScope, readableRepos, scopeFields } from './scope.js';

// Plain booleans: the CLI derives flags from them and the HTTP surface coerces query strings by field kind.
const flag = (description: string, fallback: boolean) => z.boolean().default(fallback).describe(description);

/** Reserved project names, as `config validate` checks them; a broken application config is appconfig's to report. */
function reservedNamesOf(ctx: OpContext): string[] {
  try {
    return reservedProjectNames(ctx.appConfig().config);
  } catch {
    return [];
  }
}

export const workspaceSummary = defineOp({
  id: 'workspace.summary',
  summary: 'Workspace readiness score 0-100, with blockers and the commands to fix them.',
  description:
    'Exit code 0 whatever the score, also when no valid manifest exists (then the tool gate scores 0 and says why). Maintenance counts the findings of `workspace health --no-git`.',
  input: z.strictObject({}),
  gate: 'none',
  attributes: READ_ONLY,
  handler: async (ctx): Promise<ReadinessSummary> => {
    let ws: ReturnType<typeof ctx.workspace>;
    try {
      ws = ctx.workspace();
    } catch (err) {
      const e = err instanceof HubError ? err : undefined;
      if (e?.code === 'not_found') return inactiveSummary('inactive_missing_config', e.message);
      if (e?.code === 'validation') return inactiveSummary('inactive_invalid_config', e.message);
      throw err;
    }
    const checkouts = ctx.checkouts();
    const reservedNames = reservedNamesOf(ctx);
    const externalRepo = indexedNames(ctx.root()).has;
    const health = await workspaceHealth(ws.catalog, {
      repos: ws.catalog.repos,
      git: false,
      checkouts,
      manifestProblems: () => manifestProblemsOf(ws.catalog, reservedNames, externalRepo),
    });
    return readinessSummary(ws.catalog, health, checkouts);
  },
  cli: {
    command: 'workspace summary',
    human: (r) =>
      [
        `readiness ${r.score}/100 (${r.grade})`,
        ...r.dimensions.map((d) => `  ${d.name.padEnd(15)} ${String(d.score).padStart(4)}/25  ${d.detail}`),
        ...(r.blockers.length ? ['blockers:', ...r.blockers.map((b) => `  - ${b}`)] : []),
        ...(r.suggested_commands.length ? ['try:', ...r.suggested_commands.map((c) => `  ${c}`)] : []),
      ].join('\n'),
    exitCode: () => 0,
  },
  mcp: {
    tool: 'hub_workspace_summary',
    when: 'Use when asking how ready the workspace is.',
  },
  http: [{ method: 'GET', route: '/v2/workspace/summary', input: 'query' }],
});

export const workspaceHealthOp = defineOp({
  id: 'workspace.health',
  summary: 'Health findings on checkouts, git state and manifest rules.',
  description:
    'Exit code 1 when the workspace is unhealthy (any critical finding), 0 when it is healthy or degraded ' +
    '(warnings and info only); the report is printed either way. --no-git skips the per-repository git status.',
  input: z.strictObject({
    ...scopeFields,
    git: cliHelp(flag("Read each repository's git status.", true), 'Skip the per-repository git status.'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(5000)
      .optional()
      .describe('Most findings listed (default 200).'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): Promise<HealthReport> => {
    const { catalog } = ctx.workspace();
    checkScope(catalog, input.project, input.repo);
    const reservedNames = reservedNamesOf(ctx);
    const externalRepo = indexedNames(ctx.root()).has;
    return workspaceHealth(catalog, {
      repos: catalog.reposMatching(input.project, input.repo),
      git: input.git,
      limit: input.limit,
      manifestRules: !input.project && !input.repo,
      checkouts: ctx.checkouts(),
      manifestProblems: () => manifestProblemsOf(catalog, reservedNames, externalRepo),
    });
  },
  cli: {
    command: 'workspace health',
    // A check that finds a problem exits non-zero, as config validate does; warnings alone do not fail it.
    exitCode: (r) => (r.status === 'unhealthy' ? 1 : 0),
    human: (r) =>
      [
        `${r.status}: ${r.counts.critical} critical, ${r.counts.warning} warning, ${r.counts.info} info (${r.repos_checked} repos)`,
        table(r.findings.map((f) => [f.severity, f.repository ?? '-', f.code, f.message])),
      ]
        .filter(Boolean)
        .join('\n'),
  },
  mcp: { tool: 'hub_workspace_health_check', when: 'Use when something seems broken.' },
  http: [{ method: 'GET', route: '/v2/workspace/health', input: 'query' }],
});

export const workspaceListOp = defineOp({
  id: 'workspace.list',
  summary: 'Paged index of projects and repositories (the workspace object with `include_workspace`).',
  input: z.strictObject({
    ...scopeFields,
    limit: z.coerce.number().int().min(1).max(LIST_MAX_LIMIT).optional().describe('Page size (default 80).'),
    offset: cliHelp(
      z.coerce.number().int().min(0).optional(),
      'Rows to skip (next_offset of the last page).',
    ),
    include_workspace: flag('Add the workspace object.', false),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): WorkspaceList => {
    const { catalog } = ctx.workspace();
    checkScope(catalog, input.project, input.repo);
    return workspaceList(catalog, {
      project: input.project,
      repo: input.repo,
      offset: input.offset,
      limit: input.limit,
      includeWorkspace: input.include_workspace,
      checkouts: ctx.checkouts(),
    });
  },
  cli: {
    command: 'workspace list',
    human: (r) =>
      `${table(
        r.repos.map((x) => [x.id, x.status, String(x.components), x.path]),
        ['REPO', 'STATUS', 'COMPONENTS', 'PATH'],
      )}\n${r.repos.length} of ${r.total}${r.next_offset !== null ? `; next page: --offset ${r.next_offset}` : ''}`,
  },
  mcp: {
    tool: 'hub_workspace_list',
    when: 'Use when you need the projects and repositories.',
  },
  http: [{ method: 'GET', route: '/v2/workspace/list', input: 'query' }],
});

export const workspaceGrepInfo = defineOp({
  id: 'workspace.grep.info',
  summary: 'The content-search backend, its version and the folders it skips.',
  description:
    'HUB_GREP_BACKEND=auto|ripgrep|builtin chooses the backend (auto: ripgrep when `rg` is on PATH).',
  input: z.strictObject({}),
  gate: 'none',
  attributes: READ_ONLY,
  handler: (ctx): Promise<GrepInfo> => grepInfo({ backend: ctx.env.HUB_GREP_BACKEND, path: ctx.env.PATH }),
  cli: {
    command: 'workspace grep info',
    human: (r) =>
      [
        `backend: ${r.backend}${r.ripgrep.version ? ` (${r.ripgrep.version})` : ''}`,
        `excluded: ${r.excluded_dirs.join(', ')}`,
      ].join('\n'),
  },
  mcp: { tool: 'hub_workspace_grep_info', when: 'Use when a content search surprises you.' },
  http: [{ method: 'GET', route: '/v2/workspace/grep/info', input: 'query' }],
});

export const workspaceGrep = defineOp({
  id: 'workspace.grep',
  summary: 'Search the file contents of the repositories.',
  description:
    'Always skips dependency, virtual-environment and build folders (see `workspace grep info`) and honours .gitignore. The query is literal unless --regex. `q` is the same as <query> (the HTTP name); use `--q info` to search for the word "info".',
  input: z.strictObject({
    query: z.string().min(1).optional().describe('Text to search for (literal unless `regex`).'),
    q: unlisted(z.string().min(1).optional().describe('Same as `query`.')),
    ...scopeFields,
    regex: cliHelp(z.boolean().default(false), 'Treat the query as a regular expression.'),
    ignore_case: cliHelp(z.boolean().default(false), 'Match case-insensitively.'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(GREP_MAX_LIMIT)
      .optional()
      .describe('Most matches returned (default 200).'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<GrepResult & { repos_refused: string[] }> => {
    if (input.query && input.q && input.query !== input.q)
      throw new ValidationError('query and q differ; pass one of them', { field: 'q', rule: 'one_of' });
    const query = input.query ?? input.q;
    if (!query) throw new ValidationError('query is required (or q)', { field: 'query', rule: 'required' });
    const { catalog } = ctx.workspace();
    checkScope(catalog, input.project, input.repo);
    // Repositories outside the workspace are never searched: listed as refused, or refused when named.
    const { repos, refused } = readableRepos(catalog, ctx.checkouts(), input.project, input.repo);
    const targets = repos.map((r) => ({ id: r.repo.id, root: r.root }));
    const result = await grepRepos(targets, {
      query,
      regex: input.regex,
      ignoreCase: input.ignore_case,
      limit: input.limit,
      backend: ctx.env.HUB_GREP_BACKEND,
      path: ctx.env.PATH,
    });
    return { ...result, repos_refused: refused };
  },
  cli: {
    command: 'workspace grep',
    args: ['query'],
    human: (r) =>
      [
        ...r.matches.map((m) => `${m.repository}/${m.path}:${m.line}: ${m.text}`),
        `${r.matches.length} match(es)${r.truncated ? ` (limit ${r.limit} reached)` : ''} in ${r.repos_searched} repos [${r.backend}]`,
      ].join('\n'),
  },
  mcp: {
    tool: 'hub_workspace_search',
    when: 'Use when looking for text in files.',
  },
  http: [{ method: 'GET', route: '/v2/workspace/grep', input: 'query' }],
});
