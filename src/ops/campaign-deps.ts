import {
  azureBoard,
  BOARD_PROVIDERS,
  type Board,
  type BoardProviderName,
  type BoardTarget,
  boardConnection,
  type Campaign,
  type CampaignPlace,
  type CampaignRow,
  campaignObjectiveId,
  campaignPlace,
  githubBoard,
  OBJECTIVE_STATUS_OF_ROW,
} from '../campaign/index.js';
import { didYouMean, suggestionText } from '../catalog/index.js';
import { objectiveListing, upsertObjective } from '../coord/index.js';
import { NotFoundError, ValidationError } from '../infra/index.js';
import { applyWhereStored } from './apply-where-stored.js';
import type { OpContext } from './context.js';
import { coordDeps } from './coord-deps.js';
import type { HttpBinding } from './registry.js';

/** The campaigns folder of this workspace (`workspace.campaigns_path`, HUB_WORKSPACE_CAMPAIGNS_PATH). */
export function campaignPlaceOf(ctx: OpContext): CampaignPlace {
  return campaignPlace(ctx.root(), ctx.appConfig().config.workspace.campaigns_path);
}

/**
 * The board a campaign syncs with: `providers.<provider>.organization / .project` of the application config.
 * Without `provider`, the one board provider configured; none or both configured is a ValidationError that says
 * what to set.
 */
export function boardTargetOf(ctx: OpContext, provider?: BoardProviderName): BoardTarget {
  const providers = ctx.appConfig().config.providers as Record<
    string,
    { organization?: string; project?: string }
  >;
  const configured = BOARD_PROVIDERS.filter((p) => providers[p]?.organization || providers[p]?.project);
  const pick = provider ?? (configured.length === 1 ? configured[0] : undefined);
  if (pick === undefined)
    throw new ValidationError(
      configured.length === 0
        ? `provider: no board provider configured; set providers.github.organization and .project (GitHub Projects) or providers.azure.organization and .project (Azure Boards) in hub.config.yaml`
        : `provider: both ${configured.join(' and ')} are configured; name one (provider: ${configured.join(' or ')})`,
      {
        field: 'provider',
        rule: configured.length === 0 ? 'board_configured' : 'one_of',
        choices: BOARD_PROVIDERS,
      },
    );
  const cfg = providers[pick] ?? {};
  for (const key of ['organization', 'project'] as const)
    if (!cfg[key]?.trim())
      throw new ValidationError(
        `providers.${pick}.${key}: required to link a campaign to the ${pick} board`,
        {
          field: `providers.${pick}.${key}`,
          rule: 'required',
        },
      );
  return { provider: pick, organization: cfg.organization!.trim(), project: cfg.project!.trim() };
}

/** The board of a target, reached with the token and URL the environment gives. */
export function boardOf(ctx: OpContext, target: BoardTarget): Board {
  const conn = boardConnection(target.provider, ctx.env);
  return target.provider === 'github' ? githubBoard(conn, target) : azureBoard(conn, target);
}

/** A row of a campaign by `project/repo`, with its index; a NotFoundError names the campaign's rows. */
export function rowIndex(campaign: Campaign, ref: string, field = 'repo'): number {
  const i = campaign.repos.findIndex((r) => `${r.project}/${r.repo}` === ref);
  if (i >= 0) return i;
  return notARow(campaign, ref, field);
}

function notARow(campaign: Campaign, ref: string, field: string): never {
  const refs = campaign.repos.map((r) => `${r.project}/${r.repo}`);
  const suggestions = didYouMean(ref, refs);
  throw new NotFoundError(
    `${field}: campaign '${campaign.slug}' has no row for '${ref}'${suggestionText(suggestions)}`,
    { field, value: ref, rule: 'campaign_row', suggestions },
  );
}

/** The ids of the workspace's objectives (one listing, for rollUpToObjective over many rows). */
export async function objectiveIds(ctx: OpContext): Promise<Set<string>> {
  return new Set((await objectiveListing(coordDeps(ctx))).objectives.map((o) => o.id));
}

/**
 * The objective of a row, brought in line with the row (status, merge request) when expand made one. `known`:
 * the objectives' ids when the caller listed them already (one listing for many rows).
 */
export async function rollUpToObjective(
  ctx: OpContext,
  slug: string,
  row: CampaignRow,
  known?: ReadonlySet<string>,
): Promise<string | null> {
  const id = campaignObjectiveId(slug, row.project, row.repo);
  if (!(known ?? (await objectiveIds(ctx))).has(id)) return null;
  const status = OBJECTIVE_STATUS_OF_ROW[row.status];
  const fields = {
    id,
    ...(status ? { status } : {}),
    ...(row.mr ? { mr_url: row.mr } : {}),
  };
  if (!status && !row.mr) return id;
  const route: HttpBinding = { method: 'POST', route: '/v3/ops/objectives', input: 'body' };
  await applyWhereStored(ctx, route, fields, (d) => upsertObjective(d, fields, { root: ctx.root() }));
  return id;
}
