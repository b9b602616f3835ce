import * as z from 'zod';
import {
  adoptWorktree,
  destroyWorktree,
  type GcResult,
  gcWorktrees,
  listWorktrees,
  type RepoOf,
  resolveRepository,
  type WorktreeOutcome,
  type WorktreeRecord,
  type WorktreeView,
} from '../acl/index.js';
import { aclFields, repoDeps } from './acl-deps.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { table } from './format.js';
import { pagedList } from './paged-op.js';
import { defineOp, type OpAttributes, READ_ONLY, WRITES } from './registry.js';
import { createWorktreeFor, startedLine, type WorktreeCreateOutput } from './worktree-create.js';
import { worktreeConfig, worktreeDeps } from './worktree-deps.js';

// Other rooms reach the worktree ports through this module too.
export { worktreeConfig, worktreeDeps };

/** Removes checkouts: MCP clients are told so (destructiveHint). */
const DESTROYS: OpAttributes = { readOnly: false, idempotent: false, destructive: true };

const repoOf =
  (ctx: OpContext): RepoOf =>
  (id) =>
    resolveRepository(repoDeps(ctx), id);

/** Relative paths: from the working directory on the CLI, from the workspace folder over MCP and HTTP. */
const pathBase = (ctx: OpContext) => (ctx.readStdin ? ctx.cwd : ctx.root());

const optional = {
  repository: aclFields.repository.optional(),
  agent_id: aclFields.agent_id.optional(),
  task_id: aclFields.task_id.optional(),
};

const viewRows = (list: WorktreeView[]) =>
  table(
    list.map((w) => [
      w.id,
      w.state,
      w.agent_id,
      w.task_id,
      w.branch ?? '(detached)',
      w.ports?.length ? w.ports.join(',') : '-',
      w.current_path ?? w.path,
    ]),
    ['ID', 'STATE', 'AGENT', 'TASK', 'BRANCH', 'PORTS', 'PATH'],
  );

const outcomeLine = (o: WorktreeOutcome) => {
  const why = o.why ? ` [${o.why.join(', ')}]` : '';
  const reasons = o.reasons.length ? `: ${o.reasons.map((r) => r.reason).join(', ')}` : '';
  return `${o.action} ${o.id} ${o.current_path ?? o.path}${why}${reasons}`;
};

