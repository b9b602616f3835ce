import * as z from 'zod';
import {
  applyBoardSync,
  BOARD_PROVIDERS,
  BoardSyncStopped,
  planBoardSync,
  readCampaign,
  recordCampaignEvent,
  type SyncRow,
  setRowFields,
  setWorkItem,
  stoppedError,
  updateCampaign,
} from '../campaign/index.js';
import { boardOf, boardTargetOf, campaignPlaceOf } from './campaign-deps.js';
import { cliHelp } from './cli-help.js';
import { coordDeps } from './coord-deps.js';
import { table } from './format.js';
import { defineOp, WRITES } from './registry.js';

const counts = (rows: readonly SyncRow[]) => ({
  create: rows.filter((r) => r.action === 'create').length,
  pull: rows.filter((r) => r.action === 'pull').length,
  push: rows.filter((r) => r.action === 'push').length,
  content: rows.filter((r) => r.action !== 'create' && r.content_changed).length,
  missing: rows.filter((r) => r.action === 'missing').length,
  conflicts: rows.filter((r) => r.conflict).length,
});

export const campaignBoardSync = defineOp({
  id: 'campaign.board-sync',
  summary: 'Sync campaign rows with the board; previews unless `apply`.',
  description:
    'The board is providers.<provider>.organization / .project of hub.config.yaml (provider github or azure; the ' +
    'one configured by default); its API and token come from the environment only (see docs/campaigns.md). ' +
    'Without apply it previews: reads the board and reports per row create, pull (the board moved: the row takes ' +
    'its state), push (the row moved: the board takes it), missing or none. With apply it creates and updates the ' +
    'items and writes the rows: their status and work_item (id, url, the board state now).',
  input: z.strictObject({
    slug: cliHelp(z.string().min(1), 'Campaign slug (its file is <slug>.yml).'),
    provider: cliHelp(z.enum(BOARD_PROVIDERS).optional(), 'github or azure (default: the one configured).'),
    apply: cliHelp(
      z.boolean().optional(),
      'Create and update the items and write the rows (default: preview).',
    ),
  }),
  gate: 'active',
  attributes: WRITES,
  handler: async (ctx, input) => {
    const place = campaignPlaceOf(ctx);
    const loaded = readCampaign(place, input.slug);
    const target = boardTargetOf(ctx, input.provider);
    const board = boardOf(ctx, target);
    const plan = await planBoardSync(board, loaded.campaign);
    const result = () => ({
      slug: input.slug,
      apply: Boolean(input.apply),
      board: {
        ...target,
        title: plan.info.title,
        url: plan.info.url,
        states: plan.info.states.map((s) => s.name),
      },
      counts: counts(plan.rows),
      rows: plan.rows,
    });
    if (!input.apply) return result();
    let stop: BoardSyncStopped | undefined;
    try {
      await applyBoardSync(board, loaded.campaign, plan, ctx.now());
    } catch (err) {
      if (!(err instanceof BoardSyncStopped)) throw err;
      stop = err;
    }
    const done = stop ? stop.index : plan.rows.length;
    // Rows are found again by project/repo: another writer may have changed the file while the board answered.
    await updateCampaign(
      place,
      input.slug,
      (doc, fresh) => {
        plan.rows.slice(0, done).forEach((r) => {
          const i = fresh.repos.findIndex((row) => `${row.project}/${row.repo}` === r.repo);
          if (i < 0 || !r.work_item) return;
          setWorkItem(doc, i, r.work_item);
          // A row someone changed meanwhile keeps that change; the board's state waits for the next sync.
          if (r.action === 'pull' && fresh.repos[i]!.status === r.row_status.before)
            setRowFields(doc, i, { status: r.row_status.after });
        });
      },
      { now: ctx.now() },
    );
    const c = counts(plan.rows.slice(0, done));
    await recordCampaignEvent(
      coordDeps(ctx).store,
      'CampaignBoardSynced',
      input.slug,
      { provider: target.provider, ...c },
      () => ctx.now(),
    );
    if (stop) throw stoppedError(stop, done);
    return result();
  },
  cli: {
    command: 'campaign board-sync',
    human: (r) =>
      [
        `${r.apply ? 'synced' : 'preview of'} ${r.slug} with ${r.board.provider} ${r.board.title}${r.board.url ? ` (${r.board.url})` : ''}`,
        table(
          r.rows.map((x) => [
            x.repo,
            x.action,
            `${x.row_status.before}${x.row_status.after !== x.row_status.before ? ` -> ${x.row_status.after}` : ''}`,
            `${x.board_state.before ?? '-'}${x.board_state.after !== x.board_state.before ? ` -> ${x.board_state.after ?? '-'}` : ''}`,
            x.work_item?.id ?? '',
            [x.conflict ? 'conflict: board won' : '', x.note ?? ''].filter(Boolean).join('; '),
          ]),
          ['REPO', 'ACTION', 'ROW', 'BOARD', 'ITEM', 'NOTE'],
        ),
        r.apply ? '' : '(preview: nothing written; pass --apply to sync)',
      ]
        .filter(Boolean)
        .join('\n'),
  },
  mcp: { tool: 'hub_campaign_board_sync', when: 'Use when boards lag.' },
  http: [
    { method: 'GET', route: '/v3/ops/campaigns/{slug}/board-sync', input: 'query', fixed: { apply: false } },
    { method: 'POST', route: '/v3/ops/campaigns/{slug}/board-sync', input: 'body' },
  ],
});
