import { type Catalog, type Checkouts, checkoutsOf, gitRefs } from '../catalog/index.js';
import {
  headsOf,
  type RepoRef,
  SESSION_DOCUMENT,
  type SessionDoc,
  sessionDigest,
  updateSession,
} from '../coord/index.js';
import type { WorkspaceGraph } from '../graph/index.js';
import type { DocumentStore } from '../state/index.js';
import { buildRepoCards } from './card.js';
import type { CommitCache } from './commit-cache.js';
import { buildWorkspaceMap, reposInScope } from './map.js';
import { assemblePack, type ContextPack, compactDigest, type ExtraSection, type Tier } from './pack.js';
import type { TokenCounter } from './tokens.js';

/** Most repositories a tier-2 digest reads from git in one pack (as `session digest`). */
export const DIGEST_REPO_LIMIT = 200;

/** The ports a pack needs: catalog, state store, clock, commit cache and the (lazily loaded) tokenizer. */
export interface PackDeps {
  catalog: Catalog;
  store: DocumentStore;
  retries: number;
  now: Date;
  cache: CommitCache;
  /** SHA-256 of the manifest file (read on first call). */
  manifestHash: () => string;
  /** Started before the git work and awaited after it, so the tokenizer import overlaps git processes. */
  counter: Promise<TokenCounter>;
  concurrency?: number;
  /** Judge of checkouts: repositories outside the workspace are never read (default: none allowed). */
  checkouts?: Checkouts;
  /** The workspace graph with inferred edges, built while git runs; without it cards carry no `edges`. */
  graph?: () => WorkspaceGraph | Promise<WorkspaceGraph>;
}

export interface PackRequest {
  tier: Tier;
  project?: string;
  repo?: string;
  mapOffset?: number;
  mapLimit?: number;
  maxTokens?: number;
  /** The input field the budget came in, named by a refusal (default `max_tokens`). */
  budgetField?: string;
  sections?: ExtraSection[];
}

/**
 * Produces a pack: the map page, cards for the repositories on it (tier >= 1), the digest of changes since the
 * last session (tier 2), fitted under the budget. A tier-2 pack whose digest survived the budget moves the
 * session boundary, so the next digest starts here.
 */
export async function producePack(deps: PackDeps, req: PackRequest): Promise<ContextPack> {
  const { catalog } = deps;
  const checkouts = deps.checkouts ?? checkoutsOf(catalog);
  const session = (await deps.store.read<SessionDoc>(SESSION_DOCUMENT)).value;
  const map = buildWorkspaceMap(catalog, {
    checkouts,
    project: req.project,
    repo: req.repo,
    offset: req.mapOffset,
    limit: req.mapLimit,
    activeProject: session?.project ?? null,
  });
  const page = reposInScope(catalog, req.project, req.repo).slice(map.offset, map.offset + map.repos.length);
  const cardsP =
    req.tier >= 1
      ? buildRepoCards(catalog, page, {
          now: deps.now,
          cache: deps.cache,
          concurrency: deps.concurrency,
          checkouts,
          graph: deps.graph,
        })
      : Promise.resolve([]);
  const refs: RepoRef[] = gitRefs(checkouts, page.slice(0, DIGEST_REPO_LIMIT));
  const digestP =
    req.tier === 2
      ? sessionDigest(deps.store, refs, { manifestHash: deps.manifestHash(), concurrency: deps.concurrency })
      : Promise.resolve(undefined);
  const [cards, digest] = await Promise.all([cardsP, digestP]);
  const counter = await deps.counter;
  const ws = catalog.file.manifest;
  const { pack, digestKept } = assemblePack(counter, {
    tier: req.tier,
    workspaceName: ws.workspace?.name ?? ws.name ?? null,
    map,
    cards,
    digest: digest ? compactDigest(digest) : null,
    sections: req.sections,
    maxTokens: req.maxTokens,
    budgetField: req.budgetField,
  });
  if (digest && digestKept) {
    await updateSession(
      deps.store,
      { manifest_hash: deps.manifestHash(), heads: headsOf(digest), advance: true },
      { now: deps.now, retries: deps.retries },
    );
  }
  deps.cache.save();
  return pack;
}