export const worktreeCreate = defineOp({
  id: 'worktree.create',
  summary: 'Create a git worktree for an agent and task on a branch.',
  description:
    'The worktree goes to <workspace.worktrees_path>/<agent_id>/<project>~<repo>/<task_id>. An existing branch is ' +
    'checked out as it stands (--base is then refused). A missing branch is allocated to the agent and task as ' +
    'branch allocate --name would (coordination.allowed_branch_prefixes, one holder per name) and started at ' +
    "--base, else the checkout's HEAD; the result says so (base_ref, base_sha, allocation). A branch checked out in " +
    'another worktree is refused (409). coordination.worktree.post_create links or copies gitignored files from ' +
    'the main checkout and runs a command without a shell. coordination.worktree.ports leases ports no other live ' +
    'worktree of this machine holds (returned as ports, released by destroy and gc); they and the rendered ' +
    'coordination.worktree.env are written to a git-ignored .env.hub in the worktree (HUB_PORT_1..N). Records worktrees/<repo key> and a WorktreeCreated event.',
  input: z.strictObject({
    repository: aclFields.repository,
    agent_id: aclFields.agent_id,
    task_id: aclFields.task_id,
    branch: cliHelp(
      z.string().min(1).describe('Branch to check out; a missing one is allocated and started at `base`.'),
      'Branch to check out; a missing one is allocated and started at --base (default: the checkout HEAD).',
    ),
    base: cliHelp(
      z.string().min(1).optional(),
      "Revision to start the branch from when it does not exist yet (default: the checkout's HEAD).",
    ),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<WorktreeCreateOutput> => createWorktreeFor(ctx, input),
  cli: {
    command: 'worktree create',
    human: (r) => {
      const cmd = r.post_create.command;
      const hook = cmd ? `\npost_create command exited ${cmd.exit_code ?? cmd.signal}` : '';
      const ports = r.ports.length ? `\nports ${r.ports.join(', ')}` : '';
      const env = r.env_file ? `\nenv written to ${r.env_file}` : '';
      return `created worktree ${r.worktree.id} of ${r.worktree.repository} on ${r.worktree.branch} at ${r.worktree.path}${startedLine(r)}${ports}${env}${hook}`;
    },
  },
  mcp: { tool: 'hub_worktree_create', when: 'Use when a task needs its own checkout.' },
  http: [{ method: 'POST', route: '/v3/ops/worktrees', input: 'body' }],
});

export const worktreeList = pagedList(
  defineOp({
    id: 'worktree.list',
    summary: 'List recorded worktrees: present, moved, missing, pruned or elsewhere.',
    description:
      "The state is judged from git's own files (a worktree moved with git worktree move shows its new path as " +
      'current_path); listing never writes.',
    input: z.strictObject(optional),
    gate: 'active',
    attributes: READ_ONLY,
    handler: async (ctx, input): Promise<{ worktrees: WorktreeView[] }> => ({
      worktrees: await listWorktrees(worktreeDeps(ctx), {
        target: input.repository ? await resolveRepository(repoDeps(ctx), input.repository) : undefined,
        agentId: input.agent_id,
        taskId: input.task_id,
      }),
    }),
    cli: { command: 'worktree list', human: (r) => viewRows(r.worktrees) || 'no worktrees' },
    mcp: {
      tool: 'hub_worktree_list',
      when: 'Use when looking for worktrees.',
    },
    http: [{ method: 'GET', route: '/v3/ops/worktrees', input: 'query' }],
  }),
  { key: 'worktrees', noun: 'Worktrees', order: 'by path' },
);

export const worktreeAdopt = defineOp({
  id: 'worktree.adopt',
  summary: 'Record a linked worktree made without hub, for an agent and task.',
  description:
    "The folder must be the top of a linked worktree whose git common dir is the repository's, inside the " +
    'workspace (or a folder allowed by trusted config); the main checkout is refused.',
  input: z.strictObject({
    path: cliHelp(
      z.string().min(1).describe('Worktree folder, relative to the workspace.'),
      'Worktree folder, relative to the workspace (CLI: the working folder).',
    ),
    repository: aclFields.repository,
    agent_id: aclFields.agent_id,
    task_id: aclFields.task_id,
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<{ worktree: WorktreeRecord; adopted: boolean }> =>
    adoptWorktree(worktreeDeps(ctx), worktreeConfig(ctx), {
      target: await resolveRepository(repoDeps(ctx), input.repository),
      path: input.path,
      cwd: pathBase(ctx),
      agentId: input.agent_id,
      taskId: input.task_id,
    }),
  cli: {
    command: 'worktree adopt',
    human: (r) =>
      `${r.adopted ? 'adopted' : 'already recorded:'} worktree ${r.worktree.id} at ${r.worktree.path}`,
  },
  mcp: { tool: 'hub_worktree_adopt', when: 'Use when such a worktree should be tracked.' },
  http: [{ method: 'POST', route: '/v3/ops/worktrees/adopt', input: 'body' }],
});

const forceField = z
  .boolean()
  .default(false)
  .describe('Remove despite uncommitted, untracked or unpushed work.');

export const worktreeDestroy = defineOp({
  id: 'worktree.destroy',
  summary: 'Remove a worktree and its record; dirty or unpushed work needs `force`.',
  description:
    'Name it by --id, --path, or --agent-id and --task-id (with --repository when several repositories match). ' +
    'Commits another branch, a tag or a remote ref holds are not lost (a branch merged locally, e.g. by merge ' +
    "integrate, is removed without --force); a refusal (409) lists each reason and names the commits that would be lost; git's own refusal is reported, never worked around.",
  input: z.strictObject({
    id: cliHelp(z.string().min(1).optional(), 'Worktree id (wt-...).'),
    path: cliHelp(z.string().min(1).optional(), 'Folder of the worktree.'),
    ...optional,
    force: forceField,
  }),
  gate: 'active',
  attributes: DESTROYS,
  handler: async (ctx, input): Promise<WorktreeOutcome> => {
    const deps = worktreeDeps(ctx);
    return destroyWorktree(
      deps,
      repoOf(ctx),
      {
        id: input.id,
        path: input.path,
        cwd: pathBase(ctx),
        target: input.repository ? await resolveRepository(repoDeps(ctx), input.repository) : undefined,
        agentId: input.agent_id,
        taskId: input.task_id,
      },
      input.force,
    );
  },
  cli: { command: 'worktree destroy', human: (r) => outcomeLine(r) },
  mcp: { tool: 'hub_worktree_destroy', when: "Use when a task's worktree is done with." },
  http: [{ method: 'POST', route: '/v3/ops/worktrees/destroy', input: 'body' }],
});

export const worktreeGc = defineOp({
  id: 'worktree.gc',
  summary: "Remove this machine's stale worktrees (released, expired, dead agents, folders gone).",
  description:
    'Worktrees with uncommitted changes, untracked non-ignored files or commits on no other branch, tag or remote ' +
    'ref are skipped, each with its reasons, unless --force; --dry-run only reports (would_remove, would_prune, skipped).',
  input: z.strictObject({
    repository: aclFields.repository.optional(),
    dry_run: cliHelp(z.boolean().default(false), 'Only report what would be removed; change nothing.'),
    force: forceField,
  }),
  gate: 'active',
  attributes: DESTROYS,
  handler: async (ctx, input): Promise<GcResult> =>
    gcWorktrees(worktreeDeps(ctx), repoOf(ctx), {
      target: input.repository ? await resolveRepository(repoDeps(ctx), input.repository) : undefined,
      dryRun: input.dry_run,
      force: input.force,
    }),
  cli: {
    command: 'worktree gc',
    human: (r) =>
      [
        `${r.dry_run ? 'dry run: ' : ''}${r.results.length} stale of ${r.considered} worktree(s) of this machine`,
        ...r.results.map(outcomeLine),
      ].join('\n'),
  },
  mcp: { tool: 'hub_worktree_gc', when: 'Use when old worktrees pile up.' },
  http: [{ method: 'POST', route: '/v3/ops/worktrees/gc', input: 'body' }],
});
