import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as z from 'zod';
import {
  checkAgentId,
  type GuardCheck,
  guardCheck,
  installGuard,
  resolveRepository,
  uninstallGuard,
} from '../acl/index.js';
import { ValidationError } from '../infra/index.js';
import { findPackageRoot } from '../workspace/index.js';
import { aclDeps, aclFields, repoDeps } from './acl-deps.js';
import { PACKAGE_NAME } from './build-info.js';
import type { OpContext } from './context.js';
import { defineOp, READ_ONLY, WRITES_IDEMPOTENT } from './registry.js';

/**
 * The command the hook runs, recorded at install time: this node and this hub's launcher, absolute, so a commit
 * in any worktree runs the same hub whatever PATH says (the hook falls back to `hub` on PATH if it moves).
 */
function hubCommand(): string[] {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = findPackageRoot(here, PACKAGE_NAME) ?? resolve(here, '..', '..');
  return [process.execPath, join(root, 'bin', 'hub')];
}

/** The manifest the hook names: the one this command used, absolute. */
function manifestPath(ctx: OpContext): string {
  return ctx.workspace().file.path;
}

// The guard acts on this machine's checkouts and writes an executable hook into them: a local user's action,
// so it is on the CLI only (not MCP, not HTTP).

export const claimGuardInstall = defineOp({
  id: 'claim.guard.install',
  summary: 'Install the claim guard in the repository pre-commit hook (merged with an existing hook).',
  description:
    'The hook lists the staged paths and reports those another live agent claims: a warning, or with --strict ' +
    'the commit stops. The agent is HUB_AGENT_ID, else `git config hub.agentId`. core.hooksPath is respected; ' +
    'installing again replaces the block; the hook keeps its own lines.',
  input: z.strictObject({
    repository: aclFields.repository,
    strict: z.boolean().optional().describe('Stop commits that touch paths another live agent claims.'),
  }),
  gate: 'active',
  attributes: WRITES_IDEMPOTENT,
  handler: async (ctx, input) => {
    const target = await resolveRepository(repoDeps(ctx), input.repository);
    return installGuard(target, {
      manifest: manifestPath(ctx),
      hubCommand: hubCommand(),
      strict: input.strict ?? false,
    });
  },
  cli: {
    command: 'claim guard install',
    human: (r) =>
      `${r.replaced ? 'replaced' : 'installed'} the ${r.strict ? 'strict' : 'warning'} claim guard of ${r.repository} in ${r.hook}${r.merged ? ' (kept the hook’s own lines)' : ''}`,
  },
});

export const claimGuardUninstall = defineOp({
  id: 'claim.guard.uninstall',
  summary: 'Remove the claim guard block from the repository pre-commit hook (the hook keeps its own lines).',
  input: z.strictObject({ repository: aclFields.repository }),
  gate: 'active',
  attributes: WRITES_IDEMPOTENT,
  handler: async (ctx, input) => uninstallGuard(await resolveRepository(repoDeps(ctx), input.repository)),
  cli: {
    command: 'claim guard uninstall',
    human: (r) => (r.removed ? `removed the claim guard from ${r.hook}` : `no claim guard in ${r.hook}`),
  },
});

const hitLine = (h: GuardCheck['hits'][number]) =>
  `  ${h.path}: claimed by ${h.agent_id} (${h.claim_id}, ${h.claimed_pattern}) until ${h.expires_at}`;

export const claimGuardCheck = defineOp({
  id: 'claim.guard.check',
  summary: 'Report staged paths (or --path) that live claims of other agents cover; --strict exits 1 on any.',
  description: 'Run by the pre-commit hook; from a checkout of another repository it checks nothing.',
  input: z.strictObject({
    repository: aclFields.repository,
    agent_id: aclFields.agent_id.optional().describe('Agent committing: its own claims are fine.'),
    strict: z.boolean().optional().describe('Exit 1 when another agent claims a path (the commit stops).'),
    path: z
      .array(z.string())
      .optional()
      .describe('Repository-relative paths to check instead of the staged ones.'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<GuardCheck> => {
    const target = await resolveRepository(repoDeps(ctx), input.repository);
    if (input.agent_id !== undefined) checkAgentId(input.agent_id);
    for (const [i, p] of (input.path ?? []).entries())
      if (p === '' || p.startsWith('/') || p.split('/').some((s) => s === '' || s === '.' || s === '..'))
        throw new ValidationError(`path[${i}]: '${p}' is not a repository-relative path`, {
          field: `path[${i}]`,
          value: p,
          rule: 'relative_path',
        });
    return guardCheck(aclDeps(ctx), target, {
      cwd: ctx.cwd,
      agent_id: input.agent_id,
      strict: input.strict ?? false,
      paths: input.path,
    });
  },
  cli: {
    command: 'claim guard check',
    exitCode: (r) => (r.blocked ? 1 : 0),
    human: (r) => {
      if (r.skipped) return `hub claim guard: ${r.skipped}; nothing checked`;
      if (r.hits.length === 0)
        return `hub claim guard: ${r.paths_checked} path(s) checked; none claimed by another agent`;
      return [
        `hub claim guard: ${r.hits.length} staged path(s) claimed by another agent in ${r.repository}:`,
        ...r.hits.map(hitLine),
        r.blocked
          ? 'commit stopped (strict); release or wait for the claims, or commit with --no-verify'
          : 'warning only; the commit goes ahead',
      ].join('\n');
    },
  },
});
