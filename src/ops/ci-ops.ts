import * as z from 'zod';
import { type Catalog, type CatalogRepo, scopeMiss } from '../catalog/index.js';
import {
  CI_PROVIDERS,
  type CiDescriptor,
  type CiDetection,
  checkDescriptor,
  configPathOf,
  declaredCi,
  detectCi,
  suggestedCi,
  writeRepoCi,
} from '../ci/index.js';
import { NotFoundError, tryReadFileBounded, ValidationError } from '../infra/index.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { table } from './format.js';
import { defineOp, READ_ONLY, WRITES_IDEMPOTENT } from './registry.js';
import { checkScope, readableRepos, scopeFields } from './scope.js';

const oneRepo = {
  project: cliHelp(z.string().min(1), 'Project name.'),
  repo: cliHelp(z.string().min(1), 'Repository name.'),
};

/** One repository by project and name; unknown is NotFoundError with close names. */
function repoOf(catalog: Catalog, project: string, repo: string): CatalogRepo {
  const hit = catalog.repoById.get(`${project}/${repo}`);
  if (hit) return hit;
  const miss = scopeMiss(catalog, project, repo, { project: 'unknown_project', repo: 'unknown_repository' });
  throw new NotFoundError(miss.message, miss.details);
}

/** The checkout to look into, when it is present inside the workspace (an outside one is refused by the judge). */
function checkoutOf(ctx: OpContext, repo: CatalogRepo): string | undefined {
  const c = ctx.checkouts().of(repo);
  if (c.state === 'outside') throw c.error;
  return c.state === 'present' ? c.dir : undefined;
}

/** Whether the declared configuration file is a readable regular file of the checkout (null: cannot tell). */
function configExists(dir: string | undefined, path: string | null): boolean | null {
  if (!dir || !path) return null;
  const r = tryReadFileBounded(`${dir}/${path}`, { root: dir, maxBytes: 0, truncate: true });
  return r.ok;
}

export interface CiShowResult {
  repository: string;
  present: boolean;
  declared: CiDescriptor | null;
  config_path: string | null;
  /** The declared file is in the checkout (null when nothing is declared or the checkout is missing). */
  config_exists: boolean | null;
}

export const repoCiShow = defineOp({
  id: 'project.repo.ci.show',
  summary: "A repository's recorded CI target and whether its file is in the checkout.",
  description:
    'Reads the manifest and at most one file name in the checkout; `project repo ci detect` looks at the files.',
  input: z.strictObject(oneRepo),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): CiShowResult => {
    const { catalog } = ctx.workspace();
    const repo = repoOf(catalog, input.project, input.repo);
    const dir = checkoutOf(ctx, repo);
    const declared = declaredCi(repo.raw?.ci);
    const path = configPathOf(declared);
    return {
      repository: repo.id,
      present: dir !== undefined,
      declared,
      config_path: path,
      config_exists: configExists(dir, path),
    };
  },
  cli: {
    command: 'project repo ci show',
    short: { project: 'p', repo: 'n' },
    human: (r) =>
      r.declared
        ? `${r.repository}: ${r.declared.provider ?? '?'}${r.config_path ? ` ${r.config_path}` : ''}${r.config_exists === false ? ' (file missing in the checkout)' : ''}${r.declared.url ? `\nurl: ${r.declared.url}` : ''}`
        : `${r.repository}: no ci recorded (try: hub project repo ci detect --project <p> --repo <r>)`,
  },
  mcp: { tool: 'hub_repo_ci_show', when: 'Use when asking what builds a repository.' },
  http: [{ method: 'GET', route: '/v3/ops/repos/ci', input: 'query' }],
});

export interface CiDetectRow {
  repository: string;
  present: boolean;
  declared: CiDescriptor | null;
  providers: CiDetection['providers'];
  /** What `ci set --detected` would record. */
  suggested: CiDescriptor | null;
  /** The declared provider and file are among the detected ones (null when nothing is declared or no checkout). */
  declared_found: boolean | null;
}

function declaredFound(declared: CiDescriptor | null, det: CiDetection, present: boolean): boolean | null {
  if (!declared || !present) return null;
  const p = det.providers.find((x) => x.provider === declared.provider);
  if (!p) return false;
  const path = configPathOf(declared);
  return path === null || p.files.some((f) => f.path === path);
}

export const CI_DETECT_DEFAULT_LIMIT = 100;

