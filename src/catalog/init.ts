import { isAbsolute } from 'node:path';
import type { Catalog, CatalogRepo } from './catalog.js';
import { type Checkouts, checkoutsOf } from './checkout.js';
import {
  isInside,
  NAME_RE_MESSAGE,
  normalizeRelPath,
  RefusedError,
  realpathDeepest,
  realpathOrUndefined,
  resolveReal,
  toRootRelative,
  ValidationError,
} from './deps.js';
import { kindHint } from './detect.js';
import { scopeMiss } from './suggest.js';
import { componentDirectoryProblem } from './validate.js';

export interface InitInput {
  path: string;
  name?: string;
  kind?: string;
  project?: string;
  repo?: string;
}

export interface ComponentDraft {
  name: string;
  path: string;
  kind: string;
  language?: string | string[];
  /** Examples, benchmarks, fuzz targets, tests (from detect): written as the tag `role`. */
  role?: string;
}

/** Picks the one repository an init or apply writes to; several repos need an explicit project and repo. */
export function targetRepo(catalog: Catalog, project?: string, repo?: string): CatalogRepo {
  if (catalog.repos.length > 1 && (!project || !repo)) {
    throw new ValidationError('this workspace has more than one repository: pass --project and --repo', {
      field: project ? 'repo' : 'project',
      repos: catalog.repos.slice(0, 20).map((r) => r.id),
      rule: 'scope_required',
    });
  }
  const hits = catalog.reposMatching(project, repo);
  if (hits.length === 0) {
    if (catalog.repos.length === 0 && catalog.appName && !project && !repo) {
      // An application manifest without paths yet: its own root is the repository.
      return {
        id: `${catalog.appName}/${catalog.appName}`,
        project: catalog.appName,
        name: catalog.appName,
        root: catalog.file.root,
        tags: {},
        kind: 'application',
      };
    }
    const miss = scopeMiss(catalog, project, repo);
    throw new ValidationError(miss.message, miss.details);
  }
  return hits[0]!;
}

/** Drafts one component for a path; a second init of an already catalogued path is an error. */
export function draftComponent(
  catalog: Catalog,
  input: InitInput,
  checkouts: Checkouts = checkoutsOf(catalog),
): { repo: CatalogRepo; draft: ComponentDraft; problem: ReturnType<typeof componentDirectoryProblem> } {
  const repo = targetRepo(catalog, input.project, input.repo);
  // A repository outside the workspace takes no components (and its folders are not looked at).
  if (repo.yamlPath) checkouts.refuseOutside(repo);
  const realRoot = realpathOrUndefined(repo.root);
  const outside = (how: string) =>
    new ValidationError(`path '${input.path}' ${how} repository ${repo.id} (${repo.root})`, {
      field: 'path',
      value: input.path,
      rule: 'inside_repo',
    });
  let rel = input.path;
  if (isAbsolute(rel)) {
    // The repository may be reached through a symlink: compare real paths when the textual ones differ.
    const real = realpathDeepest(rel);
    if (isInside(repo.root, rel)) rel = toRootRelative(repo.root, rel);
    else if (realRoot && real && isInside(realRoot, real)) rel = toRootRelative(realRoot, real);
    else throw outside('is outside');
  }
  const norm = normalizeRelPath(rel);
  if (norm.escapes) throw outside('escapes the root of');
  // On the real path too: `etclink/ssh` with etclink -> /etc would be written to the manifest and then rejected.
  if (realRoot && !resolveReal(repo.root, norm.path)) {
    throw outside('leaves, through a symlink,');
  }
  const existing = catalog.componentsByRepoPath.get(repo.id)?.get(norm.path);
  if (existing) {
    throw new RefusedError(
      `path '${norm.path}' is already catalogued as ${existing.id}`,
      { field: 'path', value: input.path, existing: existing.id },
      409,
    );
  }
  const base = norm.path === '.' ? repo.name : norm.path.split('/').pop()!;
  const name = input.name ?? base;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
    throw new ValidationError(`component name '${name}' is invalid: ${NAME_RE_MESSAGE}`, {
      field: 'name',
      value: name,
    });
  }
  const taken = (catalog.componentsByRepo.get(repo.id) ?? []).find((c) => c.name === name);
  if (taken) {
    throw new RefusedError(
      `component name '${name}' is already used in ${repo.id} (path ${taken.path}); pass --name`,
      { field: 'name', value: name, existing: taken.id },
      409,
    );
  }
  const problem = componentDirectoryProblem(repo, norm.path);
  return {
    repo,
    draft: { name, path: norm.path, kind: input.kind ?? kindHint(norm.path) ?? 'unknown' },
    problem,
  };
}

/**
 * Refuses to write a component `hub config validate` would reject: its directory must exist in a checked-out
 * repo (create it first). A repo that is not checked out cannot be checked, and is written as validate allows.
 */
export function checkApplicable(
  repo: CatalogRepo,
  draft: ComponentDraft,
  problem: ReturnType<typeof componentDirectoryProblem>,
): void {
  if (!problem) return;
  throw new ValidationError(`cannot add ${repo.id}/${draft.name}: ${problem.message}`, {
    field: 'path',
    value: draft.path,
    rule: problem.rule,
    hint:
      problem.rule === 'missing_directory'
        ? `create the directory first (mkdir -p ${problem.abs}), then apply again; \`hub config validate\` rejects a component whose directory is missing`
        : 'point the component at a real directory inside the repository',
  });
}
