import * as z from 'zod';
import { type RepoResolveResult, resolveRepo } from '../workspace/index.js';
import { defineOp, READ_ONLY } from './registry.js';
import { checkScope } from './scope.js';

export const repoResolve = defineOp({
  id: 'repo.resolve',
  summary: 'Resolve a repo id, name, clone URL or path to one managed repository (a miss is matched:false).',
  description:
    'A path inside a checkout resolves to the deepest repository containing it; relative paths start at the ' +
    'definition root when one is set, else the working directory. A name shared by several repos is an error.',
  input: z.strictObject({
    ref: z.string().min(1).describe('Repository id (<project>/<repo>), name, clone URL or filesystem path.'),
    project: z.string().min(1).optional().describe('Project name; narrows to its repositories.'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): RepoResolveResult => {
    const ws = ctx.workspace();
    checkScope(ws.catalog, input.project);
    const base = ws.explicitDefinition ? ws.file.root : ctx.cwd;
    return resolveRepo(ws.catalog, { ref: input.ref, project: input.project, base });
  },
  cli: {
    command: 'repo resolve',
    args: ['ref'],
    human: (r) =>
      r.matched && r.repo
        ? `${r.repo.id}  ${r.repo.path ?? r.repo.url ?? ''}${r.relative_path && r.relative_path !== '.' ? `  (${r.relative_path})` : ''}`
        : `no managed repository matches ${r.ref}`,
  },
  http: [{ method: 'GET', route: '/v1/repos/resolve', input: 'query' }],
});
