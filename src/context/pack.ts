import type { Digest } from '../coord/index.js';
import { compactCard, type RepoCard, withoutCommands, withoutEdges } from './card.js';
import { type Fitted, fitToBudget, type Ladder, type Shrink } from './fit.js';
import type { WorkspaceMap } from './map.js';
import type { TokenCounter } from './tokens.js';

export type Tier = 0 | 1 | 2;
export const TIERS = [0, 1, 2] as const;

/** Most subjects per repository a digest carries. */
export const DIGEST_SUBJECTS = 3;

/** Tier 2: what changed since the last session, only for repositories that changed. */
export interface PackDigest {
  since: string | null;
  first_session: boolean;
  manifest_changed: boolean;
  active_objective_id: string | null;
  repo_changes: Array<{
    repository: string;
    commit_count: number;
    recent_subjects?: string[];
    dirty: boolean;
    error?: string;
  }>;
  /** Repositories read that had no new commits and no uncommitted changes. */
  unchanged: number;
}

/** The envelope every tier shares; compile adds its sections after `workspace_name`. */
export interface ContextPack {
  ok: true;
  tier: Tier;
  workspace_name: string | null;
  [section: string]: unknown;
  map: WorkspaceMap | null;
  cards: RepoCard[];
  digest: PackDigest | null;
  /** What the token budget removed, in the order it was removed (see docs/context.md). */
  dropped_sections: string[];
  max_tokens: number | null;
  /** Exact tokens of this pack as `--json` prints it (o200k_base), this field included. */
  token_estimate: number;
}

/** A section beside the tiers (compile's component, graph and profile); droppable ones go before the cards. */
export interface ExtraSection {
  key: string;
  value: unknown;
  droppable?: boolean;
}

export interface PackInput {
  tier: Tier;
  workspaceName: string | null;
  map: WorkspaceMap | null;
  cards: RepoCard[];
  digest: PackDigest | null;
  sections?: ExtraSection[];
  maxTokens?: number;
  /** The input field the budget came in (`max_tokens`, or compile's `budget`), named by a refusal. */
  budgetField?: string;
}

/** Keeps the changed repositories of a session digest, with a few subjects each. */
export function compactDigest(d: Digest): PackDigest {
  const changed = d.repo_changes.filter((c) => c.commit_count > 0 || c.dirty || c.error);
  return {
    since: d.since,
    first_session: d.first_session,
    manifest_changed: d.manifest_changed,
    active_objective_id: d.active_objective_id,
    repo_changes: changed.map((c) => ({
      repository: c.repository,
      commit_count: c.commit_count,
      ...(c.recent_subjects.length ? { recent_subjects: c.recent_subjects.slice(0, DIGEST_SUBJECTS) } : {}),
      dirty: c.dirty,
      ...(c.error ? { error: c.error } : {}),
    })),
    unchanged: d.repo_changes.length - changed.length,
  };
}

interface PackState {
  digestSubjects: boolean;
  digest: boolean;
  dropped: Set<string>;
  /** Cards before this index keep their detail; later ones are compacted. */
  cardsFull: number;
  /** Cards before this index keep their edges, and before the next their commands. */
  cardsEdges: number;
  cardsCommands: number;
  cardsKept: number;
  projectDetail: boolean;
  repoTags: boolean;
  rowsKept: number;
  projectsKept: number;
}

/**
 * The budget ladder of a pack, in drop order: the highest tier goes first (digest subjects, then the digest),
 * then droppable extra sections, then card detail, card edges and card commands (each last card first), then
 * cards from the last one down to the first, and only then the map shrinks: project detail, repository tags,
 * rows from the end down to the first (the page then ends early: `truncated`, `next_offset`), and projects.
 * The last step is the smallest useful pack: the map with its first row and, when cards were asked, the first
 * card; a budget below it is refused rather than answered with an empty pack.
 */
