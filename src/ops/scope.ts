import * as z from 'zod';
import { type Catalog, scopeMiss } from '../catalog/index.js';
import { ValidationError } from '../infra/index.js';

/** The `--project` / `--repo` pair most operations accept. */
export const scopeFields = {
  project: z.string().min(1).optional().describe('Project name; narrows to its repositories.'),
  repo: z.string().min(1).optional().describe('Repository name; with project, one repository.'),
};

/** Rejects a project/repo filter that names nothing, instead of returning an empty answer. */
export function checkScope(catalog: Catalog, project?: string, repo?: string): void {
  if (!project && !repo) return;
  if (catalog.reposMatching(project, repo).length === 0) {
    const miss = scopeMiss(catalog, project, repo);
    throw new ValidationError(miss.message, miss.details);
  }
}
