import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { CatalogRepo } from '../catalog/index.js';
import { ciFiles, configPathOf, detectCi, type Listing, listFolder, providersOf } from '../ci/index.js';
import { tryReadFileBounded } from '../infra/index.js';
import { runInRepos, splitBefore } from '../workspace/index.js';
import { type ActivityCache, activityEntries, activityOf, openActivityCache } from './activity.js';
import { failedGit, originHead, parseStatusCounts, terrainGit } from './git-status.js';
import { type AgentDir, checkoutAgent } from './readiness.js';
import type { TerrainCi, TerrainNode, TerrainResult } from './types.js';
import { visualOf } from './visual.js';

/** Git processes at once by default: two per core (git waits on the disk about half the time). */
export function defaultParallel(): number {
  return Math.max(2, availableParallelism() * 2);
}

export interface EnrichTarget {
  repo: CatalogRepo;
  /** The real checkout folder when present inside the workspace. */
  dir?: string;
}

export interface EnrichOptions {
  now: Date;
  parallel?: number;
  includePipelines: boolean;
  activityCache?: ActivityCache;
  agentDirs: readonly AgentDir[];
  onProgress?: (done: number, total: number) => void;
}

const STATUS_ARGS = ['status', '--porcelain=v2', '--branch'];
const YIELD_EVERY = 25;
const MAX_CHUNK = 250;

/** Repositories per `git for-each-repo`: about two chunks per lane, at most MAX_CHUNK. */
export function chunkSize(n: number, parallel: number): number {
  return Math.max(1, Math.min(MAX_CHUNK, Math.ceil(n / (parallel * 2))));
}

/** Does the listing name a file that the declared CI descriptor points at? Null when it names none. */
function ciBeacon(node: TerrainNode, dir: string, top: Listing): TerrainCi {
  const files = ciFiles(dir, top);
  const detected = providersOf(files);
  const declared = node.ci.declared;
  const path = configPathOf(declared);
  const declaredSeen = declared?.provider
    ? detected.includes(declared.provider as (typeof detected)[number])
    : false;
  const beacon = declared
    ? detected.length === 0
      ? 'declared'
      : declaredSeen
        ? 'both'
        : 'mismatch'
    : detected.length
      ? 'detected'
      : 'none';
  // A declared file CI systems do not read from a fixed place (a Jenkinsfile elsewhere) is looked up by name.
  const config_missing = path
    ? !files.some((f) => f.path === path) &&
      !tryReadFileBounded(join(dir, path), { root: dir, maxBytes: 0, truncate: true }).ok
    : null;
  return { declared, detected, beacon, config_missing };
}

/**
 * Fills the enriched fields of a page of nodes. One `git status --porcelain=v2 --branch` per checkout gives
 * branch, head, upstream distance, dirtiness and conflicts; they run in `git for-each-repo` batches, `parallel` at
 * once, while this process lists the checkouts (CI files, agent files). Head-commit activity comes from the cache
 * by head id, else one batched `git log` per repository.
 */
export async function enrichNodes(
  nodes: TerrainNode[],
  targets: readonly EnrichTarget[],
  opts: EnrichOptions,
): Promise<NonNullable<TerrainResult['enrichment']>> {
  const parallel = Math.max(1, opts.parallel ?? defaultParallel());
  const listings = targets.map((t) => (t.dir ? listFolder(t.dir) : undefined));
  const gitIdx = targets.flatMap((t, i) => (t.dir && listings[i]?.has('.git') ? [i] : []));
  const roots = gitIdx.map((i) => targets[i]!.dir!);
  // Two chunks per lane: a process start from this (large) node process costs milliseconds, so few and big
  // chunks; two per lane still evens out lanes a loaded machine slows down.
  const batchSize = chunkSize(roots.length, parallel);
  // Started first: git works in its own processes while the listings below run here.
  const statusP = runInRepos(roots, STATUS_ARGS, (out) => splitBefore(out, '# branch.oid '), {
    parallel,
    batchSize,
    onProgress: opts.onProgress,
  });

  const defaults: Array<string | null> = targets.map(() => null);
  for (let i = 0; i < targets.length; i++) {
    // Yield now and then: a chunk git finished is handed its next one at once instead of after every listing.
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((r) => setImmediate(r));
    const t = targets[i]!;
    const top = listings[i];
    const node = nodes[i]!;
    if (!t.dir || !top) continue;
    node.is_git_repo = top.has('.git');
    node.ci = ciBeacon(node, t.dir, top);
    if (opts.includePipelines) {
      const det = detectCi(t.dir, top);
      node.pipeline = {
        status: 'unknown',
        providers: det.providers.map((p) => ({ provider: p.provider, files: p.files })),
      };
    }
    node.agent = checkoutAgent(
      t.dir,
      top,
      {
        has_agent_instructions: node.agent.has_agent_instructions,
        has_agent_profile: node.agent.has_agent_profile,
      },
      opts.agentDirs,
    );
    // origin/HEAD is read only from a real .git folder (a .git file or link leads elsewhere).
    if (node.is_git_repo)
      defaults[i] =
        t.repo.raw?.default_branch ?? (top.get('.git') === 'dir' ? originHead(t.dir) : undefined) ?? null;
  }

  const statuses = await statusP;
  const cache = opts.activityCache ?? openActivityCache();
  const counts = statuses.map((r) => (r.code === 0 ? parseStatusCounts(r.stdout) : undefined));
  const heads = gitIdx.flatMap((i, k) =>
    counts[k]?.head ? [{ k, root: targets[i]!.dir!, head: counts[k]!.head! }] : [],
  );
  const { entries } = await activityEntries(heads, cache, opts.now, {
    parallel,
    batchSize: chunkSize(heads.length, parallel),
  });
  cache.save();
  const entryOf = new Map(heads.map((h, j) => [h.k, entries[j]]));
  let errors = 0;
  gitIdx.forEach((i, k) => {
    const node = nodes[i]!;
    const s = counts[k];
    if (!s) {
      errors++;
      node.git = failedGit(
        statuses[k]!.stderr.trim().split('\n')[0] || 'git status failed',
        defaults[i] ?? null,
      );
      return;
    }
    const e = entryOf.get(k);
    node.git = terrainGit(s, defaults[i] ?? null, e ? new Date(e.head * 1000).toISOString() : null, opts.now);
    node.activity = s.head ? activityOf(e, opts.now) : null;
  });
  for (const node of nodes) {
    node.visual = visualOf(node, true);
    node.coordinates.z = node.visual.elevation;
  }
  return { parallel, git_repos: roots.length, git_errors: errors };
}
