import { HubError } from '../infra/index.js';
import {
  type Board,
  type BoardInfo,
  type BoardItem,
  type ItemContent,
  rowStatusOfState,
  stateForRow,
} from './board.js';
import type { Campaign, CampaignRow, RowStatus, WorkItemRef } from './schema.js';
import { rowRef } from './schema.js';

/**
 * Board sync, in two steps: `planBoardSync` reads the board and decides, per row, what to do; `applyBoardSync`
 * does it on the board. The caller writes the rows' new statuses and work item links (a preview writes nothing).
 *
 * Which side wins: each link records the board state it had at the last sync (`work_item.state`). A board
 * state that moved since then is a change made on the board, and the row takes it; otherwise a row whose status
 * the board does not show yet is pushed to the board. When both moved, the board wins (people move cards; the
 * row's change is reported as a conflict).
 */

export type SyncAction = 'create' | 'pull' | 'push' | 'none' | 'missing';

export interface SyncRow {
  repo: string;
  action: SyncAction;
  /** The item's title or description differs from what hub writes (created items always carry it). */
  content_changed: boolean;
  /** Both the row and the board changed since the last sync; the board's state was taken. */
  conflict: boolean;
  row_status: { before: RowStatus; after: RowStatus };
  board_state: { before: string | null; after: string | null };
  work_item: WorkItemRef | null;
  note?: string;
}

export interface SyncPlan {
  info: BoardInfo;
  rows: SyncRow[];
  /** The item content per row (same order). */
  contents: ItemContent[];
}

/** The title and description of a row's item: the campaign, the repository, the goal, the merge request. */
export function itemContent(campaign: Campaign, row: CampaignRow): ItemContent {
  const ref = rowRef(row);
  const lines = [
    ...(campaign.goal ? [campaign.goal.trim(), ''] : []),
    `Repository: ${ref}`,
    `Campaign: ${campaign.title} (${campaign.slug})`,
    ...(row.mr ? [`Merge request: ${row.mr}`] : []),
    ...(row.note ? [`Note: ${row.note}`] : []),
    '',
    `hub-campaign: ${campaign.slug} ${ref}`,
  ];
  return { title: `${campaign.title}: ${ref}`, body: lines.join('\n') };
}

const linkedTo = (row: CampaignRow, provider: string) =>
  row.work_item !== undefined &&
  (row.work_item.provider === undefined || row.work_item.provider === provider);

/** Reads the board and decides what each row needs; nothing is written anywhere. */
export async function planBoardSync(board: Board, campaign: Campaign): Promise<SyncPlan> {
  const info = await board.open();
  const provider = board.target.provider;
  const ids = campaign.repos.flatMap((r) => (linkedTo(r, provider) ? [r.work_item!.id] : []));
  const items = ids.length > 0 ? await board.read(ids) : new Map<string, BoardItem>();
  const contents = campaign.repos.map((row) => itemContent(campaign, row));
  const rows = campaign.repos.map((row, i): SyncRow => {
    const want = stateForRow(row.status, info.states);
    const base = {
      repo: rowRef(row),
      conflict: false,
      row_status: { before: row.status, after: row.status },
    };
    if (!linkedTo(row, provider))
      return {
        ...base,
        action: 'create',
        content_changed: true,
        board_state: { before: null, after: want ?? null },
        work_item: null,
        ...(want === undefined
          ? { note: `no board state means '${row.status}'; the item keeps its first state` }
          : {}),
      };
    const ref = row.work_item!;
    const item = items.get(ref.id);
    if (!item)
      return {
        ...base,
        action: 'missing',
        content_changed: false,
        board_state: { before: null, after: null },
        work_item: ref,
        note: `the board has no item ${ref.id}; remove work_item from the row to create a new one`,
      };
    const now = item.state;
    const last = ref.state ?? null;
    const fromBoard = rowStatusOfState(now, info.states);
    const boardMoved = ref.state === undefined || now !== last;
    const rowMoved = ref.state !== undefined && rowStatusOfState(last, info.states) !== row.status;
    const content_changed = !board.same(item, contents[i]!);
    const link: WorkItemRef = { ...ref, provider, ...(item.url ? { url: item.url } : {}) };
    if (boardMoved && fromBoard !== undefined && fromBoard !== row.status)
      return {
        ...base,
        action: 'pull',
        content_changed,
        conflict: rowMoved,
        row_status: { before: row.status, after: fromBoard },
        board_state: { before: now, after: now },
        work_item: link,
      };
    if (!boardMoved && want !== undefined && want !== now)
      return {
        ...base,
        action: 'push',
        content_changed,
        board_state: { before: now, after: want },
        work_item: link,
      };
    return {
      ...base,
      action: 'none',
      content_changed,
      board_state: { before: now, after: now },
      work_item: link,
      ...(boardMoved && fromBoard === undefined && now !== null
        ? { note: `board state '${now}' means no row status hub knows; the row is kept` }
        : {}),
    };
  });
  return { info, rows, contents };
}

/** A board write that failed part way: the rows done before it are in `rows` (to be recorded all the same). */
export class BoardSyncStopped extends Error {
  constructor(
    readonly error: unknown,
    readonly repo: string,
    /** Rows before this index were synced. */
    readonly index: number,
  ) {
    super(`board sync stopped at ${repo}`);
  }
}

/**
 * Does a plan on the board: creates the missing items, pushes row statuses, rewrites changed titles and
 * descriptions. Fills in each row's resulting link (`state` = the board state now, `synced_at`) in place. On a
 * failure it throws BoardSyncStopped after the rows before it are filled in, so the caller records those.
 */
export async function applyBoardSync(
  board: Board,
  campaign: Campaign,
  plan: SyncPlan,
  now: Date,
): Promise<void> {
  const provider = board.target.provider;
  const stamp = now.toISOString();
  const parent =
    campaign.work_item && (campaign.work_item.provider ?? provider) === provider
      ? campaign.work_item.id
      : undefined;
  for (let i = 0; i < plan.rows.length; i++) {
    const r = plan.rows[i]!;
    const content = plan.contents[i]!;
    try {
      let item: BoardItem | undefined;
      if (r.action === 'create') {
        item = await board.create(content, r.board_state.after ?? undefined, parent);
      } else if (r.action === 'push' || r.content_changed) {
        if (r.action === 'missing') continue;
        item = await board.update(r.work_item!.id, {
          ...(r.action === 'push' ? { state: r.board_state.after! } : {}),
          ...(r.content_changed ? content : {}),
        });
      }
      if (r.action === 'missing') continue;
      const state = item ? item.state : r.board_state.after;
      const before = r.work_item;
      const url = item?.url ?? before?.url;
      const changed =
        r.action !== 'none' ||
        r.content_changed ||
        before?.state !== (state ?? undefined) ||
        before?.provider !== provider ||
        before?.url !== url;
      r.work_item = {
        ...(before ?? {}),
        provider,
        id: item?.id ?? before!.id,
        ...(url ? { url } : {}),
        ...(state === null ? {} : { state }),
        synced_at: changed ? stamp : (before?.synced_at ?? stamp),
      };
      r.board_state.after = state;
    } catch (err) {
      throw new BoardSyncStopped(err, r.repo, i);
    }
  }
}

/** The error a stopped sync reports: the board's, with how far it got. */
export function stoppedError(stop: BoardSyncStopped, done: number): unknown {
  const err = stop.error;
  if (err instanceof HubError) {
    err.message = `${err.message} (board sync stopped at ${stop.repo}; ${done} row(s) before it were synced and recorded)`;
    return err;
  }
  return err;
}
