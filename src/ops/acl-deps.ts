import * as z from 'zod';
import type { AclDeps, RepoResolveDeps } from '../acl/index.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { coordDeps } from './coord-deps.js';

/** The ACL ports of a context: the coordination store, its retries and clock. */
export function aclDeps(ctx: OpContext): AclDeps {
  return coordDeps(ctx);
}

/** What `--repository` resolves against: the catalog, the checkout judge and the manifest's folder. */
export function repoDeps(ctx: OpContext): RepoResolveDeps {
  return { catalog: ctx.workspace().catalog, checkouts: ctx.checkouts(), definitionRoot: ctx.root() };
}

/** Input fields every ACL operation shares, so help text and MCP schemas say the same everywhere. */
export const aclFields = {
  repository: cliHelp(
    z.string().min(1).describe('project/repo or .'),
    'Repository: project/repo, or . (also self) for the git repository holding the manifest.',
  ),
  agent_id: cliHelp(z.string().min(1), 'Agent acting (letters, digits, ., _ and -).'),
  task_id: cliHelp(z.string().min(1), 'Task the work belongs to.'),
  ttl: cliHelp(
    z.string().optional().describe('Duration: 30m (default), 2h, 1d.'),
    'How long it lasts without a heartbeat: 30m (default), 90s, 2h, 1d.',
  ),
};
