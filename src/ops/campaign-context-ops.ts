import * as z from 'zod';
import {
  type CampaignContext,
  type CampaignRow,
  contextLadder,
  type ReferenceChanges,
  readCampaign,
  referenceChanges,
} from '../campaign/index.js';
import { buildRepoCard, fitToBudget, type RepoCard } from '../context/index.js';
import { campaignPlaceOf, rowIndex } from './campaign-deps.js';
import { cliHelp } from './cli-help.js';
import { packDeps } from './context-pack-ops.js';
import { defineOp, READ_ONLY } from './registry.js';

/** The budget of a campaign context when none is given: enough for both cards, the changes and the lessons. */
export const CAMPAIGN_CONTEXT_DEFAULT_TOKENS = 8000;

export const campaignContext = defineOp({
  id: 'campaign.context',
  summary: 'Goal, reference changes, cards and lessons for your campaign `repo`, within `max_tokens`.',
  description:
    "repo (project/repo) names the agent's row; without it the context is the campaign's alone. The reference " +
    'implementation (reference_impl) gives its card and what changed there: its campaign branch (campaign/<slug>, ' +
    'or a branch named campaign-<slug>...) against its base, else its recent log, bounded. max_tokens (default ' +
    `${CAMPAIGN_CONTEXT_DEFAULT_TOKENS}) is a hard ceiling on the JSON: changed files, examples, commits, card ` +
    'detail, the oldest lessons, then the cards are dropped to fit, and named in dropped_sections.',
  input: z.strictObject({
    slug: cliHelp(z.string().min(1), 'Campaign slug (its file is <slug>.yml).'),
    repo: cliHelp(
      z.string().min(1).optional(),
      "The agent's repository: project/repo (a row of the campaign).",
    ),
    max_tokens: cliHelp(
      z.coerce.number().int().min(1).optional(),
      `Ceiling on the tokens of the JSON answer (o200k_base; default ${CAMPAIGN_CONTEXT_DEFAULT_TOKENS}).`,
    ),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: async (ctx, input): Promise<CampaignContext> => {
    const { campaign } = readCampaign(campaignPlaceOf(ctx), input.slug);
    const row: CampaignRow | null =
      input.repo === undefined ? null : campaign.repos[rowIndex(campaign, input.repo.trim())]!;
    const { catalog } = ctx.workspace();
    const deps = packDeps(ctx);
    const card = async (ref: string): Promise<RepoCard | null> => {
      const repo = catalog.repoById.get(ref);
      if (repo?.kind !== 'workspace') return null;
      return buildRepoCard(catalog, repo, {
        now: deps.now,
        cache: deps.cache,
        checkouts: deps.checkouts,
        graph: deps.graph,
      });
    };
    let reference: CampaignContext['reference'] = null;
    const refId = campaign.reference_impl;
    if (refId !== undefined) {
      const repo = catalog.repoById.get(refId);
      const checkout = repo ? (deps.checkouts ?? ctx.checkouts()).of(repo) : undefined;
      let changes: ReferenceChanges | null = null;
      let note: string | undefined;
      if (!repo) note = `reference_impl ${refId} is not in the manifest`;
      else if (checkout?.state !== 'present') note = `reference_impl ${refId} is not checked out here`;
      else changes = await referenceChanges(checkout.dir, campaign.slug);
      reference = { repo: refId, card: await card(refId), changes, ...(note ? { note } : {}) };
    }
    const repoCard = row ? await card(`${row.project}/${row.repo}`) : null;
    deps.cache.save();
    const maxTokens = input.max_tokens ?? CAMPAIGN_CONTEXT_DEFAULT_TOKENS;
    const ladder = contextLadder({ campaign, row, reference, repoCard, maxTokens });
    return fitToBudget(await deps.counter, ladder, maxTokens).value;
  },
  cli: {
    command: 'campaign context',
    human: (c) =>
      [
        `# ${c.title} (${c.slug}, ${c.status})`,
        c.goal ? `\n${c.goal}` : '',
        c.row
          ? `\nYour repository: ${c.row.project}/${c.row.repo} [${c.row.status}], objective ${c.row.objective_id}`
          : '',
        c.reference
          ? `\nReference implementation: ${c.reference.repo}${c.reference.note ? ` (${c.reference.note})` : ''}` +
            (c.reference.changes
              ? `\n${c.reference.changes.source === 'campaign_branch' ? `branch ${c.reference.changes.branch} against ${c.reference.changes.base ?? '(no base)'}` : 'recent log'}:\n` +
                c.reference.changes.commits.map((x) => `- ${x.sha} ${x.subject}`).join('\n') +
                (c.reference.changes.files.length
                  ? `\nfiles:\n${c.reference.changes.files.map((f) => `  ${f.status} ${f.path}`).join('\n')}`
                  : '')
              : '')
          : '',
        c.lessons.length ? `\nLessons:\n${c.lessons.map((l) => `- ${l.text}`).join('\n')}` : '',
        c.examples.length
          ? `\nMerged elsewhere:\n${c.examples.map((e) => `- ${e.repo}: ${e.mr}`).join('\n')}`
          : '',
        `\n(${c.token_estimate} tokens${c.dropped_sections.length ? `; dropped: ${c.dropped_sections.join(', ')}` : ''})`,
      ]
        .filter(Boolean)
        .join('\n'),
  },
  mcp: {
    tool: 'hub_campaign_context',
    when: 'Use when starting on a row.',
  },
  http: [{ method: 'GET', route: '/v3/ops/campaigns/{slug}/context', input: 'query' }],
});
