import type { BoardProviderName, RowStatus } from './schema.js';

/** The board a campaign syncs with: `providers.<provider>.organization / .project` of the application config. */
export interface BoardTarget {
  provider: BoardProviderName;
  organization: string;
  project: string;
}

/** A state (column) of the board: a GitHub Status option, an Azure work item state with its category. */
export interface BoardState {
  name: string;
  /** Azure's state category (Proposed, InProgress, Resolved, Completed, Removed). */
  category?: string;
}

/** What hub learns of the board when it opens it. */
export interface BoardInfo {
  /** The board's own id (a project node id, a project name). */
  id: string;
  title: string;
  url: string | null;
  /** Every state an item may be in, in the board's order. */
  states: BoardState[];
}

/** One item as the board holds it. */
export interface BoardItem {
  id: string;
  url: string | null;
  /** Its state; null when it has none (a GitHub item with an empty Status). */
  state: string | null;
  title: string;
  body: string;
}

/** The content hub writes to an item of a row. */
export interface ItemContent {
  title: string;
  body: string;
}

/** A board's API, as board sync needs it. */
export interface Board {
  readonly target: BoardTarget;
  open(): Promise<BoardInfo>;
  /** Items by id; an id the board does not know is absent from the map. */
  read(ids: readonly string[]): Promise<Map<string, BoardItem>>;
  /**
   * Creates an item, then moves it to `state` when given (and not where it starts); `parent` is the campaign's own
   * work item, which boards that nest items (Azure) link it under.
   */
  create(content: ItemContent, state: string | undefined, parent?: string): Promise<BoardItem>;
  /** Whether an item already shows this content (as the board stores text: Markdown, HTML). */
  same(item: BoardItem, content: ItemContent): boolean;
  /** Changes an item's content and/or state (only what is given). */
  update(id: string, change: Partial<ItemContent> & { state?: string }): Promise<BoardItem>;
}

/**
 * How board states read as row statuses. By name first (case, spaces and punctuation ignored): the names teams
 * give columns; then, for Azure, by the state's category. A state matching neither leaves the row as it is.
 */
const BY_NAME: Record<string, RowStatus> = {
  todo: 'pending',
  new: 'pending',
  backlog: 'pending',
  ready: 'pending',
  proposed: 'pending',
  triage: 'pending',
  notstarted: 'pending',
  inprogress: 'routed',
  doing: 'routed',
  active: 'routed',
  started: 'routed',
  committed: 'routed',
  inreview: 'mr-open',
  review: 'mr-open',
  reviewing: 'mr-open',
  mropen: 'mr-open',
  propen: 'mr-open',
  resolved: 'mr-open',
  done: 'merged',
  merged: 'merged',
  closed: 'merged',
  complete: 'merged',
  completed: 'merged',
  shipped: 'merged',
  blocked: 'blocked',
  onhold: 'blocked',
};

const BY_CATEGORY: Record<string, RowStatus> = {
  proposed: 'pending',
  inprogress: 'routed',
  resolved: 'mr-open',
  completed: 'merged',
};

/** For each row status, the row statuses whose board state may stand in for it, in order. */
const FALLBACK: Record<RowStatus, RowStatus[]> = {
  pending: ['pending'],
  routed: ['routed'],
  'mr-open': ['mr-open', 'routed'],
  merged: ['merged'],
  blocked: ['blocked'],
};

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The row status a board state means, or undefined when it means none hub knows. */
export function rowStatusOfState(
  state: string | null | undefined,
  states: readonly BoardState[],
): RowStatus | undefined {
  if (!state) return undefined;
  const byName = BY_NAME[squash(state)];
  if (byName) return byName;
  const category = states.find((s) => s.name === state)?.category;
  return category ? BY_CATEGORY[squash(category)] : undefined;
}

/** The board state a row status is shown as: the first state that means it (or its fallback), else undefined. */
export function stateForRow(status: RowStatus, states: readonly BoardState[]): string | undefined {
  for (const want of FALLBACK[status]) {
    const hit = states.find((s) => BY_NAME[squash(s.name)] === want);
    if (hit) return hit.name;
    const byCategory = states.find((s) => s.category && BY_CATEGORY[squash(s.category)] === want);
    if (byCategory) return byCategory.name;
  }
  return undefined;
}
