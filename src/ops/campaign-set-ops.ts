import * as z from 'zod';
import { checkBranchName } from '../acl/index.js';
import {
  CAMPAIGN_LIMITS,
  CAMPAIGN_STATUSES,
  ROW_STATUSES,
  type RowStatus,
  recordCampaignEvent,
  setField,
  setRowFields,
  updateCampaign,
} from '../campaign/index.js';
import { ValidationError } from '../infra/index.js';
import { campaignPlaceOf, rollUpToObjective, rowIndex } from './campaign-deps.js';
import { checkText, repoRef, slugField } from './campaign-ops.js';
import { coordDeps } from './coord-deps.js';
import { defineOp, WRITES_IDEMPOTENT } from './registry.js';

// `campaign set`: a row's status, merge request, note and its placement for land and plan, or the campaign's own
// status; the row's objective follows.

function checkMr(mr: string | undefined): string | undefined {
  const v = checkText(mr, 'mr', CAMPAIGN_LIMITS.url_chars);
  if (v !== undefined && v !== '' && !/^https?:\/\/\S+$/i.test(v))
    throw new ValidationError(`mr: '${v.slice(0, 120)}' is not an http(s) URL of a merge or pull request`, {
      field: 'mr',
      value: v.slice(0, 200),
      rule: 'http_url',
    });
  return v;
}

/** The row keys `campaign set` writes for branch, into, pattern and budget (undefined removes a key). */
function rowPlacement(input: {
  branch?: string;
  into?: string;
  pattern?: string[];
  budget?: number;
}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of ['branch', 'into'] as const) {
    const v = input[field]?.trim();
    if (v === undefined) continue;
    out[field] = v === '' ? undefined : checkBranchName(v, field);
  }
  if (input.pattern !== undefined) {
    const list = input.pattern.map((p) => p.trim());
    if (list.length === 0 || (list.length === 1 && list[0] === '')) out.patterns = undefined;
    else {
      if (list.length > CAMPAIGN_LIMITS.patterns)
        throw new ValidationError(`pattern: ${list.length} patterns; at most ${CAMPAIGN_LIMITS.patterns}`, {
          field: 'pattern',
          rule: `max ${CAMPAIGN_LIMITS.patterns} patterns`,
        });
      list.forEach((p, i) => {
        if (p === '')
          throw new ValidationError(`pattern[${i}]: empty; give a glob such as src/**`, {
            field: `pattern[${i}]`,
            rule: 'non-empty',
          });
        checkText(p, `pattern[${i}]`, CAMPAIGN_LIMITS.pattern_chars);
      });
      out.patterns = list;
    }
  }
  if (input.budget !== undefined) out.budget = input.budget;
  return out;
}

