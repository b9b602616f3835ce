import * as z from 'zod';
import { type Catalog, type CatalogRepo, type Checkouts, scopeMiss } from '../catalog/index.js';
import { ValidationError } from '../infra/index.js';
import { cliHelp } from './cli-help.js';

/** The `--project` / `--repo` pair most operations accept. */
export const scopeFields = {
  project: cliHelp(z.string().min(1).optional(), 'Project name; narrows to its repositories.'),
  repo: cliHelp(z.string().min(1).optional(), 'Repository name; with --project, one repository.'),
};

/** Rejects a project/repo filter that names nothing, instead of returning an empty answer. */
export function checkScope(catalog: Catalog, project?: string, repo?: string): void {
  if (!project && !repo) return;
  if (catalog.reposMatching(project, repo).length === 0) {
    const miss = scopeMiss(catalog, project, repo);
    throw new ValidationError(miss.message, miss.details);
  }
}

/** A repository a reader may look into: its real directory when present, else its declared root. */
export interface ReadableRepo {
  repo: CatalogRepo;
  root: string;
  present: boolean;
}

/**
 * The repositories in scope a reader may look into, and the ids it must skip because they lie outside the
 * workspace. A scope that names repositories (--repo) refuses an outside one outright, with the rule.
 */
export function readableRepos(
  catalog: Catalog,
  checkouts: Checkouts,
  project?: string,
  repo?: string,
): { repos: ReadableRepo[]; refused: string[] } {
  const repos: ReadableRepo[] = [];
  const refused: string[] = [];
  for (const r of catalog.reposMatching(project, repo)) {
    const c = checkouts.of(r);
    if (c.state === 'outside') {
      if (repo) throw c.error;
      refused.push(r.id);
    } else
      repos.push({ repo: r, root: c.state === 'present' ? c.dir : r.root, present: c.state === 'present' });
  }
  return { repos, refused };
}
