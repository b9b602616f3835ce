import {
  type Catalog,
  type CatalogRepo,
  type Checkouts,
  checkoutsOf,
  type RepoCheckout,
} from '../catalog/index.js';
import type { WorkspaceGraph } from '../graph/index.js';
import type { DeclaredCommand, DetectInput } from '../repo-commands/index.js';
import { type RepoGitState, repoGitState, repoGitStates } from '../workspace/index.js';
import { type CardEdges, EdgeIndex } from './card-edges.js';
import {
  type CommitCache,
  type CommitMeta,
  headCommit,
  headCommits,
  openCommitCache,
} from './commit-cache.js';
import { type RepoScan, type StackHint, scanRepo } from './repo-scan.js';

/** Longest agent_instructions excerpt a card carries. */
export const INSTRUCTIONS_EXCERPT = 240;
/** Most components listed on one card. */
export const CARD_COMPONENTS = 12;
/** Most commands listed on one card (then `commands_total`). */
export const CARD_COMMANDS = 8;
/** A head commit older than this many days flags the repository as stale. */
export const STALE_DAYS = 180;

export interface CiSummary {
  provider: string | null;
  config: string | null;
  /** Where it was learned: the manifest's `ci`, files in the checkout, or both. */
  source: 'manifest' | 'detected' | 'manifest+detected';
  workflows?: string[];
}

/** Tier 1: what an agent needs to know about one repository before touching it. */
export interface RepoCard {
  project: string;
  repo: string;
  /** Absolute checkout directory. */
  path: string;
  status: 'synced' | 'missing';
  exists: boolean;
  is_git_repo: boolean;
  branch: string | null;
  dirty: boolean;
  /** Changed or untracked paths. */
  changes: number;
  ahead: number | null;
  behind: number | null;
  head_commit_age_days: number | null;
  last_commit?: { sha: string; subject: string };
  /** Subjects of the two commits before the head. */
  earlier_subjects?: string[];
  default_branch?: string;
  url?: string;
  description?: string;
  /** First paragraph of the README. */
  readme?: string;
  tags?: Record<string, string | number | boolean>;
  agent_instructions?: string;
  /** Root entries, folders with a trailing slash. */
  top_level?: string[];
  stack_hints: StackHint[] | string[];
  health_flags: string[];
  ci: CiSummary | null;
  agent_files?: string[];
  /**
   * Build, test and lint commands, each with its source: the manifest's component `commands` first, then what
   * the checkout declares (package scripts, Makefile targets, Python tool scripts, CI run lines) and what its
   * toolchain implies (Go, Cargo). Present when the checkout was read or the manifest names some.
   */
  commands?: DeclaredCommand[];
  /** Set when `commands` was cut at CARD_COMMANDS: how many were found. */
  commands_total?: number;
  /** Cross-repository edges of the workspace graph, each with its evidence (present when the graph was read). */
  edges?: CardEdges;
  components?: CardComponent[];
  components_total?: number;
  error?: string;
}

/** A catalogued component on a card; its manifest `commands` are in the card's `commands` (`dir` its path). */
export interface CardComponent {
  name: string;
  path: string;
  kind?: string;
  language?: string | string[];
}

export interface CardOptions {
  now: Date;
  cache?: CommitCache;
  /** Judge of checkouts (a repository outside the workspace is shown as such and never read). */
  checkouts?: Checkouts;
  /**
   * The workspace graph (inferred edges included), or a way to build it (called while git runs); cards then
   * carry `edges`.
   */
  graph?: WorkspaceGraph | EdgeIndex | (() => WorkspaceGraph | Promise<WorkspaceGraph>);
}

async function edgeIndexOf(g: CardOptions['graph']): Promise<EdgeIndex | undefined> {
  if (g === undefined || g instanceof EdgeIndex) return g;
  return new EdgeIndex(typeof g === 'function' ? await g() : g);
}

type CardCommands = Pick<RepoCard, 'commands' | 'commands_total'>;
/** Reads a repository's declared commands (`detectCommands` of the repo-commands room). */
export type DetectCommands = (input: DetectInput) => DeclaredCommand[];

/** The command reader, loaded on first use: a tier-0 pack never loads its parsers. */
export async function loadDetect(): Promise<DetectCommands> {
  return (await import('../repo-commands/index.js')).detectCommands;
}

/** The repository's commands (manifest first, then what its checkout declares), cut at CARD_COMMANDS. */
function repoCommands(
  detect: DetectCommands,
  catalog: Catalog,
  repo: CatalogRepo,
  dir: string | undefined,
): CardCommands {
  const comps = catalog.componentsByRepo.get(repo.id) ?? [];
  const all = detect({
    root: dir,
    dirs: comps.map((c) => c.path),
    manifest: comps.flatMap((c) =>
      c.raw.commands && Object.keys(c.raw.commands).length
        ? [{ path: c.path, commands: c.raw.commands }]
        : [],
    ),
  });
  if (dir === undefined && all.length === 0) return {};
  return {
    commands: all.slice(0, CARD_COMMANDS),
    ...(all.length > CARD_COMMANDS ? { commands_total: all.length } : {}),
  };
}

