import * as z from 'zod';
import { ValidationError } from '../infra/index.js';
import { cliHelp, unlisted } from './cli-help.js';
import type { Workspace } from './context.js';
import { checkScope } from './scope.js';

/**
 * `project` (the CLI's --project) and `project_name` (the spec's name in HTTP bodies and sync jobs): one field. The
 * tool list shows `project` only.
 */
export const projectNameFields = {
  project: cliHelp(z.string().min(1).optional(), 'Project name; narrows to its repositories.'),
  project_name: unlisted(z.string().min(1).optional().describe('Same as `project`.')),
};

/** The project named by either field; both given must agree. */
export function projectNameOf(input: { project?: string; project_name?: string }): string | undefined {
  if (input.project && input.project_name && input.project !== input.project_name)
    throw new ValidationError(
      `project '${input.project}' and project_name '${input.project_name}' name different projects; give one`,
      { field: 'project_name', value: input.project_name, rule: 'same_as_project' },
    );
  return input.project ?? input.project_name;
}

/**
 * Rejects a project name the manifest does not declare. Unlike checkScope, a declared project without
 * repositories is accepted: sources (and prune) are exactly for projects whose repositories are not listed yet.
 */
export function checkProjectDeclared(ws: Workspace, project: string | undefined): void {
  if (!project) return;
  if ((ws.file.manifest.workspace?.projects ?? []).some((p) => p.name === project)) return;
  checkScope(ws.catalog, project);
}
