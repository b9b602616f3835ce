import * as z from 'zod';
import {
  appendLesson,
  CAMPAIGN_LIMITS,
  checkRepoRef,
  type Lesson,
  readCampaign,
  recordCampaignEvent,
  updateCampaign,
} from '../campaign/index.js';
import { ValidationError } from '../infra/index.js';
import { campaignPlaceOf } from './campaign-deps.js';
// No maxLength in the schema: checkSlug bounds it (64) and says the rule; the tool list stays short.
import { checkText, repoRef, slugField } from './campaign-ops.js';
import { coordDeps } from './coord-deps.js';
import { defineOp, READ_ONLY, WRITES } from './registry.js';

// Lessons of a campaign: kept apart from the campaign's rows and status (campaign-ops.ts).
export const campaignLessonAdd = defineOp({
  id: 'campaign.lesson.add',
  summary: 'Record a campaign lesson for the repositories still to come.',
  description:
    'Lessons are appended to the document (newest last) and handed to agents by the campaign context.',
  input: z.strictObject({
    slug: slugField,
    text: z.string().min(1).describe('The lesson, in a sentence or two.'),
    repo: repoRef.optional().describe('The repository it came from (project/repo).'),
    by: z.string().min(1).max(200).optional().describe('Who recorded it (an agent id or a name).'),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input) => {
    const text = checkText(input.text, 'text', CAMPAIGN_LIMITS.lesson_chars)!;
    if (text === '') throw new ValidationError('text: required', { field: 'text', rule: 'required' });
    const by = checkText(input.by, 'by', CAMPAIGN_LIMITS.short_chars);
    const repo = input.repo?.trim();
    if (repo !== undefined) checkRepoRef(ctx.workspace().catalog, repo);
    const lesson: Lesson = {
      text,
      recorded_at: ctx.now().toISOString(),
      ...(repo ? { repo } : {}),
      ...(by ? { by } : {}),
    };
    const { loaded } = await updateCampaign(
      campaignPlaceOf(ctx),
      input.slug,
      (doc, campaign) => appendLesson(doc, campaign, lesson),
      { now: ctx.now() },
    );
    await recordCampaignEvent(
      coordDeps(ctx).store,
      'CampaignLessonAdded',
      input.slug,
      { ...(repo ? { repo } : {}), ...(by ? { by } : {}) },
      () => ctx.now(),
    );
    return { slug: input.slug, file: loaded.file, lesson, lesson_count: loaded.campaign.lessons.length };
  },
  cli: {
    command: 'campaign lesson add',
    human: (r) => `${r.slug}: lesson ${r.lesson_count} recorded`,
  },
  http: [{ method: 'POST', route: '/v3/ops/campaigns/{slug}/lessons', input: 'body' }],
});

export const campaignLessonList = defineOp({
  id: 'campaign.lesson.list',
  summary: 'The lessons of a campaign, oldest first.',
  input: z.strictObject({
    slug: slugField,
    repo: repoRef.optional().describe('Only lessons from this repository (project/repo).'),
  }),
  gate: 'active',
  attributes: READ_ONLY,
  handler: (ctx, input) => {
    const loaded = readCampaign(campaignPlaceOf(ctx), input.slug);
    const lessons = loaded.campaign.lessons.filter((l) => input.repo === undefined || l.repo === input.repo);
    return { slug: input.slug, lessons, count: lessons.length };
  },
  cli: {
    command: 'campaign lesson list',
    human: (r) =>
      r.lessons.length === 0
        ? 'no lessons'
        : r.lessons.map((l, i) => `${i + 1}. ${l.text}${l.repo ? ` (${l.repo})` : ''}`).join('\n'),
  },
  http: [{ method: 'GET', route: '/v3/ops/campaigns/{slug}/lessons', input: 'query' }],
});

export const campaignLessons = [campaignLessonAdd, campaignLessonList];
