import type { Catalog } from '../catalog/index.js';
import {
  type CoordDeps,
  DOCS,
  type Objective,
  type ObjectiveStatus,
  ObjectivesDocSchema,
  objectiveCreatedEvent,
  recordEvent,
  updateDoc,
} from '../coord/index.js';
import { type Campaign, campaignObjectiveId, type RowStatus, rowRef } from './schema.js';
import { matchesTags, mergedTags, type TagMap } from './selection.js';

/** One objective of an expansion. */
export interface ExpandItem {
  id: string;
  project: string;
  repo: string;
  title: string;
  /** `create`: made now (or, in a dry run, would be); `exists`: an objective with that id is already there. */
  action: 'create' | 'exists';
}

export interface ExpandPlan {
  slug: string;
  /** The tags rows were matched on (the campaign's `selection.tags` unless given). */
  tags: TagMap;
  items: ExpandItem[];
  /** Rows left out, and why: `tags` (they do not match), `not_in_manifest`. */
  skipped: Array<{ repo: string; reason: 'tags' | 'not_in_manifest' }>;
}

/**
 * The objective status a row status rolls up to (expand, campaign set): only statuses that say something the
 * objective cannot know; a routed or pending row leaves it to its agent.
 */
export const OBJECTIVE_STATUS_OF_ROW: Partial<Record<RowStatus, ObjectiveStatus>> = {
  'mr-open': 'in_progress',
  merged: 'done',
  blocked: 'blocked',
};

/** The objective title of a row: `<campaign title>: project/repo`. */
export const objectiveTitle = (campaign: Campaign, ref: string) => `${campaign.title}: ${ref}`;

/**
 * Which objectives an expansion makes: one per row whose repository is in the manifest and whose merged project
 * and repository tags match `tags` (default: the campaign's selection tags), id `campaign-<slug>-<project>-<repo>`.
 */
export function planExpand(
  campaign: Campaign,
  catalog: Catalog,
  existing: ReadonlySet<string>,
  tags?: TagMap,
): ExpandPlan {
  const want = tags ?? (campaign.selection.tags as TagMap);
  const plan: ExpandPlan = { slug: campaign.slug, tags: want, items: [], skipped: [] };
  for (const row of campaign.repos) {
    const ref = rowRef(row);
    const repo = catalog.repoById.get(ref);
    if (repo?.kind !== 'workspace') {
      plan.skipped.push({ repo: ref, reason: 'not_in_manifest' });
      continue;
    }
    if (!matchesTags(mergedTags(catalog, repo), want)) {
      plan.skipped.push({ repo: ref, reason: 'tags' });
      continue;
    }
    const id = campaignObjectiveId(campaign.slug, row.project, row.repo);
    plan.items.push({
      id,
      project: row.project,
      repo: row.repo,
      title: objectiveTitle(campaign, ref),
      action: existing.has(id) ? 'exists' : 'create',
    });
  }
  return plan;
}

/**
 * Makes the objectives a plan creates, in one compare-and-swap write of the objectives document (an id another
 * writer made meanwhile is left as that writer made it), and records an ObjectiveCreated event for each, carrying
 * `campaign: <slug>`. Status pending (in_progress, done, blocked for an mr-open, merged, blocked row); the campaign goal is the acceptance; a row's merge request its `mr_url`.
 */
export async function expandObjectives(
  deps: CoordDeps,
  campaign: Campaign,
  plan: ExpandPlan,
): Promise<Objective[]> {
  const rows = new Map(campaign.repos.map((r) => [rowRef(r), r]));
  const made = await updateDoc(deps, DOCS.objectives, ObjectivesDocSchema, (doc) => {
    const have = new Set(doc.objectives.map((o) => o.id));
    const stamp = deps.now().toISOString();
    const out: Objective[] = [];
    for (const item of plan.items) {
      if (have.has(item.id)) continue;
      const row = rows.get(`${item.project}/${item.repo}`);
      const o: Objective = {
        id: item.id,
        title: item.title,
        status: OBJECTIVE_STATUS_OF_ROW[row?.status ?? 'pending'] ?? 'pending',
        repos: [`${item.project}/${item.repo}`],
        ...(campaign.goal ? { acceptance: campaign.goal } : {}),
        ...(row?.mr ? { mr_url: row.mr } : {}),
        created_at: stamp,
        updated_at: stamp,
      };
      doc.objectives.push(o);
      out.push(o);
    }
    return out;
  });
  for (const o of made) {
    const e = objectiveCreatedEvent(o);
    await recordEvent(deps.store, { ...e, data: { ...e.data, campaign: campaign.slug } }, deps.now);
  }
  return made;
}

/** Rows an expansion moves from pending to routed: those that now have an objective. */
export function routedRows(campaign: Campaign, plan: ExpandPlan): number[] {
  const ids = new Set(plan.items.map((i) => `${i.project}/${i.repo}`));
  const out: number[] = [];
  campaign.repos.forEach((row, i) => {
    if (row.status === ('pending' satisfies RowStatus) && ids.has(rowRef(row))) out.push(i);
  });
  return out;
}