export const campaignSet = defineOp({
  id: 'campaign.set',
  summary:
    "Set a campaign row's `status`, `mr`, `note`, `branch`, `into`, `pattern` or `budget` (without `repo`: the campaign's `status`).",
  description:
    'With repo: the row of that repository (status pending, routed, mr-open, merged or blocked; mr a URL; an ' +
    'empty note, mr, branch or into removes it; branch and into are what campaign land lands; pattern and budget ' +
    "what campaign plan gives the row's task, a single empty pattern removes them); the row's objective, when " +
    'expand made one, follows (status, mr_url). Without ' +
    'repo: status is the campaign status (draft, active, completed, archived). Comments and other lines of the ' +
    'file are kept.',
  input: z.strictObject({
    slug: slugField,
    repo: repoRef.optional().describe('The row: project/repo. Without it, `status` is the campaign status.'),
    status: z
      .string()
      .min(1)
      .optional()
      .describe(`Row: ${ROW_STATUSES.join(', ')}; campaign: ${CAMPAIGN_STATUSES.join(', ')}.`),
    mr: z.string().optional().describe('Merge or pull request URL of the row ("" removes it).'),
    note: z.string().optional().describe('A short note on the row ("" removes it).'),
    branch: z.string().optional().describe('The branch campaign land lands for the row ("" removes it).'),
    into: z.string().optional().describe('The target it lands on ("" removes it).'),
    pattern: z
      .array(z.string())
      .optional()
      .describe('Claim patterns of the row\'s task in campaign plan (one "" removes them).'),
    budget: z.coerce
      .number()
      .int()
      .min(0)
      .max(CAMPAIGN_LIMITS.budget)
      .optional()
      .describe("Token budget of the row's task context in campaign plan."),
  }),
  gate: 'active',
  attributes: WRITES_IDEMPOTENT,
  handler: async (ctx, input) => {
    const place = campaignPlaceOf(ctx);
    const mr = checkMr(input.mr);
    const note = checkText(input.note, 'note', CAMPAIGN_LIMITS.note_chars);
    const placement = rowPlacement(input);
    if (input.repo === undefined) {
      if (mr !== undefined || note !== undefined || Object.keys(placement).length > 0)
        throw new ValidationError(
          'repo: mr, note, branch, into, pattern and budget belong to a row; name it (repo p/r)',
          {
            field: 'repo',
            rule: 'required',
          },
        );
      if (input.status === undefined)
        throw new ValidationError('status: give the campaign status, or a repo and what to set on its row', {
          field: 'status',
          rule: 'required',
        });
      const status = input.status;
      if (!(CAMPAIGN_STATUSES as readonly string[]).includes(status))
        throw new ValidationError(
          `status: '${status.slice(0, 40)}' is not a campaign status (${CAMPAIGN_STATUSES.join(', ')})`,
          { field: 'status', value: status.slice(0, 80), rule: CAMPAIGN_STATUSES.join('|') },
        );
      const { loaded } = await updateCampaign(place, input.slug, (doc) => setField(doc, 'status', status), {
        now: ctx.now(),
      });
      await recordCampaignEvent(coordDeps(ctx).store, 'CampaignUpdated', input.slug, { status }, () =>
        ctx.now(),
      );
      return {
        slug: input.slug,
        file: loaded.file,
        status: loaded.campaign.status,
        row: null,
        objective_id: null,
      };
    }
    if (
      input.status === undefined &&
      mr === undefined &&
      note === undefined &&
      Object.keys(placement).length === 0
    )
      throw new ValidationError(
        'status: give at least one of status, mr, note, branch, into, pattern and budget for the row',
        {
          field: 'status',
          rule: 'required',
        },
      );
    const status = input.status as RowStatus | undefined;
    if (status !== undefined && !(ROW_STATUSES as readonly string[]).includes(status))
      throw new ValidationError(
        `status: '${status.slice(0, 40)}' is not a row status (${ROW_STATUSES.join(', ')})`,
        { field: 'status', value: status.slice(0, 80), rule: ROW_STATUSES.join('|') },
      );
    const ref = input.repo.trim();
    const { loaded, result: index } = await updateCampaign(
      place,
      input.slug,
      (doc, campaign) => {
        const i = rowIndex(campaign, ref);
        setRowFields(doc, i, {
          ...(status === undefined ? {} : { status }),
          ...(mr === undefined ? {} : { mr: mr === '' ? undefined : mr }),
          ...(note === undefined ? {} : { note: note === '' ? undefined : note }),
          ...placement,
        });
        return i;
      },
      { now: ctx.now() },
    );
    const row = loaded.campaign.repos[index]!;
    const objective_id = await rollUpToObjective(ctx, input.slug, row);
    await recordCampaignEvent(
      coordDeps(ctx).store,
      'CampaignRowUpdated',
      input.slug,
      { repo: ref, status: row.status, ...(row.mr ? { mr: row.mr } : {}) },
      () => ctx.now(),
    );
    return { slug: input.slug, file: loaded.file, status: loaded.campaign.status, row, objective_id };
  },
  cli: {
    command: 'campaign set',
    human: (r) =>
      r.row
        ? `${r.slug}: ${r.row.project}/${r.row.repo} is ${r.row.status}${r.row.mr ? ` (${r.row.mr})` : ''}${r.objective_id ? `; objective ${r.objective_id} follows` : ''}`
        : `${r.slug} is ${r.status}`,
  },
  http: [{ method: 'PATCH', route: '/v3/ops/campaigns/{slug}', input: 'body' }],
});
