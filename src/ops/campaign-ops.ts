import * as z from 'zod';
import {
  CAMPAIGN_LIMITS,
  CAMPAIGN_SCHEMA_VERSION,
  CAMPAIGN_STATUSES,
  type Campaign,
  type CampaignFileProblem,
  type CampaignRow,
  type CampaignStatusView,
  type CampaignSummary,
  checkCampaigns,
  checkRepoRef,
  checkRepoRefs,
  checkSlug,
  createCampaignFile,
  type ExpandItem,
  expandObjectives,
  listCampaignFiles,
  parseTagArgs,
  planExpand,
  readCampaign,
  recordCampaignEvent,
  routedRows,
  selectRepos,
  setRowFields,
  statusView,
  summarize,
  updateCampaign,
} from '../campaign/index.js';
import { objectiveListing } from '../coord/index.js';
import { HubError, ValidationError } from '../infra/index.js';
import { campaignPlaceOf } from './campaign-deps.js';
import { DEFAULT_LAND_INTO, landingPreview } from './campaign-train.js';
import { cliHelp } from './cli-help.js';
import { coordDeps } from './coord-deps.js';
import { table } from './format.js';
import { trainLines } from './merge-train-ops.js';
import { defineOp, READ_ONLY, WRITES, WRITES_IDEMPOTENT } from './registry.js';

// No maxLength in the schema: checkSlug bounds it (64) and says the rule; the tool list stays short.
export const slugField = cliHelp(z.string().min(1), 'Campaign slug (its file is <slug>.yml).');
// Checked against REPO_REF_RE (and the manifest) by the handlers.
export const repoRef = z.string().min(1);

/** Checks a free text: length and no control characters but tab and newline. */
export function checkText(value: string | undefined, field: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v.length > max)
    throw new ValidationError(`${field}: ${v.length} characters; at most ${max}`, {
      field,
      rule: `max ${max} characters`,
    });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds.
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(v))
    throw new ValidationError(`${field}: contains a control character`, {
      field,
      rule: 'no_control_characters',
    });
  return v;
}

const summaryRows = (list: CampaignSummary[]) =>
  table(
    list.map((c) => [
      c.slug,
      c.status,
      String(c.repo_count),
      String(c.merged_count),
      String(c.open_mr_count),
      String(c.blocked_count),
      c.title,
    ]),
    ['SLUG', 'STATUS', 'REPOS', 'MERGED', 'MR-OPEN', 'BLOCKED', 'TITLE'],
  );

