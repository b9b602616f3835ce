import * as z from 'zod';
import { gitRefs } from '../catalog/index.js';
import { beginSession, headsOf, type RepoRef, sessionDigest, updateSession } from '../coord/index.js';
import { sha256Hex } from '../infra/index.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { readManifestBytes } from './load-workspace.js';
import { defineOp, READ_ONLY, WRITES } from './registry.js';
import { checkScope } from './scope.js';

/** Most repositories a digest reads from git in one call. */
const DIGEST_REPO_LIMIT = 200;

function reposFor(
  ctx: OpContext,
  project?: string,
  repo?: string,
): { repos: RepoRef[]; truncated: boolean; manifestHash: string } {
  const ws = ctx.workspace();
  checkScope(ws.catalog, project, repo);
  const all = ws.catalog
    .reposMatching(project, repo)
    .filter((r) => r.kind === 'workspace' || r.kind === 'application');
  return {
    // A repository outside the workspace is never read (its git state included).
    repos: gitRefs(ctx.checkouts(), all.slice(0, DIGEST_REPO_LIMIT)),
    truncated: all.length > DIGEST_REPO_LIMIT,
    manifestHash: sha256Hex(readManifestBytes(ws.file.path, ws.file.maxBytes)),
  };
}

const summarize = (r: {
  repo_changes: Array<{ repository: string; commit_count: number; dirty: boolean }>;
}) =>
  r.repo_changes
    .filter((c) => c.commit_count > 0 || c.dirty)
    .map((c) => `${c.repository}: ${c.commit_count} new commit(s)${c.dirty ? ', uncommitted changes' : ''}`)
    .join('\n') || 'no changes since the last session';

export const sessionBegin = defineOp({
  id: 'session.begin',
  summary:
    'Start a work session: changes since last time, active objective, open handoffs, pending approvals.',
  input: z.strictObject({
    project_name: z.string().min(1).optional().describe('Only this project (default: all).'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input) => {
    const { store, info } = ctx.store();
    const { repos, truncated, manifestHash } = reposFor(ctx, input.project_name);
    const env = await beginSession(store, repos, {
      project: input.project_name,
      manifestHash,
      now: ctx.now(),
      retries: info.conflict_retries,
    });
    const ws = ctx.workspace();
    return {
      ...env,
      project: input.project_name ?? null,
      manifest: {
        path: ws.file.path,
        name: ws.file.manifest.workspace?.name ?? ws.file.manifest.name ?? null,
        projects: [...new Set(ws.catalog.repos.map((r) => r.project))],
        repos: repos.map((r) => r.id),
        components: ws.catalog.components.filter(
          (c) => !input.project_name || c.project === input.project_name,
        ).length,
      },
      truncated,
    };
  },
  cli: {
    command: 'session begin',
    human: (r) => `session ${r.session.count} started at ${r.session.started_at}\n${summarize(r.digest)}`,
  },
  mcp: { tool: 'hub_session_begin', when: 'Use when you start working.' },
  http: [{ method: 'POST', route: '/v3/ops/session/begin', input: 'body' }],
});

export const sessionDigestOp = defineOp({
  id: 'session.digest',
  summary: 'Changes since the last session (new commits, dirty state) and the active objective.',
  input: z.strictObject({
    project: cliHelp(z.string().min(1).optional(), 'Project name; narrows to its repositories.'),
    repo: cliHelp(z.string().min(1).optional(), 'Repository name.'),
  }),
  gate: 'active',
  // A pure read on every surface (it is bound to GET): `session update --advance` or `session begin` move the boundary.
  attributes: READ_ONLY,
  handler: async (ctx, input) => {
    const { store } = ctx.store();
    const { repos, truncated, manifestHash } = reposFor(ctx, input.project, input.repo);
    return { ...(await sessionDigest(store, repos, { manifestHash })), truncated };
  },
  cli: { command: 'session digest', human: (r) => summarize(r) },
  mcp: { tool: 'hub_session_digest', when: 'Use when you need recent changes only.' },
  http: [{ method: 'GET', route: '/v3/ops/session', input: 'query' }],
});

export const sessionUpdateOp = defineOp({
  id: 'session.update',
  summary: "Set the session's active objective or notes; `advance` starts a new boundary.",
  input: z.strictObject({
    active_objective_id: cliHelp(z.string().min(1).optional(), 'Objective this session works on.'),
    project: cliHelp(z.string().min(1).optional(), 'Project the session is about.'),
    notes: cliHelp(z.string().optional(), 'Free-form session notes.'),
    advance: z.boolean().optional().describe('Move the session boundary to now.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input) => {
    const { store, info } = ctx.store();
    let boundary = {};
    if (input.advance) {
      // The new boundary records every HEAD (as `session begin` does), so the next digest counts commits exactly.
      const { repos, manifestHash } = reposFor(ctx, input.project);
      const digest = await sessionDigest(store, repos, { manifestHash });
      boundary = { manifest_hash: manifestHash, heads: headsOf(digest) };
    }
    return {
      session: await updateSession(
        store,
        { ...input, ...boundary },
        { now: ctx.now(), retries: info.conflict_retries },
      ),
    };
  },
  cli: { command: 'session update', human: (r) => JSON.stringify(r.session, null, 2) },
  mcp: {
    tool: 'hub_session_update',
    when: 'Use when your focus changes.',
  },
  http: [{ method: 'POST', route: '/v3/ops/session', input: 'body' }],
});