function excerpt(text: string | undefined, max = INSTRUCTIONS_EXCERPT): string | undefined {
  const t = text?.trim().replace(/\s+/g, ' ');
  if (!t) return undefined;
  return t.length <= max ? t : `${t.slice(0, max - 1).trimEnd()}…`;
}

function ciSummary(
  repo: CatalogRepo,
  scan: RepoScan | undefined,
): { ci: CiSummary | null; missing: boolean } {
  const declared = repo.raw?.ci;
  const detected = scan?.ci[0];
  if (!declared && !detected) return { ci: null, missing: false };
  const d: { provider?: string; workflow?: string; pipeline?: string } =
    typeof declared === 'string' ? { provider: declared } : (declared ?? {});
  const config = d.workflow ?? d.pipeline ?? null;
  const missing = Boolean(config && scan && !scan.seen.has(config.replace(/^\.\//, '')));
  const provider = d.provider ?? detected?.provider ?? null;
  const source = declared ? (detected ? 'manifest+detected' : 'manifest') : 'detected';
  const workflows = provider === 'github_actions' && scan?.workflows.length ? scan.workflows : undefined;
  return {
    ci: { provider, config: config ?? detected?.config ?? null, source, ...(workflows ? { workflows } : {}) },
    missing,
  };
}

function healthFlags(
  repo: CatalogRepo,
  exists: boolean,
  outside: boolean,
  git: RepoGitState | undefined,
  ageDays: number | null,
  scan: RepoScan | undefined,
  ci: { ci: CiSummary | null; missing: boolean },
): string[] {
  if (outside) return ['repo_outside_workspace'];
  if (!exists) return ['missing_checkout'];
  const flags: string[] = [];
  if (!git?.is_git_repo) flags.push('not_a_git_repo');
  else {
    if (git.error) flags.push('git_error');
    if (git.head && git.branch === null) flags.push('detached_head');
    if (!git.head && !git.error) flags.push('no_commits');
    if (git.dirty) flags.push('uncommitted_changes');
    if ((git.ahead ?? 0) > 0) flags.push('unpushed_commits');
    if ((git.behind ?? 0) > 0) flags.push('behind_upstream');
    if (repo.url && git.branch && git.ahead === null) flags.push('no_upstream');
  }
  if (ageDays !== null && ageDays > STALE_DAYS) flags.push('stale');
  if (!ci.ci) flags.push('no_ci');
  if (ci.missing) flags.push('ci_config_missing');
  if (scan && !scan.readme) flags.push('no_readme');
  return flags;
}

interface Gathered {
  exists: boolean;
  /** The real checkout directory (present repositories). */
  dir?: string;
  /** Why a repository outside the workspace was not read. */
  outside?: string;
  git: RepoGitState | undefined;
  meta: CommitMeta | undefined;
  /** The checkout's files, when read already (else read here). */
  scan?: RepoScan;
  commands: CardCommands;
}

function assembleCard(
  catalog: Catalog,
  repo: CatalogRepo,
  g: Gathered,
  now: Date,
  edges: EdgeIndex | undefined,
): RepoCard {
  const { exists, git, meta } = g;
  let ageDays: number | null = null;
  let last: { sha: string; subject: string } | undefined;
  if (git?.head && meta) {
    const t = Date.parse(meta.at);
    ageDays = Number.isNaN(t) ? null : Math.max(0, Math.floor((now.getTime() - t) / 86_400_000));
    last = { sha: git.head.slice(0, 12), subject: meta.subject };
  }
  const earlier = meta?.earlier ?? [];
  const scan = g.scan ?? (g.dir ? scanRepo(g.dir) : undefined);
  const ci = ciSummary(repo, scan);
  const comps = catalog.componentsByRepo.get(repo.id) ?? [];
  const raw = repo.raw;
  return {
    project: repo.project,
    repo: repo.name,
    path: repo.root,
    status: exists ? 'synced' : 'missing',
    exists,
    is_git_repo: Boolean(git?.is_git_repo),
    branch: git?.branch ?? null,
    dirty: Boolean(git?.dirty),
    changes: git?.changes ?? 0,
    ahead: git?.ahead ?? null,
    behind: git?.behind ?? null,
    head_commit_age_days: ageDays,
    ...(last ? { last_commit: last } : {}),
    ...(earlier.length ? { earlier_subjects: earlier } : {}),
    ...(raw?.default_branch ? { default_branch: raw.default_branch } : {}),
    ...(repo.url ? { url: repo.url } : {}),
    ...(repo.description ? { description: repo.description } : {}),
    ...(scan?.readme_excerpt ? { readme: scan.readme_excerpt } : {}),
    ...(Object.keys(repo.tags).length ? { tags: repo.tags } : {}),
    ...(excerpt(raw?.agent_instructions) ? { agent_instructions: excerpt(raw?.agent_instructions) } : {}),
    ...(scan?.top_level.length ? { top_level: scan.top_level } : {}),
    stack_hints: scan?.stack_hints.slice(0, 8) ?? [],
    health_flags: healthFlags(repo, exists, g.outside !== undefined, git, ageDays, scan, ci),
    ci: ci.ci,
    ...(scan?.agent_files.length ? { agent_files: scan.agent_files } : {}),
    ...g.commands,
    ...(edges ? { edges: edges.of(repo.id) } : {}),
    ...(comps.length
      ? {
          components: comps.slice(0, CARD_COMPONENTS).map(
            (c): CardComponent => ({
              name: c.name,
              path: c.path,
              ...(c.kind ? { kind: c.kind } : {}),
              ...(c.raw.language ? { language: c.raw.language } : {}),
            }),
          ),
          ...(comps.length > CARD_COMPONENTS ? { components_total: comps.length } : {}),
        }
      : {}),
    ...(git?.error ? { error: git.error } : g.outside ? { error: g.outside } : {}),
  };
}

/** What a card needs to know of a checkout: its real directory, or why it is not read. */
function placeOf(c: RepoCheckout): Pick<Gathered, 'exists' | 'dir' | 'outside'> {
  if (c.state === 'present') return { exists: true, dir: c.dir };
  return c.state === 'outside' ? { exists: false, outside: c.error.message } : { exists: false };
}

/** One repository card: git state (one or two git processes), a bounded file scan and the manifest entry. */
export async function buildRepoCard(
  catalog: Catalog,
  repo: CatalogRepo,
  opts: CardOptions,
): Promise<RepoCard> {
  const cache = opts.cache ?? openCommitCache();
  const place = placeOf((opts.checkouts ?? checkoutsOf(catalog)).of(repo));
  const git = place.dir ? await repoGitState(place.dir, { headTime: false }) : undefined;
  const meta = place.dir && git?.head ? await headCommit(place.dir, git.head, cache) : undefined;
  const commands = repoCommands(await loadDetect(), catalog, repo, place.dir);
  return assembleCard(
    catalog,
    repo,
    { ...place, git, meta, commands },
    opts.now,
    await edgeIndexOf(opts.graph),
  );
}

/**
 * Cards for many repositories. Git is read in batches (`git for-each-repo`, a few processes for all of them),
 * and head commits already in the cache cost nothing; order is kept.
 */
export async function buildRepoCards(
  catalog: Catalog,
  repos: readonly CatalogRepo[],
  opts: CardOptions & { concurrency?: number },
): Promise<RepoCard[]> {
  const cache = opts.cache ?? openCommitCache();
  const checkouts = opts.checkouts ?? checkoutsOf(catalog);
  const places = repos.map((r) => placeOf(checkouts.of(r)));
  const present = repos.flatMap((_, i) => (places[i]!.dir ? [i] : []));
  const statesP = repoGitStates(
    present.map((i) => places[i]!.dir!),
    { parallel: opts.concurrency },
  );
  // The checkouts' files are read while the git processes run: the main thread would only wait for them.
  const scans = places.map((p) => (p.dir ? scanRepo(p.dir) : undefined));
  const detect = await loadDetect();
  const commands = repos.map((r, i) => repoCommands(detect, catalog, r, places[i]!.dir));
  const edges = await edgeIndexOf(opts.graph);
  const states = await statesP;
  const git: Array<RepoGitState | undefined> = repos.map(() => undefined);
  present.forEach((i, k) => {
    git[i] = states[k];
  });
  const withHead = repos.flatMap((_, i) =>
    git[i]?.head ? [{ i, root: places[i]!.dir!, head: git[i]!.head! }] : [],
  );
  const metas = await headCommits(withHead, cache, { parallel: opts.concurrency });
  const meta: Array<CommitMeta | undefined> = repos.map(() => undefined);
  withHead.forEach((h, k) => {
    meta[h.i] = metas[k];
  });
  return repos.map((r, i) =>
    assembleCard(
      catalog,
      r,
      { ...places[i]!, git: git[i], meta: meta[i], scan: scans[i], commands: commands[i]! },
      opts.now,
      edges,
    ),
  );
}

/** The card without its optional detail: what survives when a budget is tight. */
export function compactCard(card: RepoCard): RepoCard {
  const {
    description: _d,
    readme: _r,
    top_level: _tl,
    earlier_subjects: _e,
    agent_instructions: _a,
    components: _c,
    components_total: _t,
    last_commit: _l,
    agent_files: _f,
    tags: _g,
    ...rest
  } = card;
  return {
    ...rest,
    stack_hints: card.stack_hints.map((h) => (typeof h === 'string' ? h : h.stack)),
    ci: card.ci ? { provider: card.ci.provider, config: card.ci.config, source: card.ci.source } : null,
  };
}

/** The card without its edges (a budget step after its detail). */
export function withoutEdges(card: RepoCard): RepoCard {
  const { edges: _e, ...rest } = card;
  return rest;
}

/** The card without its commands (the budget step after its edges). */
export function withoutCommands(card: RepoCard): RepoCard {
  const { commands: _c, commands_total: _t, ...rest } = card;
  return rest;
}
