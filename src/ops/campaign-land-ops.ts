import * as z from 'zod';
import {
  type Campaign,
  readCampaign,
  recordCampaignEvent,
  rowRef,
  setRowFields,
  updateCampaign,
} from '../campaign/index.js';
import { ValidationError } from '../infra/index.js';
import { type CreateGraphInput, createGraph, type GraphWrite } from '../taskgraph/index.js';
import { type PlanRow, planCampaignGraph, type TrainReport } from '../train/index.js';
import { campaignPlaceOf, objectiveIds, rollUpToObjective } from './campaign-deps.js';
import { campaignTrainRows, DEFAULT_LAND_INTO } from './campaign-train.js';
import { cliHelp } from './cli-help.js';
import { coordDeps } from './coord-deps.js';
import { runTrain, trainLines } from './merge-train-ops.js';
import { defineOp, WRITES } from './registry.js';

// The campaign's side of the landing train and of the plan: rows read from the campaign document (their branch,
// into, patterns and budget), the train and the graph built by src/train/.

const slugField = cliHelp(z.string().min(1), 'Campaign slug (its file is <slug>.yml).');

export interface CampaignLandResult extends TrainReport {
  slug: string;
  /** Rows set to `merged` by this landing. */
  rows_merged: string[];
}

export const campaignLand = defineOp({
  id: 'campaign.land',
  summary: "Land a campaign's open rows as one train: every target moves, or none.",
  description:
    'The rows not yet merged are landed with the train of merge train: each merge integrated in a temporary ' +
    'worktree and validated with merge.validators; only when every repository succeeded do the targets move, each ' +
    'by compare-and-swap; if any fails, none moves (a target already moved is put back; one someone else moved ' +
    "meanwhile is reported, never overwritten). A row's branch is its branch key, else its checkout's " +
    "campaign/<slug> branch; its target the row's into key, else `into` (default main). Landed rows are set to " +
    'merged. `dry_run` shows the plan and changes nothing.',
  input: z.strictObject({
    slug: slugField,
    into: z.string().min(1).optional().describe(`Target branch (default ${DEFAULT_LAND_INTO}).`),
    dry_run: z.boolean().default(false).describe('Plan only; change nothing.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<CampaignLandResult> => {
    const place = campaignPlaceOf(ctx);
    const { campaign } = readCampaign(place, input.slug);
    const open = campaign.repos.flatMap((row, index) => (row.status === 'merged' ? [] : [{ row, index }]));
    if (open.length === 0)
      throw new ValidationError(
        `slug: every row of campaign '${input.slug}' is merged already; nothing to land`,
        { field: 'slug', value: input.slug, rule: 'a row not merged' },
      );
    const rows = await campaignTrainRows(
      ctx,
      open.map(({ row }) => row),
      input.slug,
      input.into,
    );
    const report = await runTrain(ctx, rows, input.dry_run, { campaign: input.slug });
    const done = new Set(
      report.landed ? report.rows.filter((r) => r.outcome === 'landed' || r.outcome === 'up_to_date') : [],
    );
    const merged = open.filter((_, i) => done.has(report.rows[i]!));
    if (merged.length > 0) {
      await updateCampaign(
        place,
        input.slug,
        (doc) => {
          for (const { index } of merged) setRowFields(doc, index, { status: 'merged' });
        },
        { now: ctx.now() },
      );
      // Each landed row's objective follows, as with `campaign set`.
      const known = await objectiveIds(ctx);
      for (const { row } of merged)
        await rollUpToObjective(ctx, input.slug, { ...row, status: 'merged' }, known);
      await recordCampaignEvent(
        coordDeps(ctx).store,
        'CampaignRowUpdated',
        input.slug,
        { repos: merged.map(({ row }) => rowRef(row)), status: 'merged', by: 'campaign land' },
        () => ctx.now(),
      );
    }
    return { slug: input.slug, ...report, rows_merged: merged.map(({ row }) => rowRef(row)) };
  },
  cli: {
    command: 'campaign land',
    human: (r) =>
      [
        ...trainLines(r),
        ...(r.rows_merged.length > 0 ? [`rows set to merged: ${r.rows_merged.join(', ')}`] : []),
      ].join('\n'),
    exitCode: (r) => (r.dry_run ? (r.stopped_by.length > 0 ? 1 : 0) : r.landed ? 0 : 1),
  },
  mcp: {
    tool: 'hub_campaign_land',
    when: "Use when a campaign's work is done and should land together.",
  },
  http: [{ method: 'POST', route: '/v3/ops/campaigns/{slug}/land', input: 'body' }],
});

/** The plan input of a campaign: its rows with their `patterns` and `budget` keys, the reference, the budget. */
export function campaignPlanInput(
  campaign: Campaign,
  opts: { reference_first?: boolean; budget?: number },
): CreateGraphInput {
  const rows: PlanRow[] = campaign.repos.map((row) => ({
    repository: rowRef(row),
    ...(row.patterns && row.patterns.length > 0 ? { patterns: row.patterns } : {}),
    ...(row.budget === undefined ? {} : { budget: row.budget }),
  }));
  const referenceFirst = opts.reference_first ?? campaign.reference_first === true;
  return planCampaignGraph({
    slug: campaign.slug,
    title: campaign.title,
    ...(campaign.goal === undefined ? {} : { goal: campaign.goal }),
    ...(campaign.objective_id === undefined ? {} : { objective_id: campaign.objective_id }),
    rows,
    ...(campaign.reference_impl === undefined ? {} : { reference: campaign.reference_impl }),
    reference_first: referenceFirst && campaign.reference_impl !== undefined,
    ...(opts.budget === undefined ? {} : { budget: opts.budget }),
  });
}

export interface CampaignPlanResult {
  slug: string;
  dry_run: boolean;
  graph_id: string;
  plan: CreateGraphInput;
  /** The graph written (absent in a dry run). */
  created?: GraphWrite;
}

export const campaignPlan = defineOp({
  id: 'campaign.plan',
  summary: 'Turn a campaign into a task graph: a node per repository, the reference first.',
  description:
    "Graph campaign-<slug>: one node per row with its repository, claim patterns (the row's patterns key, " +
    "default **) and context budget (the row's budget key, else `budget`); the reference implementation's node " +
    "has the highest priority and, with `reference_first` (or the campaign's reference_first: true), every other " +
    'node depends on it. aos next --apply then hands the rows out, each with a worktree, lease and claim. A graph ' +
    'of that id already made is refused (409). `dry_run` shows the plan and writes nothing.',
  input: z.strictObject({
    slug: slugField,
    reference_first: z.boolean().optional().describe('Other rows wait for the reference.'),
    budget: z.coerce.number().int().min(0).max(10_000_000).optional().describe('Token budget per node.'),
    dry_run: z.boolean().default(false).describe('Plan only; write nothing.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input): Promise<CampaignPlanResult> => {
    const { campaign } = readCampaign(campaignPlaceOf(ctx), input.slug);
    const plan = campaignPlanInput(campaign, input);
    const out = { slug: input.slug, dry_run: input.dry_run, graph_id: plan.graph_id!, plan };
    if (input.dry_run) return out;
    return { ...out, created: await createGraph(coordDeps(ctx), plan) };
  },
  cli: {
    command: 'campaign plan',
    human: (r) =>
      [
        `${r.dry_run ? 'would create' : 'created'} task graph ${r.graph_id} for campaign ${r.slug}:`,
        ...(r.plan.items ?? []).map(
          (i) =>
            `  ${i.node_id} ${i.repository} [${(i.patterns ?? []).join(', ')}]${i.context_budget === undefined ? '' : ` budget ${i.context_budget}`}${i.depends_on ? ` after ${i.depends_on.join(', ')}` : ''}`,
        ),
        ...(r.created ? [`ready: ${r.created.ready.join(', ') || '(none)'}`] : []),
      ].join('\n'),
  },
  mcp: { tool: 'hub_campaign_plan', when: "Use when a campaign's rows should go to agents as tasks." },
  http: [{ method: 'POST', route: '/v3/ops/campaigns/{slug}/plan', input: 'body' }],
});
