import { resolve } from 'node:path';
import { listClaims } from '../acl/index.js';
import {
  bundledTemplatesDir,
  type DispatchTemplate,
  type ForeignClaim,
  gitRootOf,
  resolveTemplate,
  type ScopeRoot,
} from '../agents/index.js';
import type { CatalogRepo } from '../catalog/index.js';
import { isInside, realpathOrUndefined, ValidationError } from '../infra/index.js';
import { aclDeps } from './acl-deps.js';
import type { OpContext } from './context.js';

/**
 * The install scopes of a dispatch: project scope is the repository checkout's git root (the agent is launched
 * there), or the workspace's for a target without a repository; user scope is the home folder the environment
 * names (HOME, else USERPROFILE), never the process's own, so a test or a server can point it elsewhere.
 */
export function dispatchScopes(
  ctx: OpContext,
  repo: CatalogRepo | undefined,
): { project: ScopeRoot; user: ScopeRoot } {
  const home = ctx.env.HOME || ctx.env.USERPROFILE;
  const user: ScopeRoot = home ? { base: home } : { unavailable: 'HOME is not set' };
  if (!repo) {
    const root = gitRootOf(ctx.root());
    return {
      project: root ? { base: root } : { unavailable: 'the workspace is not in a git repository' },
      user,
    };
  }
  const c = ctx.checkouts().of(repo);
  if (c.state === 'outside')
    return { project: { unavailable: `${repo.id} lies outside the workspace` }, user };
  if (c.state === 'missing')
    return { project: { unavailable: `${repo.id} is not checked out at ${repo.root}` }, user };
  const root = gitRootOf(c.dir);
  return { project: root ? { base: root } : { unavailable: `${repo.id} is not a git repository` }, user };
}

/**
 * `-c <manifest>` when a command run in `folder` would not find the workspace's manifest by walking up (a
 * repository allowed outside the workspace folder); nothing otherwise, so printed commands stay short.
 */
export function definitionArgs(ctx: OpContext, folder: string | undefined): string[] {
  const ws = ctx.workspace();
  if (!folder) return [];
  const real = realpathOrUndefined(folder) ?? folder;
  const root = realpathOrUndefined(ws.file.root) ?? ws.file.root;
  return isInside(root, real) ? [] : ['-c', ws.file.path];
}

/** Live claims in the repository held by agents other than `agentId` (all of them without one). */
export async function foreignClaims(
  ctx: OpContext,
  repo: CatalogRepo,
  agentId?: string,
): Promise<ForeignClaim[]> {
  const claims = await listClaims(aclDeps(ctx), { repository: repo.id, status: 'active' });
  return claims
    .filter((c) => c.agent_id !== agentId)
    .map((c) => ({
      claim_id: c.claim_id,
      agent_id: c.agent_id,
      patterns: c.patterns,
      expires_at: c.expires_at,
      ...(c.task_id ? { task_id: c.task_id } : {}),
    }));
}

/**
 * `--root` of `agent dispatch-plan` (the earlier product's flag): accepted when it names the workspace root (the
 * manifest's folder, symlinks resolved), refused otherwise: `-c` picks another workspace, and a root the caller
 * chooses must never steer which folders a server reads.
 */
export function checkRoot(ctx: OpContext, root: string | undefined): void {
  if (root === undefined) return;
  const want = realpathOrUndefined(ctx.workspace().file.root) ?? ctx.workspace().file.root;
  if (realpathOrUndefined(resolve(ctx.cwd, root)) !== want)
    throw new ValidationError(
      `root: '${root}' is not the workspace root ${want}; use -c <manifest> for another workspace`,
      {
        field: 'root',
        value: root,
        rule: 'workspace_root',
      },
    );
}

/** The template a dispatch is for, read through the templates room (bundled, then the workspace's overlays). */
export function dispatchTemplate(ctx: OpContext, id: string): DispatchTemplate {
  const t = resolveTemplate(id, { bundledDir: bundledTemplatesDir(), workspaceRoot: ctx.root() });
  const m = t.manifest;
  return {
    id: t.id,
    label: m.name,
    scope: m.scope,
    category: m.ui.category,
    source: t.source,
    recommended_skills: m.recommended_skills,
    delegates_to: m.delegates_to,
    // Every bundled template renders for all eight vendors (front-matter hints are optional).
    vendors: null,
    // The schema has no out-of-scope field: delegates_to and the scope are the template's limits (handoff.ts).
    limits: [],
  };
}
