import * as z from 'zod';
import {
  planSync,
  type SourceSyncResult,
  SYNC_DEFAULT_CONCURRENCY,
  SYNC_MAX_CONCURRENCY,
  type SyncRow,
  type SyncSummary,
  syncRepos,
} from '../sync/index.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { checkProjectDeclared, projectNameFields, projectNameOf } from './project-name.js';
import { defineOp, WRITES } from './registry.js';
import { runSourceSync, sourceSyncText } from './source-ops.js';

export interface ProjectSyncResult extends SyncSummary {
  ok: boolean;
  dry_run: boolean;
  project: string | null;
  /** With refresh_sources: what the sources added, updated or removed first (previewed on a dry run). */
  sources?: SourceSyncResult;
}

const describeRow = (r: SyncRow): string => {
  if (r.action === 'updated') return `updated ${r.from}..${r.to}`;
  if (r.reason) return `${r.action} (${r.reason})`;
  return r.action;
};

/** Syncs the workspace's repositories (or one project's), reporting progress as each repository finishes. */
export async function runProjectSync(
  ctx: OpContext,
  input: { project?: string; concurrency?: number; dry_run?: boolean; refresh_sources?: boolean },
): Promise<ProjectSyncResult> {
  checkProjectDeclared(ctx.workspace(), input.project);
  const sources = input.refresh_sources
    ? await runSourceSync(ctx, { project: input.project, apply: !input.dry_run })
    : undefined;
  // Reloaded: the sources may have added repositories to clone.
  const { catalog } = ctx.workspace();
  const { targets, preset } = planSync(catalog.reposMatching(input.project), ctx.checkouts());
  const progress = ctx.progress(input.dry_run ? 'sync (dry run)' : 'sync', targets.length + preset.length);
  try {
    const summary = await syncRepos(targets, preset, {
      concurrency: input.concurrency,
      dryRun: input.dry_run,
      onDone: (r) => progress.tick(`${r.id}: ${describeRow(r)}`),
    });
    return {
      ok: summary.counts.failed === 0 && (sources?.ok ?? true),
      dry_run: Boolean(input.dry_run),
      project: input.project ?? null,
      ...summary,
      ...(sources ? { sources } : {}),
    };
  } finally {
    progress.done();
  }
}

/** The human summary: every row that changed or needs attention, unchanged ones as a count. */
export function syncText(r: ProjectSyncResult): string {
  const lines: string[] = r.sources ? [sourceSyncText(r.sources), ''] : [];
  for (const x of r.repos) {
    if (x.action === 'unchanged') continue;
    const detail =
      x.action === 'updated'
        ? `${x.from}..${x.to}`
        : x.reason
          ? `${x.reason}${x.message ? `: ${x.message}` : ''}`
          : '';
    lines.push(`${x.action.padEnd(11)} ${x.id}${detail ? `  ${detail}` : ''}`);
  }
  const c = r.counts;
  const parts = r.dry_run
    ? [`${c.would_clone} to clone`, `${c.would_fetch} to fetch`, `${c.skipped} skipped`, `${c.failed} failed`]
    : [
        `${c.cloned} cloned`,
        `${c.updated} updated`,
        `${c.unchanged} unchanged`,
        `${c.skipped} skipped`,
        `${c.failed} failed`,
      ];
  lines.push(`sync${r.dry_run ? ' (dry run)' : ''}: ${parts.join(', ')} of ${r.total} repositories`);
  return lines.join('\n');
}

export const projectSync = defineOp({
  id: 'project.sync',
  summary: 'Clone url-only repositories and fast-forward clean checkouts; dirty ones are reported.',
  description:
    'Each checkout on a branch with an upstream is fetched and merged with --ff-only; a dirty checkout (changed ' +
    'or untracked files), a detached HEAD, a branch without upstream, a repository outside the workspace and a ' +
    'diverged branch are reported with their reason. Clones and fetches use https, ssh, git:// or file:// only ' +
    '(ext:: and other remote helpers are refused) and run no hooks. --refresh-sources first applies the ' +
    "project's sources[] to the manifest. Exit 1 when a repository or a source failed.",
  input: z.strictObject({
    ...projectNameFields,
    refresh_sources: z.boolean().optional().describe("First apply the projects' sources[] to the manifest."),
    concurrency: z.coerce
      .number()
      .int()
      .min(1)
      .max(SYNC_MAX_CONCURRENCY)
      .optional()
      .describe(`Git processes at once (default ${SYNC_DEFAULT_CONCURRENCY}).`),
    dry_run: cliHelp(
      z.boolean().optional(),
      'Report what would be cloned or fetched; run no clone or fetch.',
    ),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<ProjectSyncResult> => {
    const project = projectNameOf(input);
    return runProjectSync(ctx, {
      project,
      concurrency: input.concurrency,
      dry_run: input.dry_run,
      refresh_sources: input.refresh_sources,
    });
  },
  cli: {
    command: 'project sync',
    human: (r) => syncText(r),
    exitCode: (r) => (r.ok ? 0 : 1),
  },
  mcp: { tool: 'hub_workspace_sync', when: 'Use when checkouts are missing or behind.' },
  http: [{ method: 'POST', route: '/v3/ops/sync', input: 'body' }],
});