export const campaignNew = defineOp({
  id: 'campaign.new',
  summary:
    'Start a campaign: one YAML document under the campaigns folder listing the repositories to change.',
  description:
    'Selection mode (query and/or tag k=v): the manifest search and the merged project and repository tags pick ' +
    'the repositories, frozen into repos[] with selection.resolved_at. Explicit mode (repo p/r, repeated): those ' +
    'repositories. The campaign starts as draft; the file is meant to be committed and reviewed.',
  input: z.strictObject({
    slug: slugField,
    title: z.string().min(1).describe('What the campaign changes, in a few words.'),
    query: z.string().min(1).optional().describe('Selection: words the manifest search must match.'),
    tag: z.array(z.string()).optional().describe('Selection: tags k=v (or k) repositories must carry.'),
    repo: z.array(repoRef).optional().describe('Explicit repositories, project/repo each.'),
    goal: z.string().optional().describe('The change and why, for the agents that make it.'),
    reference: repoRef
      .optional()
      .describe('The reference implementation: project/repo where it is done already.'),
    objective_id: z.string().min(1).optional().describe('An objective the campaign serves.'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input) => {
    const slug = checkSlug(input.slug);
    const title = checkText(input.title, 'title', CAMPAIGN_LIMITS.title_chars)!;
    if (title === '') throw new ValidationError('title: required', { field: 'title', rule: 'required' });
    const goal = checkText(input.goal, 'goal', CAMPAIGN_LIMITS.goal_chars);
    const query = checkText(input.query, 'query', CAMPAIGN_LIMITS.query_chars);
    const tags = parseTagArgs(input.tag);
    const explicit = input.repo ?? [];
    const selecting = query !== undefined || Object.keys(tags).length > 0;
    if (explicit.length > 0 && selecting)
      throw new ValidationError('repo: give repositories, or a query and tags to select them, not both', {
        field: 'repo',
        rule: 'one_of_repo_or_selection',
      });
    if (explicit.length === 0 && !selecting)
      throw new ValidationError(
        'query: give a query and/or tags to select repositories, or repo p/r (repeated)',
        {
          field: 'query',
          rule: 'selection_required',
        },
      );
    if (input.objective_id !== undefined && !/^[A-Za-z0-9_.-]+$/.test(input.objective_id))
      throw new ValidationError(
        `objective_id: '${input.objective_id.slice(0, 80)}' must match [A-Za-z0-9_.-]+`,
        {
          field: 'objective_id',
          rule: 'id',
        },
      );
    const { catalog } = ctx.workspace();
    const picked = selecting ? selectRepos(catalog, { query, tags }) : checkRepoRefs(catalog, explicit);
    if (picked.length === 0)
      throw new ValidationError(
        `query: the selection (${[query && `query '${query}'`, ...Object.entries(tags).map(([k, v]) => (v === true ? k : `${k}=${v}`))].filter(Boolean).join(', ')}) matches no repository of the manifest`,
        { field: 'query', rule: 'selection_empty' },
      );
    if (picked.length > CAMPAIGN_LIMITS.repos)
      throw new ValidationError(
        `query: the selection matches ${picked.length} repositories; a campaign holds at most ${CAMPAIGN_LIMITS.repos}; narrow it`,
        { field: 'query', rule: `max ${CAMPAIGN_LIMITS.repos} repositories` },
      );
    const reference =
      input.reference === undefined ? undefined : checkRepoRef(catalog, input.reference, 'reference');
    const stamp = ctx.now().toISOString();
    const campaign: Campaign = {
      schema_version: CAMPAIGN_SCHEMA_VERSION,
      slug,
      title,
      status: 'draft',
      ...(goal ? { goal } : {}),
      ...(reference ? { reference_impl: reference.id } : {}),
      ...(input.objective_id ? { objective_id: input.objective_id } : {}),
      created: stamp,
      updated: stamp,
      selection: selecting ? { ...(query ? { query } : {}), tags, resolved_at: stamp } : { tags: {} },
      repos: picked.map(
        (r): CampaignRow => ({
          project: r.project,
          repo: r.name,
          ...(reference?.id === r.id ? { role: 'reference' } : {}),
          status: 'pending',
        }),
      ),
      lessons: [],
    };
    if (!selecting) delete (campaign as Partial<Campaign>).selection;
    const made = await createCampaignFile(campaignPlaceOf(ctx), campaign);
    await recordCampaignEvent(
      coordDeps(ctx).store,
      'CampaignCreated',
      slug,
      { title, repo_count: campaign.repos.length },
      () => ctx.now(),
    );
    return { created: true, file: made.file, campaign: made.campaign };
  },
  cli: {
    command: 'campaign new',
    human: (r) =>
      `created campaign ${r.campaign.slug} [${r.campaign.status}] with ${r.campaign.repos.length} repositories in ${r.file}`,
  },
  http: [{ method: 'POST', route: '/v3/ops/campaigns', input: 'body' }],
});

export const campaignList = defineOp({
  id: 'campaign.list',
  summary: 'List campaigns with their counts: repositories, merged, open merge requests, blocked.',
  description:
    'A file that cannot be read (not a regular file, too large, not valid) is listed under problems, not fatal.',
  input: z.strictObject({
    status: z.enum(CAMPAIGN_STATUSES).optional().describe('Only campaigns with this status.'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input): { campaigns: CampaignSummary[]; problems: CampaignFileProblem[] } => {
    const place = campaignPlaceOf(ctx);
    const { files, problems } = listCampaignFiles(place);
    const campaigns: CampaignSummary[] = [];
    for (const f of files) {
      try {
        const loaded = readCampaign(place, f.slug);
        if (input.status === undefined || loaded.campaign.status === input.status)
          campaigns.push(summarize(loaded.campaign, loaded.file));
      } catch (err) {
        if (!(err instanceof HubError)) throw err;
        problems.push({
          file: String(err.details?.file ?? f.slug),
          slug: f.slug,
          rule: String(err.details?.rule ?? err.code),
          message: err.message,
        });
      }
    }
    return { campaigns, problems };
  },
  cli: {
    command: 'campaign list',
    human: (r) =>
      [summaryRows(r.campaigns) || 'no campaigns', ...r.problems.map((p) => `problem: ${p.message}`)].join(
        '\n',
      ),
  },
  http: [{ method: 'GET', route: '/v3/ops/campaigns', input: 'query' }],
});

export const campaignStatus = defineOp({
  id: 'campaign.status',
  summary:
    'Campaign rows, objectives and counts, open merge requests, blocked rows, and what landing would do now.',
  description:
    "One campaign: its fields, counts per row status, each row with its objective's status, mr_url and approval_id; " +
    'open merge requests; blocked rows with their cause; and `landing`, the dry run of campaign land for the rows ' +
    'not merged (changes nothing; `landing: false` skips it).',
  input: z.strictObject({
    slug: slugField,
    into: z
      .string()
      .min(1)
      .optional()
      .describe(`Target the landing preview assumes (default ${DEFAULT_LAND_INTO}).`),
    landing: z.boolean().default(true).describe('Include the landing preview (false skips it).'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<CampaignStatusView> => {
    const loaded = readCampaign(campaignPlaceOf(ctx), input.slug);
    const { objectives } = await objectiveListing(coordDeps(ctx));
    const landing = input.landing
      ? await landingPreview(ctx, loaded.campaign.repos, input.slug, input.into)
      : null;
    return statusView(loaded.campaign, loaded.file, objectives, landing);
  },
  cli: {
    command: 'campaign status',
    human: (v) =>
      [
        `${v.slug} [${v.status}] ${v.title}`,
        `repos ${v.repo_count}: ${v.pending_count} pending, ${v.routed_count} routed, ${v.open_mr_count} mr-open, ${v.merged_count} merged, ${v.blocked_count} blocked`,
        table(
          v.repos.map((r) => [
            `${r.project}/${r.repo}`,
            r.status,
            r.objective?.status ?? '-',
            r.mr ?? '',
            r.note ?? '',
          ]),
          ['REPO', 'STATUS', 'OBJECTIVE', 'MR', 'NOTE'],
        ),
        ...(v.open_mrs.length > 0
          ? ['open merge requests:', ...v.open_mrs.map((m) => `  ${m.repo} ${m.mr ?? '(no URL recorded)'}`)]
          : []),
        ...(v.blocked.length > 0
          ? [
              'blocked:',
              ...v.blocked.map(
                (b) => `  ${b.repo}: ${[b.note, b.landing_cause].filter(Boolean).join('; ') || '(no note)'}`,
              ),
            ]
          : []),
        ...(v.landing ? ['landing now (dry run):', ...trainLines(v.landing).map((l) => `  ${l}`)] : []),
      ].join('\n'),
  },
  mcp: { tool: 'hub_campaign_status', when: 'Use when checking progress.' },
  http: [{ method: 'GET', route: '/v3/ops/campaigns/{slug}/status', input: 'query' }],
});

export const campaignValidate = defineOp({
  id: 'campaign.validate',
  summary: 'Check campaign files: YAML and format, every repository in the manifest, older spellings found.',
  description:
    'Checks every campaign (or the one named by slug). Errors make it fail (exit 1); warnings (unknown keys, ' +
    'a merge request that is no URL) and infos (older spellings, rewritten on the next save) do not.',
  input: z.strictObject({
    slug: cliHelp(z.string().min(1).optional(), 'Only this campaign (default: every campaign file).'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input) => {
    if (input.slug !== undefined) checkSlug(input.slug);
    return checkCampaigns(campaignPlaceOf(ctx), ctx.workspace().catalog, input.slug);
  },
  cli: {
    command: 'campaign validate',
    exitCode: (r) => (r.valid ? 0 : 1),
    human: (r) =>
      [
        ...r.campaigns.flatMap((c) => [
          `${c.valid ? 'ok     ' : 'INVALID'} ${c.slug} (${c.file})`,
          ...c.problems.map((p) => `  ${p.severity}: ${p.message}${p.line ? ` (line ${p.line})` : ''}`),
        ]),
        ...r.skipped.map((p) => `INVALID ${p.message}`),
        r.campaigns.length === 0 && r.skipped.length === 0 ? 'no campaigns' : '',
      ]
        .filter(Boolean)
        .join('\n'),
  },
  http: [{ method: 'GET', route: '/v3/ops/campaigns/validate', input: 'query' }],
});

export const campaignExpand = defineOp({
  id: 'campaign.expand',
  summary:
    'Make one objective per campaign repository (id campaign-<slug>-<project>-<repo>); pending rows become routed.',
  description:
    "Rows whose merged project and repository tags match (tag k=v, default the campaign's selection.tags) get an " +
    'objective: title "<title>: p/r", status pending, the goal as acceptance. Objectives that exist are left ' +
    'alone (expand is safe to repeat). dry_run reports what it would make and writes nothing.',
  input: z.strictObject({
    slug: slugField,
    tag: z
      .array(z.string())
      .optional()
      .describe("Only rows whose tags match these k=v (default: the campaign's)."),
    dry_run: z.boolean().optional().describe('Report the objectives it would make; write nothing.'),
  }),
  gate: 'active',
  attributes: WRITES_IDEMPOTENT,
  handler: async (ctx, input) => {
    const place = campaignPlaceOf(ctx);
    const loaded = readCampaign(place, input.slug);
    const tags = input.tag === undefined ? undefined : parseTagArgs(input.tag);
    const deps = coordDeps(ctx);
    const { objectives } = await objectiveListing(deps);
    const plan = planExpand(
      loaded.campaign,
      ctx.workspace().catalog,
      new Set(objectives.map((o) => o.id)),
      tags,
    );
    const dry = Boolean(input.dry_run);
    const report = (action: (i: ExpandItem) => string) =>
      plan.items.map((i) => ({
        id: i.id,
        repo: `${i.project}/${i.repo}`,
        title: i.title,
        action: action(i),
      }));
    if (dry)
      return {
        slug: input.slug,
        dry_run: true,
        tags: plan.tags,
        objectives: report((i) => (i.action === 'create' ? 'would_create' : 'exists')),
        skipped: plan.skipped,
        routed: routedRows(loaded.campaign, plan).map(
          (i) => `${loaded.campaign.repos[i]!.project}/${loaded.campaign.repos[i]!.repo}`,
        ),
      };
    const made = new Set((await expandObjectives(deps, loaded.campaign, plan)).map((o) => o.id));
    const wanted = new Set(plan.items.map((i) => `${i.project}/${i.repo}`));
    const { result: routed } = await updateCampaign(
      place,
      input.slug,
      (doc, fresh) => {
        const out: string[] = [];
        fresh.repos.forEach((row, i) => {
          const ref = `${row.project}/${row.repo}`;
          if (row.status === 'pending' && wanted.has(ref)) {
            setRowFields(doc, i, { status: 'routed' });
            out.push(ref);
          }
        });
        return out;
      },
      { now: ctx.now() },
    );
    await recordCampaignEvent(
      deps.store,
      'CampaignExpanded',
      input.slug,
      { created: made.size, objectives: plan.items.length },
      () => ctx.now(),
    );
    return {
      slug: input.slug,
      dry_run: false,
      tags: plan.tags,
      objectives: report((i) => (made.has(i.id) ? 'created' : 'exists')),
      skipped: plan.skipped,
      routed,
    };
  },
  cli: {
    command: 'campaign expand',
    human: (r) =>
      [
        table(
          r.objectives.map((o) => [o.action, o.id]),
          ['ACTION', 'OBJECTIVE'],
        ) || 'no objectives',
        ...r.skipped.map(
          (s) => `skipped ${s.repo}: ${s.reason === 'tags' ? 'tags do not match' : 'not in the manifest'}`,
        ),
        r.dry_run ? '(dry run: nothing written)' : `${r.routed.length} row(s) now routed`,
      ].join('\n'),
  },
  http: [{ method: 'POST', route: '/v3/ops/campaigns/{slug}/expand', input: 'body' }],
});
