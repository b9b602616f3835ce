import { resolve } from 'node:path';
import { RefusedError, ValidationError } from '../infra/index.js';
import { formatPointer, NAME_RE, type PatchOperation, type Project, type Repo } from '../model/index.js';
import type { Catalog } from './catalog.js';
import { didYouMean, suggestionText } from './suggest.js';

export interface CatalogAddInput {
  project: string;
  repo?: string;
  path?: string;
  url?: string;
  description?: string;
  /** An entry that exists already with what was passed is a success (`operation: noop`), not a refusal. */
  ensure?: boolean;
}

export interface CatalogAddResult {
  ok: true;
  operation: 'created' | 'noop';
  entity: 'project' | 'repo';
  project: string;
  repo?: string;
}

/** Where a repo's checkout is, for comparing two of them: the path resolved, or where its url is cloned. */
const placeOf = (root: string, project: string, r: { name: string; path?: string }) =>
  r.path ? resolve(root, r.path) : resolve(root, project, r.name);
const sameUrl = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

function checkName(field: 'project' | 'repo', value: string): void {
  if (!NAME_RE.test(value))
    throw new ValidationError(`${field} '${value}' is not a name (letters, digits, '.', '_', '-')`, {
      field,
      value,
      rule: 'name',
    });
}

function refuseMismatch(entity: string, field: string, have: unknown, passed: unknown): never {
  throw new RefusedError(
    `${entity} exists with ${field} ${JSON.stringify(have ?? null)}, not ${JSON.stringify(passed)}: --ensure adds nothing and changes nothing`,
    { field, value: passed, existing: have ?? null, rule: 'ensure_conflict' },
    409,
  );
}

/**
 * Plans adding a project, or a repo to a project, as patch operations. An entry that exists is refused
 * (`already_exists`), or with `ensure` a success with `operation: noop` when what was passed matches it (for a
 * repo its url or path, for a project its description when given) and a refusal naming the field when not.
 */
export function planCatalogAdd(
  catalog: Catalog,
  input: CatalogAddInput,
): { operations: PatchOperation[]; result: CatalogAddResult } {
  checkName('project', input.project);
  const root = catalog.file.root;
  const projects = catalog.file.manifest.workspace?.projects ?? [];
  if (catalog.isApplication && projects.length === 0 && input.repo !== undefined)
    throw new RefusedError('an application manifest has no workspace.projects to add a repo to', {
      rule: 'application_manifest',
    });
  const pi = projects.findIndex((p) => p.name === input.project);
  const noop = (entity: 'project' | 'repo') => ({
    operations: [],
    result: {
      ok: true as const,
      operation: 'noop' as const,
      entity,
      project: input.project,
      repo: input.repo,
    },
  });
  if (input.repo === undefined) {
    if (input.path !== undefined || input.url !== undefined)
      throw new ValidationError('path and url belong to a repo: pass --repo too', {
        field: 'repo',
        rule: 'required',
      });
    if (pi >= 0) {
      if (!input.ensure) throw exists(`project '${input.project}'`);
      const have = projects[pi]!.description;
      if (input.description !== undefined && have !== input.description)
        refuseMismatch(`project '${input.project}'`, 'description', have, input.description);
      return noop('project');
    }
    const project: Project = {
      name: input.project,
      ...(input.description === undefined ? {} : { description: input.description }),
      repos: [],
    };
    return {
      operations: [{ op: 'append', path: '/workspace/projects', value: project }],
      result: { ok: true, operation: 'created', entity: 'project', project: input.project },
    };
  }
  checkName('repo', input.repo);
  if ((input.path === undefined) === (input.url === undefined))
    throw new ValidationError(`repo '${input.project}/${input.repo}' needs exactly one of --path and --url`, {
      field: input.path === undefined ? 'path' : 'url',
      rule: 'repo_locator',
    });
  if (pi < 0) {
    const suggestions = didYouMean(
      input.project,
      projects.map((p) => p.name),
    );
    throw new RefusedError(
      `no project '${input.project}' to add the repo to${suggestionText(suggestions)}; add it first with catalog add --project ${input.project}`,
      { field: 'project', value: input.project, rule: 'project_not_found', suggestions },
    );
  }
  const project = projects[pi]!;
  const id = `${input.project}/${input.repo}`;
  const existing = project.repos.find((r) => r.name === input.repo);
  if (existing) {
    if (!input.ensure) throw exists(`repo '${id}'`);
    if (input.url !== undefined && !(existing.url && sameUrl(existing.url, input.url)))
      refuseMismatch(`repo '${id}'`, 'url', existing.url, input.url);
    if (input.path !== undefined && placeOf(root, input.project, existing) !== resolve(root, input.path))
      refuseMismatch(
        `repo '${id}'`,
        'path',
        existing.path ?? `${input.project}/${existing.name}`,
        input.path,
      );
    return noop('repo');
  }
  // The same repository under another name would be two entries for one checkout or one remote.
  for (const other of catalog.repos) {
    if (other.kind !== 'workspace' || other.raw?.derived_from) continue;
    const clash =
      (input.url !== undefined && other.url !== undefined && sameUrl(other.url, input.url)) ||
      (input.path !== undefined && other.root === resolve(root, input.path));
    if (clash)
      throw new RefusedError(
        `repo ${other.id} is the same repository (${input.url ?? input.path})`,
        {
          field: input.url !== undefined ? 'url' : 'path',
          value: input.url ?? input.path,
          existing: other.id,
          rule: 'duplicate_identity',
        },
        409,
      );
  }
  const repo: Repo = { name: input.repo };
  if (input.path !== undefined) repo.path = input.path;
  if (input.url !== undefined) repo.url = input.url;
  if (input.description !== undefined) repo.description = input.description;
  return {
    operations: [{ op: 'append', path: formatPointer(['workspace', 'projects', pi, 'repos']), value: repo }],
    result: { ok: true, operation: 'created', entity: 'repo', project: input.project, repo: input.repo },
  };
}

function exists(what: string): RefusedError {
  return new RefusedError(
    `${what} exists already; pass --ensure to accept an entry that matches`,
    {
      rule: 'already_exists',
    },
    409,
  );
}