export const repoCiDetect = defineOp({
  id: 'project.repo.ci.detect',
  summary: 'Detect the CI systems of checkouts from their files.',
  description:
    `Looks for ${CI_PROVIDERS.join(', ')} where each documents its configuration (.github/workflows/*.yml, ` +
    '.gitlab-ci.yml, .circleci/config.yml, azure-pipelines.yml and .azure-pipelines/*.yml, Jenkinsfile, ' +
    '.buildkite/pipeline.yml, ...) and names what each file defines (workflows, jobs, stages, triggers, includes). ' +
    'Never writes and never calls a CI service; files over 512 KiB or outside the checkout are listed with an error.',
  input: z.strictObject({
    ...scopeFields,
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(5000)
      .optional()
      .describe(`Repositories per page (default ${CI_DETECT_DEFAULT_LIMIT}).`),
    offset: cliHelp(z.coerce.number().int().min(0).optional(), 'Repositories to skip.'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input) => {
    const { catalog } = ctx.workspace();
    checkScope(catalog, input.project, input.repo);
    const { repos, refused } = readableRepos(catalog, ctx.checkouts(), input.project, input.repo);
    const offset = input.offset ?? 0;
    const page = repos.slice(offset, offset + (input.limit ?? CI_DETECT_DEFAULT_LIMIT));
    const rows: CiDetectRow[] = page.map(({ repo, root, present }) => {
      const det: CiDetection = present ? detectCi(root) : { providers: [] };
      const declared = declaredCi(repo.raw?.ci);
      return {
        repository: repo.id,
        present,
        declared,
        providers: det.providers,
        suggested: suggestedCi(det),
        declared_found: declaredFound(declared, det, present),
      };
    });
    const end = offset + rows.length;
    return {
      total: repos.length,
      offset,
      next_offset: end < repos.length ? end : null,
      truncated: end < repos.length,
      repos: rows,
      skipped_outside: refused,
    };
  },
  cli: {
    command: 'project repo ci detect',
    short: { project: 'p', repo: 'n' },
    human: (r) =>
      table(
        r.repos.flatMap((x) =>
          x.providers.length === 0
            ? [[x.repository, x.present ? '-' : '(not checked out)', '', '']]
            : x.providers.flatMap((p) =>
                p.files.map((f) => [
                  x.repository,
                  p.provider,
                  f.path,
                  f.error ??
                    [
                      ...f.workflows.slice(0, 1),
                      ...(f.jobs.length ? [`jobs: ${f.jobs.join(', ')}`] : []),
                      ...(f.stages.length ? [`stages: ${f.stages.join(', ')}`] : []),
                    ].join('; '),
                ]),
              ),
        ),
        ['REPO', 'CI', 'FILE', 'NAMES'],
      ),
  },
  mcp: { tool: 'hub_repo_ci_detect', when: 'Use when asking which CI each repository uses.' },
  http: [{ method: 'GET', route: '/v3/ops/repos/ci/detect', input: 'query' }],
});

export const repoCiSet = defineOp({
  id: 'project.repo.ci.set',
  summary:
    "Record a repository's CI target in the manifest (keeps comments); --detected records what detect found.",
  description:
    'Give --provider (with --workflow for GitHub Actions or --pipeline for the others, and --url), or --detected ' +
    '(the first detected system and its main file), or --clear (removes `ci`). Only the `ci` lines of that ' +
    'repository change; running it again with the same values writes nothing.',
  input: z.strictObject({
    ...oneRepo,
    provider: z
      .string()
      .min(1)
      .optional()
      .describe(`CI system: ${CI_PROVIDERS.join(', ')}.`),
    workflow: z.string().min(1).optional().describe('Workflow file (GitHub Actions), repository-relative.'),
    pipeline: z.string().min(1).optional().describe('Pipeline file or name (other systems).'),
    url: z.string().min(1).optional().describe('Where its runs are shown (http or https).'),
    detected: z.boolean().optional().describe('Record what `ci detect` suggests for this repository.'),
    clear: z.boolean().optional().describe('Remove the recorded ci.'),
  }),
  gate: 'active',
  attributes: WRITES_IDEMPOTENT,
  handler: (ctx, input) => {
    const { catalog } = ctx.workspace();
    const repo = repoOf(catalog, input.project, input.repo);
    const modes = [input.provider !== undefined, Boolean(input.detected), Boolean(input.clear)].filter(
      Boolean,
    );
    if (modes.length !== 1)
      throw new ValidationError('give exactly one of --provider, --detected or --clear (rule one_source)', {
        field: 'provider',
        rule: 'one_source',
      });
    if (input.provider === undefined && (input.workflow || input.pipeline || input.url))
      throw new ValidationError('--workflow, --pipeline and --url go with --provider (rule needs_provider)', {
        field: 'provider',
        rule: 'needs_provider',
      });
    let next: CiDescriptor | null = null;
    if (input.provider !== undefined) next = checkDescriptor({ ...input, provider: input.provider });
    else if (input.detected) {
      const dir = checkoutOf(ctx, repo);
      next = dir ? suggestedCi(detectCi(dir)) : null;
      if (!next)
        throw new ValidationError(
          `${repo.id}: ${dir ? 'no CI configuration file was found in the checkout' : 'the repository is not checked out'}, so there is nothing detected to record (rule nothing_detected)`,
          { field: 'detected', value: true, rule: 'nothing_detected', repository: repo.id },
        );
    }
    const { changed, previous } = writeRepoCi(catalog, repo, next);
    if (changed) ctx.invalidate();
    // Recorded anyway (the file may come with the next pull), but said: a typo here is easy to make.
    const path = configPathOf(next);
    const warnings =
      path && configExists(checkoutOf(ctx, repo), path) === false
        ? [`${path} is not a file in the checkout of ${repo.id}`]
        : [];
    return { repository: repo.id, ci: next, previous, changed, manifest: catalog.file.path, warnings };
  },
  cli: {
    command: 'project repo ci set',
    short: { project: 'p', repo: 'n' },
    human: (r) =>
      [
        `${r.repository}: ${r.changed ? 'recorded' : 'unchanged'} ci ${r.ci ? `${r.ci.provider}${configPathOf(r.ci) ? ` ${configPathOf(r.ci)}` : ''}` : '(none)'} in ${r.manifest}`,
        ...r.warnings.map((w) => `warning: ${w}`),
      ].join('\n'),
  },
  http: [{ method: 'POST', route: '/v3/ops/repos/ci', input: 'body' }],
});