export function packLadder(input: PackInput): Ladder<PackState, ContextPack> {
  const { map, cards, digest } = input;
  const extras = input.sections ?? [];
  const hasSubjects = Boolean(digest?.repo_changes.some((c) => c.recent_subjects?.length));
  const one = (when: boolean, apply: (s: PackState) => void): Shrink<PackState> => ({
    size: when ? 1 : 0,
    apply,
  });
  const shrinks: Array<Shrink<PackState>> = [
    one(hasSubjects, (s) => {
      s.digestSubjects = false;
    }),
    one(Boolean(digest), (s) => {
      s.digest = false;
    }),
    ...extras.map((x) => one(Boolean(x.droppable), (s) => void s.dropped.add(x.key))),
    {
      size: cards.length,
      apply: (s, k) => {
        s.cardsFull = cards.length - k;
      },
    },
    {
      size: cards.some((c) => c.edges) ? cards.length : 0,
      apply: (s, k) => {
        s.cardsEdges = cards.length - k;
      },
    },
    {
      size: cards.some((c) => c.commands) ? cards.length : 0,
      apply: (s, k) => {
        s.cardsCommands = cards.length - k;
      },
    },
    {
      size: Math.max(0, cards.length - 1),
      apply: (s, k) => {
        s.cardsKept = cards.length - k;
      },
    },
    one(Boolean(map?.projects.some((p) => p.description || p.tags)), (s) => {
      s.projectDetail = false;
    }),
    one(Boolean(map?.repos.some((r) => r.tags)), (s) => {
      s.repoTags = false;
    }),
    {
      size: Math.max(0, (map?.repos.length ?? 0) - 1),
      apply: (s, k) => {
        s.rowsKept = (map?.repos.length ?? 0) - k;
      },
    },
    {
      size: map?.projects.length ?? 0,
      apply: (s, k) => {
        s.projectsKept = (map?.projects.length ?? 0) - k;
      },
    },
  ];
  return {
    initial: () => ({
      digestSubjects: true,
      digest: true,
      dropped: new Set(),
      cardsFull: cards.length,
      cardsEdges: cards.length,
      cardsCommands: cards.length,
      cardsKept: cards.length,
      projectDetail: true,
      repoTags: true,
      rowsKept: map?.repos.length ?? 0,
      projectsKept: map?.projects.length ?? 0,
    }),
    shrinks,
    render: (s) => renderPack(input, s),
  };
}

function renderMap(map: WorkspaceMap, s: PackState, dropped: string[]): WorkspaceMap {
  const rowsCut = s.rowsKept < map.repos.length;
  if (!s.projectDetail) dropped.push('map.projects.detail');
  if (!s.repoTags) dropped.push('map.repos.tags');
  if (rowsCut) dropped.push(`map.repos[${s.rowsKept}:]`);
  if (s.projectsKept < map.projects.length) dropped.push(`map.projects[${s.projectsKept}:]`);
  const end = map.offset + s.rowsKept;
  return {
    ...map,
    projects: map.projects
      .slice(0, s.projectsKept)
      .map((p) => (s.projectDetail ? p : { name: p.name, repo_count: p.repo_count })),
    repos: map.repos.slice(0, s.rowsKept).map((r) => {
      if (s.repoTags || !r.tags) return r;
      const { tags: _t, ...rest } = r;
      return rest;
    }),
    truncated: map.truncated || rowsCut,
    next_offset: rowsCut ? end : map.next_offset,
  };
}

function renderPack(input: PackInput, s: PackState): ContextPack {
  const dropped: string[] = [];
  let digest: PackDigest | null = null;
  if (input.digest && s.digest) {
    digest = s.digestSubjects
      ? input.digest
      : {
          ...input.digest,
          repo_changes: input.digest.repo_changes.map(({ recent_subjects: _r, ...c }) => c),
        };
    if (!s.digestSubjects) dropped.push('digest.recent_subjects');
  } else if (input.digest) dropped.push('digest');
  const extras: Record<string, unknown> = {};
  for (const x of input.sections ?? []) {
    if (s.dropped.has(x.key)) {
      extras[x.key] = null;
      dropped.push(x.key);
    } else extras[x.key] = x.value;
  }
  let cards = input.cards.slice(0, s.cardsKept);
  if (s.cardsFull < cards.length) {
    cards = cards.map((c, i) => (i < s.cardsFull ? c : compactCard(c)));
    dropped.push(`cards[${s.cardsFull}:].detail`);
  }
  if (s.cardsEdges < cards.length) {
    cards = cards.map((c, i) => (i < s.cardsEdges ? c : withoutEdges(c)));
    dropped.push(`cards[${s.cardsEdges}:].edges`);
  }
  if (s.cardsCommands < cards.length) {
    cards = cards.map((c, i) => (i < s.cardsCommands ? c : withoutCommands(c)));
    dropped.push(`cards[${s.cardsCommands}:].commands`);
  }
  if (s.cardsKept < input.cards.length) dropped.push(`cards[${s.cardsKept}:]`);
  const map = input.map ? renderMap(input.map, s, dropped) : null;
  return {
    ok: true,
    tier: input.tier,
    workspace_name: input.workspaceName,
    ...extras,
    map,
    cards,
    digest,
    dropped_sections: dropped,
    max_tokens: input.maxTokens ?? null,
    token_estimate: 0,
  };
}

export interface AssembledPack {
  pack: ContextPack;
  tokens: number;
  /** False when the budget removed the digest (tier 2 then leaves the session boundary where it was). */
  digestKept: boolean;
}

/** Assembles a pack and fits it under `maxTokens` (a hard ceiling on the printed JSON). */
export function assemblePack(counter: TokenCounter, input: PackInput): AssembledPack {
  const fitted: Fitted<PackState, ContextPack> = fitToBudget(
    counter,
    packLadder(input),
    input.maxTokens,
    input.budgetField,
  );
  return {
    pack: fitted.value,
    tokens: fitted.tokens,
    digestKept: Boolean(input.digest) && fitted.state.digest,
  };
}
