import * as z from 'zod';
import type { Catalog } from '../catalog/index.js';
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
    throw new ValidationError(
      `no repository matches --project ${project ?? '(any)'} --repo ${repo ?? '(any)'}`,
      {
        field: repo ? 'repo' : 'project',
        value: repo ?? project,
        rule: 'unknown_scope',
        known_projects: [...new Set(catalog.repos.map((r) => r.project))].slice(0, 50),
      },
    );
  }
}
