import * as z from 'zod';
import { NotFoundError, ValidationError } from '../infra/index.js';
import { recordMergeEvent } from '../merge/index.js';
import { landTrain, MAX_TRAIN_ROWS, type TrainReport, type TrainRow } from '../train/index.js';
import { cliHelp } from './cli-help.js';
import type { OpContext } from './context.js';
import { coordDeps } from './coord-deps.js';
import { mergeDeps, mergeTarget } from './merge-deps.js';
import { defineOp, WRITES } from './registry.js';

/** One row as the input spells it: `project/repo:branch` or `project/repo:branch:into` (git refuses `:` in names). */
const ROW_RE = /^([^:\s]+):([^:\s]+)(?::([^:\s]+))?$/;

export interface TrainRequest {
  repository?: string[];
  branch?: string;
  into?: string;
  row?: string[];
}

/** The rows a request names: `repository` (each with `branch` into `into`), then each `row`. */
export function requestedRows(
  input: TrainRequest,
): Array<{ repository: string; branch: string; into: string }> {
  const out: Array<{ repository: string; branch: string; into: string }> = [];
  const repos = input.repository ?? [];
  if (repos.length > 0 && (input.branch === undefined || input.into === undefined))
    throw new ValidationError(
      `${input.branch === undefined ? 'branch' : 'into'}: required with repository (the branch to land in each and the target it lands on)`,
      { field: input.branch === undefined ? 'branch' : 'into', rule: 'required with repository' },
    );
  for (const repository of repos) out.push({ repository, branch: input.branch!, into: input.into! });
  (input.row ?? []).forEach((spec, i) => {
    const m = ROW_RE.exec(spec);
    const into = m?.[3] ?? input.into;
    if (!m || into === undefined)
      throw new ValidationError(
        `row[${i}]: '${spec.slice(0, 200)}' is not project/repo:branch${m ? ' (no into given: add :<into> or pass into)' : '[:into]'}`,
        { field: `row[${i}]`, value: spec.slice(0, 200), rule: 'project/repo:branch[:into]' },
      );
    out.push({ repository: m[1]!, branch: m[2]!, into });
  });
  if (out.length === 0)
    throw new ValidationError('repository: name the repositories to land (repository, or row)', {
      field: 'repository',
      rule: 'at least one repository or row',
    });
  if (out.length > MAX_TRAIN_ROWS)
    throw new ValidationError(`row: ${out.length} repositories; a train lands at most ${MAX_TRAIN_ROWS}`, {
      field: 'row',
      value: out.length,
      rule: `at most ${MAX_TRAIN_ROWS}`,
    });
  return out;
}

/** Lands the rows (repository ids resolved to their checkouts like every `--repository`) and records one event. */
export async function runTrain(
  ctx: OpContext,
  rows: Array<{ repository: string; branch: string; into: string }>,
  dryRun: boolean,
  extra: Record<string, unknown> = {},
): Promise<TrainReport> {
  const resolved: TrainRow[] = [];
  for (const r of rows) {
    const t = await mergeTarget(ctx, r.repository);
    if (!t.root)
      throw new NotFoundError(
        `repository: ${t.id} is not checked out here; a train merges in temporary worktrees of each checkout (clone it first)`,
        { field: 'repository', value: t.id, rule: 'checked_out' },
      );
    resolved.push({ repository: t.id, root: t.root, branch: r.branch, into: r.into });
  }
  const deps = mergeDeps(ctx);
  const report = await landTrain(deps, { rows: resolved, dry_run: dryRun });
  if (!dryRun)
    await recordMergeEvent(coordDeps(ctx), 'MergeTrain', resolved.map((r) => r.repository).join(','), {
      ...extra,
      landed: report.landed,
      moved: report.moved,
      stopped_by: report.stopped_by,
      not_restored: report.not_restored,
      rows: report.rows.map((r) => ({
        repository: r.repository,
        branch: r.branch,
        into: r.into,
        outcome: r.outcome,
        old_sha: r.old_sha,
        new_sha: r.new_sha,
        ...(r.cause ? { cause: r.cause.code } : {}),
      })),
    });
  return report;
}

/** The report for people: one line per repository, its cause under it, the verdict last. */
export function trainLines(r: TrainReport): string[] {
  const short = (s: string | null) => (s ? s.slice(0, 12) : '-');
  const lines = r.rows.map((row) => {
    const merged = row.new_sha && row.new_sha !== row.old_sha ? row.new_sha : undefined;
    const where =
      row.outcome === 'landed'
        ? `${short(row.old_sha)} -> ${short(row.new_sha)}`
        : `${short(row.old_sha)}${merged ? ` (merged as ${short(merged)}, not moved)` : ''}`;
    const now =
      row.target_sha !== row.old_sha && row.target_sha !== row.new_sha
        ? `; now ${short(row.target_sha)}`
        : '';
    return `${row.outcome.padEnd(17)} ${row.repository}: ${row.branch} -> ${row.into} ${where}${now}`;
  });
  const causes = r.rows.flatMap((row) =>
    row.cause
      ? [
          `  ${row.repository}: ${row.cause.message}`,
          ...(row.cause.files ?? []).slice(0, 20).map((f) => `    ${f}`),
        ]
      : [],
  );
  return [...lines, ...causes, r.message];
}

export const mergeTrain = defineOp({
  id: 'merge.train',
  summary: 'Land branches of several repositories as one unit: every target moves, or none.',
  description:
    'Each merge is integrated in a temporary worktree of its repository and validated with merge.validators; only ' +
    'when every repository succeeded do the targets move, each by compare-and-swap. If any fails, none moves: a ' +
    'target already moved is put back by compare-and-swap, and one someone else moved meanwhile is reported, never ' +
    'overwritten. A target checked out in any worktree is never moved. The report names per repository the branch, ' +
    'the old and new target and the cause of any failure. `dry_run` shows the plan (conflicts predicted) and changes ' +
    'nothing. One MergeTrain event.',
  input: z.strictObject({
    repository: cliHelp(
      z.array(z.string().min(1)).optional().describe('Repositories (project/repo) landing `branch`.'),
      'Repository (project/repo) landing --branch on --into; repeat for more.',
    ),
    branch: z.string().min(1).optional().describe('Branch to land in each.'),
    into: z.string().min(1).optional().describe('Target branch.'),
    row: cliHelp(
      z.array(z.string().min(1)).optional().describe('More rows: project/repo:branch[:into].'),
      'A row of its own: project/repo:branch or project/repo:branch:into; repeat for more.',
    ),
    dry_run: z.boolean().default(false).describe('Plan only; change nothing.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<TrainReport> => runTrain(ctx, requestedRows(input), input.dry_run),
  cli: {
    command: 'merge train',
    human: (r) => trainLines(r).join('\n'),
    exitCode: (r) => (r.dry_run ? (r.stopped_by.length > 0 ? 1 : 0) : r.landed ? 0 : 1),
  },
  mcp: {
    tool: 'hub_merge_train',
    when: 'Use when one change must land in several repositories at once.',
  },
  http: [{ method: 'POST', route: '/v3/ops/merges/train', input: 'body' }],
});
